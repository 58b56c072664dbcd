// The one-sweep radix sort (algorithm: 'onesweep'): the same contract as the other kernels,
// checked against the TypeScript reference, plus descending order and the look-back's fallback.
import { describe, expect } from 'vitest';
import { expectArraysEqual, gpuTest } from '@cuttle/test-utils';
import { GpuPrimitivesError, GpuRadixSort, radixSortReference } from '../src/index.ts';

function pairs(count: number, seed: number, bits = 32): { keys: Uint32Array<ArrayBuffer>; values: Uint32Array<ArrayBuffer> } {
  const keys = new Uint32Array(count);
  const values = Uint32Array.from({ length: count }, (_, i) => i);
  let x = seed || 1;
  const mask = bits === 32 ? 0xffffffff : (1 << bits) - 1;
  for (let i = 0; i < count; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    keys[i] = (x >>> 0) & mask;
  }
  return { keys, values };
}

/** The reference's order for a descending sort: ascending order of the inverted keys, stable. */
function descendingReference(keys: Uint32Array<ArrayBuffer>, values: Uint32Array<ArrayBuffer>, keyBits = 32): { keys: Uint32Array; values: Uint32Array } {
  const order = radixSortReference(keys.map((key) => ~key >>> 0), values, keyBits).values;
  return { keys: Uint32Array.from(order, (i) => keys[i]!), values: order };
}

async function expectSorted(sorter: GpuRadixSort, keys: Uint32Array<ArrayBuffer>, values: Uint32Array<ArrayBuffer>, what: string): Promise<void> {
  const got = await sorter.sort(keys, values);
  const expected = sorter.descending ? descendingReference(keys, values, sorter.keyBits) : radixSortReference(keys, values, sorter.keyBits);
  expectArraysEqual(got.keys, expected.keys, `${what}: keys`);
  expectArraysEqual(got.values, expected.values, `${what}: values (stability)`);
}

describe('GpuRadixSort, onesweep kernel, against the reference', () => {
  gpuTest('runs where the device has subgroups, else the portable kernel', async ({ device }) => {
    const sorter = new GpuRadixSort(device, { maxCount: 16, algorithm: 'onesweep' });
    expect(sorter.plan.kind).toBe(device.features.has('subgroups') ? 'onesweep' : 'portable');
    expectArraysEqual((await sorter.sort(Uint32Array.from([9, 3, 9, 1]), Uint32Array.from([0, 1, 2, 3]))).values, Uint32Array.from([3, 1, 0, 2]));
    sorter.destroy();
  });

  gpuTest('32-bit keys: sizes around tile edges and past many tiles', async ({ device }) => {
    const sorter = new GpuRadixSort(device, { maxCount: 100_000, algorithm: 'onesweep' });
    const tile = sorter.plan.block;
    try {
      for (const [index, size] of [1, 2, 255, tile - 1, tile, tile + 1, 4097, 10_001, 100_000].entries()) {
        const { keys, values } = pairs(size, 11 + index, index % 2 === 0 ? 32 : 10);
        await expectSorted(sorter, keys, values, `${size} pairs`);
      }
    } finally {
      sorter.destroy();
    }
  });

  gpuTest('all keys equal, sorted, reversed', async ({ device }) => {
    const size = 30_000;
    const sorter = new GpuRadixSort(device, { maxCount: size, algorithm: 'onesweep' });
    const values = Uint32Array.from({ length: size }, (_, i) => i);
    await expectSorted(sorter, new Uint32Array(size).fill(0xdeadbeef), values.slice(), 'equal keys');
    await expectSorted(sorter, Uint32Array.from({ length: size }, (_, i) => i * 977), values.slice(), 'sorted keys');
    await expectSorted(sorter, Uint32Array.from({ length: size }, (_, i) => (size - i) * 977), values.slice(), 'reversed keys');
    sorter.destroy();
  });

  gpuTest('fewer key bits: an odd number of passes copies back, a partial last digit masks', async ({ device }) => {
    for (const keyBits of [4, 12, 16, 20, 24]) {
      const sorter = new GpuRadixSort(device, { maxCount: 20_000, keyBits, algorithm: 'onesweep' });
      const { keys, values } = pairs(20_000, keyBits, 32);
      await expectSorted(sorter, keys, values, `keyBits ${keyBits}`);
      sorter.destroy();
    }
  });

  gpuTest('descending: largest key first, equal keys in their order, also with fewer key bits', async ({ device }) => {
    if (!device.features.has('subgroups')) return;
    for (const keyBits of [32, 12]) {
      const sorter = new GpuRadixSort(device, { maxCount: 25_000, keyBits, algorithm: 'onesweep', descending: true });
      const { keys, values } = pairs(25_000, 5 + keyBits, 14);
      await expectSorted(sorter, keys, values, `descending, keyBits ${keyBits}`);
      sorter.destroy();
    }
  });

  gpuTest('the look-back fallback alone sorts correctly (every tile counts its predecessors)', async ({ device }) => {
    const sorter = new GpuRadixSort(device, { maxCount: 12_000, algorithm: 'onesweep', lookbackAlwaysFallsBack: true });
    for (const size of [12_000, 5_000]) {
      const { keys, values } = pairs(size, 3 + size, 32);
      await expectSorted(sorter, keys, values, `${size} pairs, fallback only`);
    }
    sorter.destroy();
  });

  gpuTest('tiles past the per-dimension limit use a 2D grid with padding workgroups', async ({ device }) => {
    const probe = new GpuRadixSort(device, { maxCount: 16, algorithm: 'onesweep' });
    const size = 8 * probe.plan.block - 3;
    probe.destroy();
    const sorter = new GpuRadixSort(device, { maxCount: size, algorithm: 'onesweep', maxWorkgroupsPerDimension: 3 });
    const { keys, values } = pairs(size, 42, 32);
    await expectSorted(sorter, keys, values, '8 tiles on a 3 x 3 grid');
    sorter.destroy();
  });

  gpuTest('bad options throw typed errors and build nothing', async ({ device }) => {
    await Promise.resolve();
    expect(() => new GpuRadixSort(device, { maxCount: 16, algorithm: 'fastest' as 'onesweep' })).toThrow(GpuPrimitivesError);
    expect(() => new GpuRadixSort(device, { maxCount: 16, descending: true })).toThrow(/descending needs the onesweep kernel/);
    expect(() => new GpuRadixSort(device, { maxCount: 16, descending: true, algorithm: 'onesweep', subgroups: false })).toThrow(/descending needs the onesweep kernel/);
  });
});
