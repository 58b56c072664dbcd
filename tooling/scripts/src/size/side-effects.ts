// sideEffects: every package declares `"sideEffects": false`, so a bundler may drop any of its
// files (and any other Cuttle package it imports) that an app does not use; only @cuttle/jobs
// lists a file, its worker entry, which runs for its effects when a worker starts. The figures
// then show it works: one named export alone bundles to less than the whole entry.
import type { BundleFigures } from './measure.ts';
import type { PackageManifest } from '../publishable.ts';

/** Packages whose sideEffects lists files: the export subpath whose built file it must list. */
const WITH_SIDE_EFFECTS: Readonly<Record<string, string>> = { '@cuttle/jobs': './worker' };

function defaultTarget(entry: unknown): string | undefined {
  if (typeof entry === 'string') return entry;
  if (entry !== null && typeof entry === 'object' && 'default' in entry) return defaultTarget(entry.default);
  return undefined;
}

/** Problems with the manifest's sideEffects field; empty when it is as it should be. */
export function sideEffectsFieldProblems(manifest: Pick<PackageManifest, 'name' | 'sideEffects' | 'exports'>): string[] {
  const subpath = WITH_SIDE_EFFECTS[manifest.name];
  const field = manifest.sideEffects === undefined ? 'nothing' : JSON.stringify(manifest.sideEffects);
  if (subpath === undefined) {
    return manifest.sideEffects === false ? [] : [`${manifest.name}: package.json has "sideEffects": ${field}; it should be false so bundlers can drop what is unused`];
  }
  const file = defaultTarget(manifest.exports?.[subpath]);
  if (Array.isArray(manifest.sideEffects) && file !== undefined && manifest.sideEffects.includes(file)) return [];
  return [`${manifest.name}: package.json's "sideEffects" (${field}) should list ${file ?? `the ${subpath} export's file`} and nothing that is always imported`];
}

/** A problem when one small export alone is no smaller than the whole entry. */
export function treeShakingProblem(name: string, figures: BundleFigures): string | undefined {
  const one = figures.smallestExport;
  if (one === undefined) return `${name}: its main entry has no named export to check tree shaking with`;
  if (one.minBytes < figures.whole.minBytes) return undefined;
  return `${name}: \`${one.name}\` alone bundles to ${one.minBytes} B, no less than the whole entry (${figures.whole.minBytes} B): bundlers cannot drop what is unused`;
}
