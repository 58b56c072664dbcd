import { expect, test } from 'vitest';
import { composeMatrix, decomposeMatrix, invertMatrix, multiplyMatrices } from '../src/index.ts';

function trs(p: number[], q: number[], s: number[]): Float64Array {
  const m = new Float64Array(16);
  composeMatrix(m, 0, Float64Array.from(p), 0, Float64Array.from(q), 0, Float64Array.from(s), 0);
  return m;
}

function normalize(q: number[]): number[] {
  const n = Math.hypot(...q);
  return q.map((v) => v / n);
}

test('compose, invert and multiply give the identity', () => {
  const m = trs([1, -2, 3], normalize([0.3, -0.2, 0.5, 0.8]), [2, 0.5, 1.5]);
  const inv = new Float64Array(16);
  expect(invertMatrix(inv, 0, m, 0)).toBe(true);
  const product = new Float64Array(16);
  multiplyMatrices(product, 0, m, 0, inv, 0);
  for (let k = 0; k < 16; k++) expect(product[k]).toBeCloseTo(k % 5 === 0 ? 1 : 0, 10);
});

test('a singular matrix inverts to the identity and reports false', () => {
  const out = new Float64Array(16);
  expect(invertMatrix(out, 0, new Float64Array(16), 0)).toBe(false);
  expect(Array.from(out)).toEqual([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
});

test('decompose recovers translation, rotation and scale', () => {
  for (const q of [[0, 0, 0, 1], normalize([1, 2, 3, 4]), normalize([0.9, 0.1, -0.3, 0.05]), normalize([0, 0, 1, 0.01])]) {
    const m = trs([4, 5, -6], q, [1.5, 2, 0.25]);
    const p = new Float64Array(3);
    const r = new Float64Array(4);
    const s = new Float64Array(3);
    decomposeMatrix(m, 0, p, 0, r, 0, s, 0);
    const back = trs(Array.from(p), Array.from(r), Array.from(s));
    for (let k = 0; k < 16; k++) expect(back[k]).toBeCloseTo(m[k]!, 9);
    expect(Array.from(s)).toEqual([expect.closeTo(1.5, 9), expect.closeTo(2, 9), expect.closeTo(0.25, 9)]);
  }
});
