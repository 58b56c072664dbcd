import { describe, expect, test } from 'vitest';
import { createBufferWithData, gpuTest } from '@cuttle/test-utils';
import { GpuPrimitivesError, GpuReduce, reduceReference, type ElementType, type ReduceOp } from '../src/index.ts';

/** Deterministic pseudo-random data (xorshift32), so failures reproduce. */
function randomWords(count: number, seed: number): Uint32Array {
  const out = new Uint32Array(count);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < count; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x;
  }
  return out;
}

function inputOf(type: ElementType, count: number, seed: number): Float32Array | Uint32Array | Int32Array {
  const words = randomWords(count, seed);
  if (type === 'u32') return words;
  if (type === 'i32') return new Int32Array(words.buffer);
  // Floats in [-1000, 1000): large enough that summation order changes the rounding.
  return Float32Array.from(words, (w) => (w / 2 ** 32) * 2000 - 1000);
}

describe('reduceReference', () => {
  test('matches a plain loop for integers, where order does not matter', () => {
    const data = inputOf('u32', 10_007, 3) as Uint32Array;
    let sum = 0;
    let min = 2 ** 32;
    let max = 0;
    for (const v of data) {
      sum = (sum + v) >>> 0;
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
    expect(reduceReference(data, 'sum', 'u32')).toBe(sum);
    expect(reduceReference(data, 'min', 'u32')).toBe(min);
    expect(reduceReference(data, 'max', 'u32')).toBe(max);
  });

  test('f32 sum stays close to the exact sum', () => {
    const data = inputOf('f32', 100_000, 9) as Float32Array;
    let exact = 0;
    for (const v of data) exact += v;
    expect(Math.abs(reduceReference(data, 'sum', 'f32') - exact)).toBeLessThan(1e-6 * 1000 * data.length);
  });

  test('empty input gives the identity', () => {
    expect(reduceReference(new Uint32Array(0), 'sum', 'u32')).toBe(0);
    expect(reduceReference(new Int32Array(0), 'min', 'i32')).toBe(2147483647);
    expect(reduceReference(new Float32Array(0), 'max', 'f32')).toBe(-3.4028234663852886e38);
  });
});

describe('GpuReduce against the reference', () => {
  // Not powers of two, one element, one partial workgroup, and sizes that hit the workgroup cap.
  const sizes = [1, 255, 257, 65_537, 3_000_001];
  for (const type of ['f32', 'u32', 'i32'] as const) {
    for (const op of ['sum', 'min', 'max'] as const satisfies readonly ReduceOp[]) {
      gpuTest(`${op} over ${type}`, async ({ device }) => {
        const reduce = new GpuReduce(device, { op, type });
        try {
          for (const [index, size] of sizes.entries()) {
            const data = inputOf(type, size, 17 + index);
            const buffer = createBufferWithData(device, data, GPUBufferUsage.STORAGE);
            const expected = reduceReference(data, op, type);
            expect(await reduce.reduce(buffer, size), `${op}/${type}, ${size} elements`).toBe(expected);
          }
        } finally {
          reduce.destroy();
        }
      });
    }
  }

  gpuTest('several reductions of different sizes recorded into one encoder', async ({ device }) => {
    const reduce = new GpuReduce(device, { op: 'sum', type: 'u32', slots: 4 });
    const data = inputOf('u32', 50_000, 5) as Uint32Array;
    const input = createBufferWithData(device, data, GPUBufferUsage.STORAGE);
    const results = device.createBuffer({ size: 12, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
    const encoder = device.createCommandEncoder();
    const counts = [10, 40_000, 50_000];
    counts.forEach((count, i) => {
      reduce.encode(encoder, input, count);
      encoder.copyBufferToBuffer(reduce.resultBuffer, 0, results, i * 4, 4);
    });
    device.queue.submit([encoder.finish()]);
    await results.mapAsync(GPUMapMode.READ);
    const got = Array.from(new Uint32Array(results.getMappedRange()));
    results.unmap();
    expect(got).toEqual(counts.map((count) => reduceReference(data.subarray(0, count), 'sum', 'u32')));
    reduce.destroy();
  });
});

describe('GpuReduce bad input', () => {
  gpuTest('rejects bad counts, foreign usage and unknown ops with a typed error', async ({ device }) => {
    expect(() => new GpuReduce(device, { op: 'product' as ReduceOp, type: 'f32' })).toThrow(GpuPrimitivesError);
    expect(() => new GpuReduce(device, { op: 'sum', type: 'f64' as ElementType })).toThrow(/element type "f64"/);
    const reduce = new GpuReduce(device, { op: 'sum', type: 'f32' });
    const small = device.createBuffer({ size: 16, usage: GPUBufferUsage.STORAGE });
    const notStorage = device.createBuffer({ size: 16, usage: GPUBufferUsage.COPY_SRC });
    const encoder = device.createCommandEncoder();
    expect(() => { reduce.encode(encoder, small, 5); }).toThrow(/holds 16/);
    expect(() => { reduce.encode(encoder, small, -1); }).toThrow(GpuPrimitivesError);
    expect(() => { reduce.encode(encoder, small, 1.5); }).toThrow(GpuPrimitivesError);
    expect(() => { reduce.encode(encoder, notStorage, 1); }).toThrow(/STORAGE/);
    // Nothing was recorded, so the encoder is still valid and finishes cleanly.
    device.queue.submit([encoder.finish()]);
    reduce.destroy();
    await expect(reduce.reduce(small, 1)).rejects.toThrow(/destroyed/);
  });
});
