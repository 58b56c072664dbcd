import { describe, expect, it } from 'vitest';
import { BenchCheckError, checkDispatch, checkSums } from '../bench/check-results.ts';
import { computeRange } from '../bench/kernels.ts';

describe('the benchmark result checks', () => {
  const data = new Float32Array(1000 * 16);

  it('pass a dispatch that computes every item once', async () => {
    await expect(checkDispatch('once', data, () => { computeRange(data, 0, 1000); })).resolves.toBeUndefined();
  });

  it('catch an item computed twice or not at all', async () => {
    await expect(checkDispatch('twice', data, () => { computeRange(data, 0, 1000); computeRange(data, 500, 501); })).rejects.toThrow(/item 500 float 0 is 1000/);
    await expect(checkDispatch('missing', data, () => { computeRange(data, 0, 999); })).rejects.toBeInstanceOf(BenchCheckError);
  });

  it('catch a small job that left its sum unwritten', async () => {
    const values = new Float32Array(4 * 256).fill(1);
    const sums = new Float32Array(4);
    await expect(checkSums('all', values, sums, () => sums.fill(256))).resolves.toBeUndefined();
    await expect(checkSums('three', values, sums, () => sums.fill(256, 0, 3))).rejects.toThrow(/slot 3 sums to 0, expected 256/);
  });
});
