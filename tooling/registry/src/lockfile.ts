// Where npm says the installed Cuttle packages came from: package-lock.json's `packages`, every
// node_modules/@cuttle/* entry at any depth, checked against the registry and the versions
// `changeset version` gave.
import type { Versions } from './versions.ts';

export interface LockEntry {
  version?: string;
  resolved?: string;
  link?: boolean;
}

export interface Lockfile {
  packages?: Record<string, LockEntry>;
}

/** The tarball URL Verdaccio (like npm's registry) gives @scope/name@version. */
export function tarballUrl(registry: string, name: string, version: string): string {
  const base = registry.endsWith('/') ? registry : `${registry}/`;
  return `${base}${name}/-/${name.slice(name.lastIndexOf('/') + 1)}-${version}.tgz`;
}

/** The Cuttle package an entry key installs (node_modules/@cuttle/x, at any depth), or undefined. */
export function cuttleName(key: string): string | undefined {
  return /(?:^|\/)node_modules\/(@cuttle\/[^/]+)$/.exec(key)?.[1];
}

/**
 * What is wrong with `lock` as an install of `expected` from `registry` (empty when nothing):
 * each expected package installed at the top level, every Cuttle entry at any depth at the
 * published version and resolved from the registry's tarball URL (not a file:, link or other
 * registry), and no Cuttle package that was not published.
 */
export function lockProblems(lock: Lockfile, expected: Versions, registry: string): string[] {
  const problems: string[] = [];
  const entries = lock.packages ?? {};
  for (const name of expected.keys()) {
    if (entries[`node_modules/${name}`] === undefined) problems.push(`${name} is not installed at node_modules/${name}`);
  }
  for (const [key, entry] of Object.entries(entries)) {
    const name = cuttleName(key);
    if (name === undefined) continue;
    const version = expected.get(name);
    if (version === undefined) {
      problems.push(`${key}: ${name} was not published by this release`);
      continue;
    }
    if (entry.link === true) problems.push(`${key}: a link, not a registry install`);
    if (entry.version !== version) problems.push(`${key}: version ${entry.version ?? 'none'}, published ${version}`);
    const url = tarballUrl(registry, name, version);
    if (entry.resolved !== url) problems.push(`${key}: resolved ${entry.resolved ?? 'nowhere'}, expected ${url}`);
  }
  return problems;
}

/** Dependency ranges a published manifest must not have (the workspace's own protocols). */
export function unpublishableRanges(manifest: { name: string; dependencies?: Record<string, string>; peerDependencies?: Record<string, string> }): string[] {
  const out: string[] = [];
  for (const [dep, range] of Object.entries({ ...manifest.dependencies, ...manifest.peerDependencies })) {
    if (/^(workspace|file|link|portal):/.test(range)) out.push(`${manifest.name} depends on ${dep}@${range}`);
  }
  return out;
}
