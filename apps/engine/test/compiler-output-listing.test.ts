// The output folder's listing, kept between compiles of a --watch loop (output-listing.ts): a
// folder is read again when its change time moved, and never trusted when it changed just
// before it was read (a coarse time stamp could hide a second change).
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { listOutputs, OutputListingCache } from '../src/compiler/output-listing.ts';

let out: string;
beforeEach(() => {
  out = mkdtempSync(join(tmpdir(), 'cuttle-listing-'));
  mkdirSync(join(out, 'units/deep'), { recursive: true });
  for (const file of ['manifest.json', 'units/a.unit.cr', 'units/b.unit.cr', 'units/deep/c.unit.cr']) writeFileSync(join(out, file), 'x');
});
afterEach(() => {
  rmSync(out, { recursive: true, force: true });
});

const sorted = (set: Set<string>): string[] => [...set].sort();
/** Stamps every folder as changed a minute ago: their listings can be trusted. */
const age = (): void => {
  const then = new Date(Date.now() - 60_000);
  for (const dir of ['units/deep', 'units', '']) utimesSync(join(out, dir), then, then);
};

describe('listOutputs', () => {
  test('lists every file, nested, as manifest entries name them; nothing for a missing folder', () => {
    expect(sorted(listOutputs(out))).toEqual(['manifest.json', 'units/a.unit.cr', 'units/b.unit.cr', 'units/deep/c.unit.cr']);
    expect(listOutputs(join(out, 'nowhere')).size).toBe(0);
  });

  test('a kept listing is reused while its folder is unchanged, and read again once it changes', () => {
    const cache = new OutputListingCache(out);
    age();
    listOutputs(out, cache);
    expect(cache.folders.has('units')).toBe(true);
    const kept = cache.folders.get('units');
    listOutputs(out, cache);
    expect(cache.folders.get('units')).toBe(kept);
    rmSync(join(out, 'units/b.unit.cr'));
    writeFileSync(join(out, 'units/deep/d.unit.cr'), 'x');
    expect(sorted(listOutputs(out, cache))).toEqual(['manifest.json', 'units/a.unit.cr', 'units/deep/c.unit.cr', 'units/deep/d.unit.cr']);
    rmSync(join(out, 'units/deep'), { recursive: true });
    expect(sorted(listOutputs(out, cache))).toEqual(['manifest.json', 'units/a.unit.cr']);
    expect(cache.folders.has('units/deep')).toBe(false);
  });

  test('a folder changed just before it was read is read again, though its stamp says nothing changed', () => {
    const cache = new OutputListingCache(out);
    listOutputs(out, cache);
    // Changed right before the listing: not kept.
    expect(cache.folders.has('units')).toBe(false);
    // A second change the coarse stamp does not show.
    const stamp = new Date(Date.now());
    utimesSync(join(out, 'units'), stamp, stamp);
    listOutputs(out, cache);
    rmSync(join(out, 'units/a.unit.cr'));
    utimesSync(join(out, 'units'), stamp, stamp);
    expect(sorted(listOutputs(out, cache))).toEqual(['manifest.json', 'units/b.unit.cr', 'units/deep/c.unit.cr']);
  });

  test('a cache made for another folder is not used', () => {
    const cache = new OutputListingCache(join(out, 'units'));
    age();
    listOutputs(out, cache);
    expect(cache.folders.size).toBe(0);
  });
});
