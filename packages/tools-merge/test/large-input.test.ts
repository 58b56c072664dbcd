// Tens of megabytes: a generated level of about 20 MB parses, writes, diffs and merges.
import { expect, test } from 'vitest';
import { editLevel, generateLevel } from '../bench/generate-level.ts';
import { apply, diff, jsonEqual, merge, parseSjson, writeJson, writeSjson, type JsonObject } from '../src/index.ts';

test('a 20 MB level round-trips and merges', () => {
  const base = generateLevel(20 * 1024 * 1024, 11);
  const text = writeSjson(base);
  expect(text.length).toBeGreaterThan(20_000_000);
  const parsed = parseSjson(text) as JsonObject;
  expect((parsed.units as unknown[]).length).toBe((base.units as unknown[]).length);
  // jsonEqual rather than toEqual: vitest's deep equality is slow on millions of nodes.
  expect(jsonEqual(parsed, base)).toBe(true);
  expect(jsonEqual(parseSjson(writeJson(base)), base)).toBe(true);
  const left = editLevel(base, 4);
  const right = editLevel(base, 5);
  const ops = diff(base, left);
  expect(jsonEqual(apply(base, ops), left)).toBe(true);
  const { merged, conflicts } = merge(base, left, right);
  expect(conflicts.some((c) => c.path.length === 2 && c.path[0] === 'settings' && c.path[1] === 'sky')).toBe(true);
  const ids = (merged as { units: { id: string }[] }).units.map((u) => u.id);
  expect(new Set(ids).size).toBe(ids.length);
}, 120_000);
