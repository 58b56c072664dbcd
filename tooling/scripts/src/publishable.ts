// The publishable packages: packages/* without "private": true. What the packed-install test
// installs, `pnpm size` measures and the API reports cover.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The fields of a package.json these scripts read (each reads what it needs). */
export interface PackageManifest {
  name: string;
  version: string;
  private?: boolean;
  sideEffects?: boolean | string[];
  exports?: Record<string, unknown>;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

export interface PublishablePackage {
  /** packages/<short> */
  dir: string;
  short: string;
  manifest: PackageManifest;
}

/** The publishable packages under `packagesDir`, sorted by folder name. */
export function publishablePackages(packagesDir: string): PublishablePackage[] {
  const out: PublishablePackage[] = [];
  for (const entry of readdirSync(packagesDir, { withFileTypes: true })) {
    const dir = join(packagesDir, entry.name);
    if (!entry.isDirectory() || !existsSync(join(dir, 'package.json'))) continue;
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageManifest;
    if (manifest.private === true) continue;
    out.push({ dir, short: entry.name, manifest });
  }
  return out.sort((a, b) => a.short.localeCompare(b.short));
}
