import { expect, test, vi } from 'vitest';
import { Report } from '../src/report.ts';

test('the table counts per step and names each failure', () => {
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
  const report = new Report();
  report.add('release', 'exits 0', true);
  expect(report.expectNone('release', 'all published', ['@cuttle/ecs@0.2.1 not published'])).toBe(false);
  report.add('examples', 'gpu', 'skipped');
  report.time('release', 2.25);
  const table = report.table().split('\n');
  expect(table[0]).toMatch(/^step\s+passed\s+failed\s+skipped\s+seconds$/);
  expect(table[1]).toMatch(/^release\s+1\s+1\s+0\s+2\.3$/);
  expect(table[2]).toMatch(/^examples\s+0\s+0\s+1\s+0\.0$/);
  expect(table[3]).toBe('  FAILED release: all published');
  expect([report.count(true), report.count(false), report.count('skipped')]).toEqual([1, 1, 1]);
});
