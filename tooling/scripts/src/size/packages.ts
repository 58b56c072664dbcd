// The publishable packages (packages/* without "private"), the set `pnpm size` measures.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SizeManifest {
  name: string;
  private?: boolean;
  sideEffects?: boolean | string[];
  exports?: Record<string, unknown>;
}

export interface PublishablePackage {
  /** packages/<short> */
  dir: string;
  short: string;
  manifest: SizeManifest;
}

export function publishablePackages(packagesDir: string): PublishablePackage[] {
  const out: PublishablePackage[] = [];
  for (const entry of readdirSync(packagesDir, { withFileTypes: true })) {
    const dir = join(packagesDir, entry.name);
    if (!entry.isDirectory() || !existsSync(join(dir, 'package.json'))) continue;
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as SizeManifest;
    if (manifest.private === true) continue;
    out.push({ dir, short: entry.name, manifest });
  }
  return out.sort((a, b) => a.short.localeCompare(b.short));
}
