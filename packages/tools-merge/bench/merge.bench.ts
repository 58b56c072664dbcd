// Structural diff and 3-way merge of generated level files (1 and 10 MB of JSON, an id array of
// placed units as the bulk) against jsondiffpatch with an id objectHash. jsondiffpatch has no
// 3-way merge; its users diff both sides against the base and patch both deltas onto it, which
// is what the peer's merge case does. Parse and write are measured against JSON.parse/stringify.
import { defineSuite, timeMs, type BenchCase } from '@cuttle/bench';
import { create } from 'jsondiffpatch';
import { diff, merge, parseSjson, writeSjson, type JsonObject, type JsonValue } from '../src/index.ts';
import { editLevel, generateLevel } from './generate-level.ts';

const jdp = create({
  objectHash: (item: object, index?: number) => {
    const o = item as { id?: unknown };
    return typeof o.id === 'string' ? o.id : `$$index:${index ?? 0}`;
  },
});

interface Fixture {
  label: string;
  base: JsonObject;
  left: JsonObject;
  right: JsonObject;
  sjson: string;
  json: string;
}

const fixtures: Fixture[] = [];

function fixture(mb: number): Fixture {
  const base = generateLevel(mb * 1024 * 1024, 7);
  const left = editLevel(base, 2);
  const right = editLevel(base, 3);
  return { label: `${mb} MB`, base, left, right, sjson: writeSjson(base), json: JSON.stringify(base) };
}

function jdpMerge(f: Fixture): unknown {
  const dl = jdp.diff(f.base, f.left);
  const dr = jdp.diff(f.base, f.right);
  let out = jdp.clone(f.base);
  if (dl !== undefined) out = jdp.patch(out, dl);
  // Patching the second delta onto the first result is how a 3-way merge is done with it; a
  // delta whose array indices no longer fit throws, which counts as a (fast) failure here.
  try {
    if (dr !== undefined) out = jdp.patch(out, dr);
  } catch {
    return null;
  }
  return out;
}

export const suite = defineSuite({
  package: '@cuttle/tools-merge',
  rounds: 5,
  setup() {
    fixtures.push(fixture(1), fixture(2), fixture(10));
  },
  cases: (): BenchCase[] =>
    fixtures.flatMap((f): BenchCase[] => {
      // jsondiffpatch's array LCS is quadratic in memory: at 10 MB (26k units) it exhausts a
      // 4 GB heap, so the 10 MB cases run ours alone.
      const peerRuns = f.label !== '10 MB';
      return [
      {
        name: `diff, ${f.label} level`,
        unit: 'ms',
        higherIsBetter: false,
        rounds: peerRuns ? 3 : 5,
        ours: () => timeMs(() => diff(f.base, f.left)),
        peers: peerRuns ? { jsondiffpatch: () => timeMs(() => jdp.diff(f.base, f.left)) } : {},
      },
      {
        name: `3-way merge, ${f.label} level`,
        unit: 'ms',
        higherIsBetter: false,
        rounds: peerRuns ? 3 : 5,
        ours: () => timeMs(() => merge(f.base, f.left, f.right)),
        peers: peerRuns ? { 'jsondiffpatch (diff both, patch both)': () => timeMs(() => jdpMerge(f)) } : {},
      },
      {
        name: `parse SJSON, ${f.label} level`,
        unit: 'ms',
        higherIsBetter: false,
        ours: () => timeMs(() => parseSjson(f.sjson)),
        peers: { 'JSON.parse (of the JSON form)': () => timeMs(() => JSON.parse(f.json) as JsonValue) },
      },
      {
        name: `parse JSON text, ${f.label} level`,
        unit: 'ms',
        higherIsBetter: false,
        ours: () => timeMs(() => parseSjson(f.json)),
        peers: { 'JSON.parse (of the JSON form)': () => timeMs(() => JSON.parse(f.json) as JsonValue) },
      },
      {
        name: `write, ${f.label} level`,
        unit: 'ms',
        higherIsBetter: false,
        ours: () => timeMs(() => writeSjson(f.base)),
        peers: { 'JSON.stringify (indent 4)': () => timeMs(() => JSON.stringify(f.base, null, 4)) },
      },
      ];
    }),
  notes: [
    'Generated level files (bench/generate-level.ts): an id array of placed units is the bulk, plus id arrays of lights and',
    'strings, a plain array of spline points and settings. Each side moves 1% of the units, removes and adds 0.25%, and both',
    'change the same setting (at least one real conflict, plus any unit both sides happened to move). jsondiffpatch 0.7.7 runs with an objectHash on `id`, so it too matches',
    'array elements by id. Its "merge" diffs both sides against the base and patches both deltas (its users\' recipe; it',
    'has no 3-way merge and reports no conflicts). At 10 MB jsondiffpatch runs out of memory with the default Node heap (its array LCS table is',
    'quadratic), so those rows have no peer. `parse SJSON` reads the SJSON form, `parse JSON text` the compact JSON form (plain JSON takes a JSON.parse fast path plus a depth and finiteness check). Times are medians of 3 rounds (5 for parse, write and 10 MB), one call per round.',
  ].join(' '),
});
