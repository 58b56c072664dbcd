// `pnpm size --check`'s core: figures against budgets, fed by hand (no packing, no bundling).
import { expect, test } from 'vitest';
import { BUDGETS_FILE, checkBudgets, suggestBudget } from '../src/size/check.ts';
import { cuttleImports } from '../src/size/imports.ts';
import { sideEffectsFieldProblems } from '../src/size/side-effects.ts';
import { replaceTable, TABLE_END, TABLE_START } from '../src/size/table.ts';

const budgets = { '@cuttle/a': { packedBytes: 10_000, exampleGzipBytes: 2_000 }, '@cuttle/b': { packedBytes: 5_000 } };

test('figures within their budgets pass', () => {
  expect(checkBudgets([{ name: '@cuttle/a', packedBytes: 10_000, exampleGzipBytes: 1_999 }, { name: '@cuttle/b', packedBytes: 4_000 }], budgets)).toEqual([]);
});

test('a figure over its budget fails, naming the package, the figure, the budget and the file', () => {
  const failures = checkBudgets([{ name: '@cuttle/a', packedBytes: 10_001, exampleGzipBytes: 2_500 }, { name: '@cuttle/b', packedBytes: 4_000 }], budgets);
  expect(failures).toHaveLength(2);
  expect(failures[0]).toContain('@cuttle/a: the packed tarball is 10,001 B, over its budget of 10,000 B');
  expect(failures[1]).toContain('@cuttle/a: the README example min+gz is 2,500 B, over its budget of 2,000 B');
  for (const f of failures) expect(f).toMatch(new RegExp(`${BUDGETS_FILE}.*Shrink it, or raise the budget there \\(to [\\d_]+ for 10% headroom\\) with a comment saying why`));
});

test('a package without a budget, or a budget without a package, fails', () => {
  const failures = checkBudgets([{ name: '@cuttle/a', packedBytes: 1, exampleGzipBytes: 1 }, { name: '@cuttle/new', packedBytes: 1_234, exampleGzipBytes: 456 }], budgets);
  expect(failures).toEqual([
    `@cuttle/new has no size budget: add \`'@cuttle/new': { packedBytes: 1_360, exampleGzipBytes: 502 }\` to ${BUDGETS_FILE}`,
    `${BUDGETS_FILE} has a budget for @cuttle/b, which is not a publishable package: remove it`,
  ]);
});

test('a suggested budget has 10% headroom, rounded up to three significant digits', () => {
  expect(suggestBudget(61_811)).toBe(68_000);
  expect(suggestBudget(2_637)).toBe(2_910);
  expect(suggestBudget(5)).toBe(6);
});

test('the example imports: runtime names per @cuttle specifier, types and other modules left out', () => {
  const code = "import { readFileSync } from 'node:fs';\nimport type { T } from '@cuttle/a';\nimport { A, type U, B as C } from '@cuttle/a';\nimport * as sub from '@cuttle/b/sub';\nimport { k } from './kernels.js';\n";
  expect(cuttleImports(code)).toEqual(new Map([['@cuttle/a', new Set(['A', 'B'])], ['@cuttle/b/sub', new Set(['*'])]]));
});

test('the README table is replaced between its markers, and missing markers are an error', () => {
  expect(replaceTable(`a\n${TABLE_START}\nold\n${TABLE_END}\nb`, '| new |')).toBe(`a\n${TABLE_START}\n| new |\n${TABLE_END}\nb`);
  expect(() => replaceTable('no markers', 'x')).toThrow(/markers/);
});

test('sideEffects: false everywhere, except @cuttle/jobs, which lists its built worker', () => {
  expect(sideEffectsFieldProblems({ name: '@cuttle/a', sideEffects: false })).toEqual([]);
  expect(sideEffectsFieldProblems({ name: '@cuttle/a' })[0]).toMatch(/"sideEffects": nothing; it should be false/);
  const worker = { './worker': { types: './dist/worker.d.ts', default: './dist/worker.js' } };
  expect(sideEffectsFieldProblems({ name: '@cuttle/jobs', sideEffects: ['./dist/worker.js'], exports: worker })).toEqual([]);
  expect(sideEffectsFieldProblems({ name: '@cuttle/jobs', sideEffects: false, exports: worker })[0]).toMatch(/should list \.\/dist\/worker\.js/);
});
