import { describe, expect, it } from 'vitest';
import { editLevel, generateLevel } from '../bench/generate-level.ts';
import { describeTally, isCorrectMerge, tallyMerge } from '../bench/merge-check.ts';
import { merge, type JsonObject } from '../src/index.ts';

// The benchmark's independent merge check must pass a correct merge and catch each kind of fault.
describe('the benchmark merge check', () => {
  const base = generateLevel(64 * 1024, 7);
  const left = editLevel(base, 2);
  const right = editLevel(base, 3);
  const merged = merge(base, left, right).merged as JsonObject;
  const units = (doc: JsonObject): JsonObject[] => doc.units as JsonObject[];
  const withUnits = (list: JsonObject[]): JsonObject => ({ ...merged, units: list });

  it('passes our merge of two edits', () => {
    expect(describeTally(tallyMerge(base, left, right, merged))).toBe('a correct merge');
  });

  it('catches a lost unit, a removed unit kept, a duplicate and a lost edit', () => {
    const list = units(merged);
    expect(tallyMerge(base, left, right, withUnits(list.slice(1))).unitsMissing).toBe(1);
    const removedByLeft = units(base).find((u) => !units(left).some((l) => l.id === u.id) && units(right).some((r) => JSON.stringify(r) === JSON.stringify(u)))!;
    expect(tallyMerge(base, left, right, withUnits([...list, removedByLeft])).unitsExtra).toBe(1);
    expect(tallyMerge(base, left, right, withUnits([...list, list[0]!])).unitsDuplicated).toBe(1);
    const movedByRight = units(right).find((r) => { const b = units(base).find((u) => u.id === r.id); return b !== undefined && JSON.stringify(b) !== JSON.stringify(r) && units(left).some((l) => JSON.stringify(l) === JSON.stringify(b)); })!;
    const undone = list.map((u) => (u.id === movedByRight.id ? units(base).find((b) => b.id === u.id)! : u));
    const tally = tallyMerge(base, left, right, withUnits(undone));
    expect(tally.unitsWrong).toBe(1);
    expect(isCorrectMerge(tally)).toBe(false);
  });

  it('accepts either side of a conflict and catches a value neither side wrote', () => {
    expect(isCorrectMerge(tallyMerge(base, left, right, { ...merged, settings: left.settings! }))).toBe(true);
    expect(isCorrectMerge(tallyMerge(base, left, right, { ...merged, settings: right.settings! }))).toBe(true);
    const settings = { ...(merged.settings as JsonObject), gravity: -1 };
    expect(tallyMerge(base, left, right, { ...merged, settings }).otherWrong).toEqual(['.settings.gravity']);
  });
});
