// The correctness table of the README: line merging (node-diff3) against the structural merge.
import { expect, test } from 'vitest';
import { runScenario, SCENARIOS } from '../bench/line-merge-scenarios.ts';

test('the structural merge gets every scenario right; line merging fails all but one', () => {
  let lineFailures = 0;
  for (const s of SCENARIOS) {
    for (const format of ['sjson', 'json'] as const) {
      const r = runScenario(s, format);
      expect(r.oursCorrect, `${s.name} (${format})`).toBe(true);
      expect(r.oursConflicts, s.name).toBe(s.name.includes('real conflict') ? 1 : 0);
      if (r.line !== 'clean, correct') lineFailures++;
    }
  }
  expect(lineFailures).toBe((SCENARIOS.length - 1) * 2);
});

test('line merging silently duplicates a unit added on both sides; the structural merge keeps it once', () => {
  const cherry = SCENARIOS.find((s) => s.name.includes('cherry-pick'))!;
  expect(runScenario(cherry, 'sjson').line).toBe('clean, wrong data');
  expect(runScenario(cherry, 'json').line).toBe('clean, wrong data');
});
