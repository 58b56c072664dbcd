// Structural diff and 3-way merge of generated level files (1 and 10 MB of JSON, an id array of
// placed units as the bulk) against jsondiffpatch with an id objectHash. jsondiffpatch has no
// 3-way merge; its users diff both sides against the base and patch both deltas onto it, which
// is what the peer's merge case does. Parse and write are measured against JSON.parse/stringify.
import { defineSuite, timeMs, type BenchCase } from '@cuttle/bench';
import { create } from 'jsondiffpatch';
import { apply, diff, jsonEqual, merge, parseSjson, writeSjson, type JsonObject, type JsonValue } from '../src/index.ts';
import { editLevel, generateLevel } from './generate-level.ts';
import { describeTally, isCorrectMerge, tallyMerge } from './merge-check.ts';

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

function jdpMerge(f: Fixture): JsonValue {
  const dl = jdp.diff(f.base, f.left);
  const dr = jdp.diff(f.base, f.right);
  let out = jdp.clone(f.base);
  if (dl !== undefined) out = jdp.patch(out, dl);
  // Patching the second delta onto the first result is how a 3-way merge is done with it. A
  // delta whose array indices no longer fit could throw; setup checks that it does not here.
  if (dr !== undefined) out = jdp.patch(out, dr);
  return out as JsonValue;
}

class BenchCheckError extends Error {
  override readonly name = 'BenchCheckError';
}

/** What the peer's merge recipe produced on each fixture, checked in setup for the notes. */
const peerMergeOutcomes: { label: string; correct: boolean; words: string }[] = [];

function peerMergeSentence(): string {
  if (peerMergeOutcomes.every((o) => o.correct)) return 'jsondiffpatch\'s diff rebuilds the edit too, and its merge recipe gave a correct merge at every size it ran.';
  const outcomes = peerMergeOutcomes.map((o) => `${o.label}: ${o.words}`).join('; ');
  return `jsondiffpatch's diff rebuilds the edit too, but its merge recipe is not a correct merge, so its merge column times a wrong result (${outcomes}; the right side's delta, taken against the base, lands on the left side's result).`;
}

/**
 * Checks every contender's result once before anything is timed: ours must diff to a patch that
 * rebuilds the edit and merge correctly (bench/merge-check.ts) with the settings conflict
 * reported; jsondiffpatch's diff must round-trip, and what its merge recipe makes is recorded.
 */
function checkFixture(f: Fixture, peerRuns: boolean): void {
  if (!jsonEqual(apply(f.base, diff(f.base, f.left)), f.left)) throw new BenchCheckError(`${f.label}: our diff does not rebuild the edit.`);
  const ours = merge(f.base, f.left, f.right);
  const tally = tallyMerge(f.base, f.left, f.right, ours.merged);
  if (!isCorrectMerge(tally)) throw new BenchCheckError(`${f.label}: our merge is wrong: ${describeTally(tally)}.`);
  if (!ours.conflicts.some((c) => c.path.length === 2 && c.path[0] === 'settings' && c.path[1] === 'sky')) throw new BenchCheckError(`${f.label}: our merge did not report the settings.sky conflict.`);
  if (!peerRuns) return;
  if (!jsonEqual(jdp.patch(jdp.clone(f.base), jdp.diff(f.base, f.left)) as JsonValue, f.left)) throw new BenchCheckError(`${f.label}: jsondiffpatch's diff does not rebuild the edit.`);
  const peerTally = tallyMerge(f.base, f.left, f.right, jdpMerge(f));
  peerMergeOutcomes.push({ label: f.label, correct: isCorrectMerge(peerTally), words: describeTally(peerTally) });
}

// jsondiffpatch's array LCS is quadratic in memory: at 10 MB (26k units) it exhausts a 4 GB
// heap, so the 10 MB cases run ours alone.
const peerRunsOn = (f: Fixture): boolean => f.label !== '10 MB';

export const suite = defineSuite({
  package: '@cuttle/tools-merge',
  rounds: 5,
  setup() {
    fixtures.push(fixture(1), fixture(2), fixture(10));
    for (const f of fixtures) checkFixture(f, peerRunsOn(f));
  },
  cases: (): BenchCase[] =>
    fixtures.flatMap((f): BenchCase[] => {
      const peerRuns = peerRunsOn(f);
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
  // A getter: the peer's merge outcomes are known only once setup has checked them.
  get notes(): string {
    return [
      'Generated level files (bench/generate-level.ts): an id array of placed units is the bulk, plus id arrays of lights and',
      'strings, a plain array of spline points and settings. Each side moves 1% of the units, removes and adds 0.25%, and both',
      'change the same setting (at least one real conflict, plus any unit both sides happened to move). jsondiffpatch 0.7.7 runs with an objectHash on `id`, so it too matches',
      'array elements by id. Its "merge" diffs both sides against the base and patches both deltas (its users\' recipe; it',
      'has no 3-way merge and reports no conflicts). At 10 MB jsondiffpatch runs out of memory with the default Node heap (its array LCS table is',
      'quadratic), so those rows have no peer. `parse SJSON` reads the SJSON form, `parse JSON text` the compact JSON form (plain JSON takes a JSON.parse fast path plus a depth and finiteness check). Times are medians of 3 rounds (5 for parse, write and 10 MB), one call per round.',
      'Before timing, setup checks every result against bench/merge-check.ts, which derives the right merge from the two edits by unit id:',
      'our diff rebuilds the edit, and our merge is correct at every size with the settings conflict reported, or the run stops.',
      peerMergeSentence(),
    ].join(' ');
  },
});
