// The manifest's bytes come from runs reused between compiles of one process (manifest-text.ts):
// they must be JSON.stringify(manifest, null, 1) byte for byte, whatever changed in between.
import { describe, expect, test } from 'vitest';
import { ManifestTextCache, manifestBytes } from '../src/compiler/manifest-text.ts';
import type { Manifest, ManifestEntry } from '../src/compiler/manifest.ts';

const text = (manifest: object, cache: ManifestTextCache): string => Buffer.concat(manifestBytes(manifest, cache)).toString('utf8');

function entry(path: string, i: number): ManifestEntry {
  const dot = path.lastIndexOf('.');
  const type = path.slice(dot + 1);
  return {
    type,
    name: path.slice(0, dot),
    file: `${path}.cr`,
    hash: i.toString(16).padStart(40, '0'),
    size: 100 + i,
    inputs: { [path]: (i * 7).toString(16).padStart(40, 'a') },
    ...(type === 'png' ? { settings: { usage: i % 2 === 0 ? 'color' : 'normal' } } : {}),
  };
}

/** A manifest shaped as the compiler writes one, with `count` resources. */
function makeManifest(count: number): Manifest {
  const manifest: Manifest = { compiler: 'cuttle-engine/10', sources: {}, resources: {}, failed: [] };
  for (let i = 0; i < count; i++) {
    const path = `${['units/u', 'levels/l', 'textures/t'][i % 3]!}${i}${['.unit', '.level', '.png'][i % 3]!}`;
    manifest.sources[path] = i.toString(16).padStart(40, 'f');
    manifest.resources[path] = entry(path, i);
  }
  return manifest;
}

describe('manifestBytes', () => {
  test('writes what JSON.stringify writes, through every kind of change, reusing the cache', () => {
    const manifest = makeManifest(500);
    const cache = new ManifestTextCache();
    const expectSame = (): void => {
      expect(text(manifest, cache)).toBe(JSON.stringify(manifest, null, 1));
    };
    expectSame();
    expectSame();
    // One entry replaced (a rebuilt resource: a new object), one source hash changed.
    const paths = Object.keys(manifest.resources);
    manifest.resources[paths[100]!] = { ...manifest.resources[paths[100]!]!, hash: 'b'.repeat(40) };
    manifest.sources[paths[200]!] = 'c'.repeat(40);
    expectSame();
    // Removed from the middle and the end, added at the end, an entry without settings member.
    Reflect.deleteProperty(manifest.resources, paths[5]!);
    Reflect.deleteProperty(manifest.sources, paths[499]!);
    Reflect.deleteProperty(manifest.resources, paths[499]!);
    manifest.resources['extra/new.unit'] = { ...entry('extra/new.unit', 9), settings: undefined };
    expectSame();
    // Keys JSON orders first or treats specially, text outside ASCII, failures.
    manifest.sources['42'] = 'integer-like';
    // An own member named __proto__, as JSON.parse makes one.
    Object.defineProperty(manifest.sources, '__proto__', { value: 'a member', enumerable: true, writable: true, configurable: true });
    manifest.sources['textures/größe "quoted"\\.png'] = 'unicode';
    manifest.failed.push('units/broken.unit', 'ünits/ß.unit');
    expectSame();
    manifest.resources = {};
    expectSame();
  });

  test('small and empty documents', () => {
    for (const value of [{}, { sources: {} }, { sources: { a: 'b' } }, { compiler: 'x', sources: {}, resources: { 'a.unit': entry('a.unit', 1) }, failed: [] }, { failed: ['a'], nested: { deep: [1, { x: null }] } }]) {
      expect(text(value, new ManifestTextCache())).toBe(JSON.stringify(value, null, 1));
    }
  });

  test('says when the bytes are the very ones it made last time', () => {
    const manifest = makeManifest(300);
    const cache = new ManifestTextCache();
    manifestBytes(manifest, cache);
    expect(cache.unchanged).toBe(false);
    manifestBytes(manifest, cache);
    expect(cache.unchanged).toBe(true);
    // A copy of an entry is another object: its run is encoded again (the same bytes, but not
    // known to be), so it counts as a change.
    const path = Object.keys(manifest.resources)[7]!;
    manifest.resources[path] = { ...manifest.resources[path]! };
    manifestBytes(manifest, cache);
    expect(cache.unchanged).toBe(false);
    manifestBytes(manifest, cache);
    expect(cache.unchanged).toBe(true);
    manifest.failed.push(path);
    manifestBytes(manifest, cache);
    expect(cache.unchanged).toBe(false);
    manifest.compiler = 'another';
    manifestBytes(manifest, cache);
    expect(cache.unchanged).toBe(false);
  });
});
