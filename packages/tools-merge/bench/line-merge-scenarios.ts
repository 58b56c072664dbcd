// Merges that a line-based 3-way merge (node-diff3, the algorithm behind `git merge-file`) gets
// wrong on structured data, and how the structural merge handles each. Used by
// test/line-merge.test.ts and by bench/line-merge-table.ts, which prints the README's table.
import { merge as lineMerge } from 'node-diff3';
import type { JsonObject, JsonValue } from '../src/index.ts';
import { jsonClone, jsonEqual, merge, parseSjson, SjsonParseError, writeJson, writeSjson } from '../src/index.ts';

export interface Scenario {
  name: string;
  left: (doc: JsonObject) => void;
  right: (doc: JsonObject) => void;
}

interface Unit {
  id: string;
  [key: string]: JsonValue;
}
const units = (d: JsonObject): Unit[] => d.units as Unit[];
const settings = (d: JsonObject): JsonObject => d.settings as JsonObject;

export function baseLevel(): JsonObject {
  return {
    name: 'himalaya',
    settings: { gravity: -9.81, fog: 0.2 },
    units: [
      { id: 'a', unit: 'units/rock', position: [0, 0, 0], material: 'stone' },
      { id: 'b', unit: 'units/tree', position: [1, 0, 0], material: 'bark' },
      { id: 'c', unit: 'units/key', position: [2, 0, 0], material: 'gold' },
    ],
  };
}

const newUnit = (id: string, x: number): Unit => ({ id, unit: 'units/lamp', position: [x, 0, 0], material: 'glass' });

export const SCENARIOS: Scenario[] = [
  { name: 'both add a unit at the end of the array', left: (d) => units(d).push(newUnit('d', 3)), right: (d) => units(d).push(newUnit('e', 4)) },
  { name: 'both add a unit after the same unit', left: (d) => units(d).splice(1, 0, newUnit('d', 3)), right: (d) => units(d).splice(1, 0, newUnit('e', 4)) },
  { name: 'one moves a unit, the other changes its material', left: (d) => (units(d)[0]!.position = [0, 9, 0]), right: (d) => (units(d)[0]!.material = 'marble') },
  { name: 'one removes a unit, the other edits its neighbour', left: (d) => units(d).splice(1, 1), right: (d) => (units(d)[2]!.position = [2, 5, 0]) },
  { name: 'one adds a setting, the other edits the last setting', left: (d) => (settings(d).sky = 'dusk'), right: (d) => (settings(d).fog = 0.9) },
  { name: 'one reorders the units, the other edits a moved unit', left: (d) => units(d).push(units(d).shift()!), right: (d) => (units(d)[0]!.material = 'marble') },
  { name: 'one removes the last unit, the other appends one', left: (d) => units(d).pop(), right: (d) => units(d).push(newUnit('e', 4)) },
  { name: 'the same unit added on both sides at different places (a cherry-pick)', left: (d) => units(d).splice(1, 0, newUnit('d', 3)), right: (d) => units(d).push(newUnit('d', 3)) },
  { name: 'both add different settings', left: (d) => (settings(d).sky = 'dusk'), right: (d) => (settings(d).wind = 3) },
  { name: 'both change the same value (a real conflict)', left: (d) => (settings(d).fog = 0.5), right: (d) => (settings(d).fog = 0.9) },
];

export type LineOutcome = 'conflict markers' | 'clean, unparseable' | 'clean, wrong data' | 'clean, correct';

export interface ScenarioResult {
  name: string;
  format: 'sjson' | 'json';
  line: LineOutcome;
  /** The structural merge: its result parses and keeps every id once; conflicts it reported. */
  oursConflicts: number;
  oursCorrect: boolean;
}

/** Runs one scenario in one file format through both merges. */
export function runScenario(s: Scenario, format: 'sjson' | 'json'): ScenarioResult {
  const base = baseLevel();
  const left = jsonClone(base) as JsonObject;
  const right = jsonClone(base) as JsonObject;
  s.left(left);
  s.right(right);
  const write = format === 'json' ? writeJson : writeSjson;
  const [bt, lt, rt] = [write(base), write(left), write(right)];
  const ours = merge(parseSjson(bt), parseSjson(lt), parseSjson(rt));
  const expected = ours.merged;
  // Ours is correct when both sides' changes are in and every id appears once.
  const ids = units(expected as JsonObject).map((u) => u.id);
  const lIds = new Set(units(left).map((u) => u.id));
  const rIds = new Set(units(right).map((u) => u.id));
  const bIds = new Set(units(base).map((u) => u.id));
  const keepsIds =
    new Set(ids).size === ids.length &&
    [...lIds, ...rIds].every((id) => ids.includes(id) || (!(lIds.has(id) && rIds.has(id)) && bIds.has(id)));
  const oursCorrect = keepsIds && jsonEqual(merge(base, left, expected).merged, expected);

  const split = (t: string): string[] => t.split('\n');
  const lm = lineMerge(split(lt), split(bt), split(rt));
  let line: LineOutcome;
  if (lm.conflict) {
    line = 'conflict markers';
  } else {
    let parsed: JsonValue | undefined;
    try {
      parsed = parseSjson(lm.result.join('\n'));
    } catch (e) {
      if (!(e instanceof SjsonParseError)) throw e;
    }
    line = parsed === undefined ? 'clean, unparseable' : jsonEqual(parsed, expected) ? 'clean, correct' : 'clean, wrong data';
  }
  return { name: s.name, format, line, oursConflicts: ours.conflicts.length, oursCorrect };
}
