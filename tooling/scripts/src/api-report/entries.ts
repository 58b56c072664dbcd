// Which API reports exist: every published package under packages/ (no "private": true), and
// in it every `exports` subpath whose types are a .d.ts of its own. "." is reported as
// `index`, "./worker" as `worker`; subpaths without types (JSON schemas, package.json) have
// no API to report.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { publishablePackages } from '../publishable.ts';

/** One public entry point of one package, and where its report lives. */
export interface ApiEntry {
  /** The package's name, e.g. `@cuttle/jobs`. */
  packageName: string;
  /** The package's folder (absolute). */
  packageDir: string;
  /** The report's base name: `index` for ".", else the subpath without "./". */
  entry: string;
  /** The built declaration file the report is made from (absolute). */
  dtsPath: string;
}

interface Manifest {
  name: string;
  private?: boolean;
  exports?: Record<string, unknown>;
}

function typesOf(target: unknown): string | undefined {
  if (typeof target !== 'object' || target === null) return undefined;
  const types = (target as Record<string, unknown>).types;
  return typeof types === 'string' && types.endsWith('.d.ts') ? types : undefined;
}

function entryName(subpath: string): string {
  return subpath === '.' ? 'index' : subpath.replace(/^\.\//, '').replaceAll('/', '-');
}

/** The entries of one package folder, or [] when it is private or has no package.json. */
export function packageEntries(packageDir: string): ApiEntry[] {
  const manifestPath = join(packageDir, 'package.json');
  if (!existsSync(manifestPath)) return [];
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  if (manifest.private === true) return [];
  const entries: ApiEntry[] = [];
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
    const types = typesOf(target);
    if (types === undefined) continue;
    entries.push({ packageName: manifest.name, packageDir, entry: entryName(subpath), dtsPath: join(packageDir, types) });
  }
  return entries;
}

/** Every entry of every published package under `packagesDir`, in folder then exports order. */
export function publishedEntries(packagesDir: string): ApiEntry[] {
  return publishablePackages(packagesDir).flatMap((p) => packageEntries(p.dir));
}
