import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { expectArraysEqual, gpuTest } from '@cuttle/test-utils';
import { GpuBitonicSort, GpuPrimitivesError, bitonicLength, bitonicSchedule, bitonicSortReference } from '../src/index.ts';

function pairs(count: number, seed: number, keyMask = 0xffffffff): { keys: Uint32Array<ArrayBuffer>; values: Uint32Array<ArrayBuffer> } {
  const keys = new Uint32Array(count);
  const values = new Uint32Array(count);
  let x = seed || 1;
  for (let i = 0; i < count; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    keys[i] = (x >>> 0) & keyMask;
    values[i] = (x * 2654435761) >>> 0;
  }
  return { keys, values };
}

/** Sorted by key, then value, through plain JS. */
function pairSort(keys: Uint32Array, values: Uint32Array): { keys: Uint32Array; values: Uint32Array } {
  const order = Array.from(keys.keys()).sort((a, b) => keys[a]! - keys[b]! || values[a]! - values[b]!);
  return { keys: Uint32Array.from(order, (i) => keys[i]!), values: Uint32Array.from(order, (i) => values[i]!) };
}

describe('bitonic reference and schedule', () => {
  test('the reference equals sorting pairs by key then value, all-ones pairs included', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2500 }), fc.integer({ min: 1, max: 2 ** 31 }), fc.boolean(), (count, seed, narrow) => {
        const { keys, values } = pairs(count, seed, narrow ? 0xf : 0xffffffff);
        if (count > 0) {
          keys[0] = 0xffffffff; // a real pair that ties with the padding key
          values[0] = 7;
        }
        const got = bitonicSortReference(keys, values);
        const expected = pairSort(keys, values);
        expectArraysEqual(got.keys, expected.keys, 'keys');
        expectArraysEqual(got.values, expected.values, 'values');
      }),
      { numRuns: 30 },
    );
  });

  test('lengths pad to a power of two of at least one block; the schedule covers every stage', () => {
    expect([1, 512, 513, 5000].map(bitonicLength)).toEqual([512, 512, 1024, 8192]);
    expect(bitonicSchedule(512)).toEqual([{ entry: 'local_sort', k: 512, j: 0 }]);
    expect(bitonicSchedule(2048).map((s) => `${s.entry}:${s.k}:${s.j}`)).toEqual([
      'local_sort:512:0',
      'global_step:1024:512',
      'local_merge:1024:256',
      'global_step:2048:1024',
      'global_step:2048:512',
      'local_merge:2048:256',
    ]);
  });
});

describe('GpuBitonicSort against the reference', () => {
  gpuTest('sizes around the block and power-of-two edges', async ({ device }) => {
    const sorter = new GpuBitonicSort(device, { maxCount: 70_000 });
    try {
      for (const [index, size] of [2, 3, 511, 512, 513, 1000, 4096, 70_000].entries()) {
        const { keys, values } = pairs(size, 5 + index, index % 2 === 0 ? 0xffffffff : 0xff);
        keys[0] = 0xffffffff;
        const got = await sorter.sort(keys, values);
        const expected = bitonicSortReference(keys, values);
        expectArraysEqual(got.keys, expected.keys, `${size} keys`);
        expectArraysEqual(got.values, expected.values, `${size} values`);
      }
    } finally {
      sorter.destroy();
    }
  });

  gpuTest('more blocks than one grid row allows use a 2D grid', async ({ device }) => {
    const size = 9 * 512 - 1; // pads to 8192 = 16 blocks: a 4 x 4 grid at a limit of 4
    const sorter = new GpuBitonicSort(device, { maxCount: size, maxWorkgroupsPerDimension: 4 });
    const { keys, values } = pairs(size, 77);
    const got = await sorter.sort(keys, values);
    expectArraysEqual(got.keys, bitonicSortReference(keys, values).keys);
    sorter.destroy();
  });

  gpuTest('typed errors before any GPU work', async ({ device }) => {
    expect(() => new GpuBitonicSort(device, { maxCount: 0 })).toThrow(GpuPrimitivesError);
    const sorter = new GpuBitonicSort(device, { maxCount: 100 });
    const ok = device.createBuffer({ size: 400, usage: GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
    const storageOnly = device.createBuffer({ size: 400, usage: GPUBufferUsage.STORAGE });
    const encoder = device.createCommandEncoder();
    expect(() => { sorter.encode(encoder, ok, storageOnly, 10); }).toThrow(/COPY_SRC and GPUBufferUsage.COPY_DST/);
    expect(() => { sorter.encode(encoder, ok, ok, 10); }).toThrow(/different buffers/);
    expect(() => { sorter.encode(encoder, ok, storageOnly, 101); }).toThrow(/maxCount 100/);
    device.queue.submit([encoder.finish()]);
    sorter.destroy();
    await expect(sorter.sort(new Uint32Array(2), new Uint32Array(2))).rejects.toThrow(/destroyed/);
  });
});
