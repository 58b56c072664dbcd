// Package versions before and after `changeset version`, and what a patch release must change.
import { publishablePackages } from '../../scripts/src/publishable.ts';

/** Package name → version. */
export type Versions = Map<string, string>;

export function readVersions(packagesDir: string): Versions {
  return new Map(publishablePackages(packagesDir).map((p) => [p.manifest.name, p.manifest.version]));
}

export interface Semver {
  major: number;
  minor: number;
  patch: number;
  prerelease: string;
}

export function parseVersion(version: string): Semver {
  const m = /^(\d+)\.(\d+)\.(\d+)(?:-([\w.-]+))?(?:\+[\w.-]+)?$/.exec(version);
  if (m === null) throw new Error(`not a semver version: ${JSON.stringify(version)}`);
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), prerelease: m[4] ?? '' };
}

/** The version a patch release of `version` gets: x.y.(z+1). */
export function nextPatch(version: string): string {
  const v = parseVersion(version);
  if (v.prerelease !== '') throw new Error(`${version} is a prerelease; a patch changeset would not simply bump its patch number`);
  return `${v.major}.${v.minor}.${v.patch + 1}`;
}

/**
 * What is wrong with `after` as the result of a patch changeset for `bumped` alone on `before`
 * (empty when nothing): `bumped` must go to patch+1, every other package must keep its version.
 */
export function patchReleaseProblems(before: Versions, after: Versions, bumped: string): string[] {
  const problems: string[] = [];
  const old = before.get(bumped);
  if (old === undefined) return [`${bumped} is not a publishable package`];
  const expected = nextPatch(old);
  if (after.get(bumped) !== expected) problems.push(`${bumped}: expected ${old} → ${expected}, got ${after.get(bumped) ?? 'nothing'}`);
  for (const [name, version] of before) {
    if (name !== bumped && after.get(name) !== version) problems.push(`${name}: changed ${version} → ${after.get(name) ?? 'nothing'} though only ${bumped} had a changeset`);
  }
  for (const name of after.keys()) if (!before.has(name)) problems.push(`${name}: appeared`);
  return problems;
}

/** name@version lines of the packages whose version differs between `before` and `after`. */
export function bumped(before: Versions, after: Versions): string[] {
  return [...after].filter(([name, version]) => before.get(name) !== version).map(([name, version]) => `${name}@${before.get(name) ?? '-'} → ${version}`);
}
