// Descending order, f32 keys and keys-only sorts on the count-scan kernels (the default
// algorithm): the subgroup kernel, the portable one and the large plan's 4096-key blocks.
// The onesweep kernel's own cases are in onesweep.test.ts.
import { describe, expect } from 'vitest';
import { expectArraysEqual, gpuTest } from '@cuttle/test-utils';
import { GpuRadixSort, largeBlockPlan, radixSortReference, subgroupRadixLayout } from '../src/index.ts';
import { digitOfSource, padKey } from '../src/count-scan-passes.ts';
import { sortRoundTrip } from '../src/sort-round-trip.ts';
import { countScanPasses } from '../bench/count-scan-variant.ts';
import { descendingReference, floatPairs, pairs } from './sort-pairs.ts';

// Each kernel build is a pipeline lavapipe compiles for seconds on a cold shader cache.
const COMPILE_TIMEOUT = 180_000;

interface KeyOrder {
  descending?: boolean;
  keyType?: 'u32' | 'f32';
  keysOnly?: boolean;
  keyBits?: number;
}

/** Sorts `keys` (with `values` unless keys only) the way `kernel` does; returns what came back. */
type SortWith = (order: KeyOrder, keys: Uint32Array<ArrayBuffer>, values: Uint32Array<ArrayBuffer>) => Promise<{ keys: Uint32Array; values: Uint32Array }>;

/** GpuRadixSort, count-scan, subgroup kernel where the device has subgroups (or portable: `subgroups` false). */
const sortWithGpuRadixSort = (device: GPUDevice, subgroups: boolean): SortWith => async (order, keys, values) => {
  const sorter = new GpuRadixSort(device, { maxCount: keys.length, subgroups, ...order });
  try {
    expect(sorter.plan.kind).toBe(subgroups && device.features.has('subgroups') ? 'subgroups' : 'portable');
    if (order.keysOnly) return { keys: await sorter.sortKeys(keys), values };
    return await sorter.sort(keys, values);
  } finally {
    sorter.destroy();
  }
};

/** The large plan's kernels (256 invocations whatever the subgroup size, as on an H100), every sort from 1 pair. */
const sortWithLargePlan = (device: GPUDevice): SortWith => async (order, keys, values) => {
  const layout = subgroupRadixLayout(device.adapterInfo.subgroupMinSize ?? 32, device.adapterInfo.subgroupMaxSize ?? 128);
  const plan = { ...layout.plan, workgroupSize: 256, items: 8 };
  const keysOnly = order.keysOnly === true;
  const keyBits = order.keyBits ?? 32;
  const passes = countScanPasses(device, plan, keys.length, 1, { largePlan: largeBlockPlan(plan)!, largeFrom: 1, descending: order.descending === true, floatKeys: order.keyType === 'f32', keysOnly });
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC;
  const scratch = [device.createBuffer({ size: keys.length * 4, usage }), device.createBuffer({ size: keys.length * 4, usage })] as const;
  try {
    expect(keyBits % 16).toBe(0); // an even number of 8-bit passes: the result lands back in place
    return await sortRoundTrip(device, 'test', keys, values, (encoder, keyBuffer, valueBuffer, count) => {
      passes.encode(encoder, 0, { keys: keyBuffer, values: keysOnly ? keyBuffer : valueBuffer, scratchKeys: scratch[0], scratchValues: keysOnly ? scratch[0] : scratch[1] }, count);
    });
  } finally {
    for (const buffer of scratch) buffer.destroy();
    passes.destroy();
  }
};

const KERNELS = [
  { name: 'subgroup kernel', subgroupsOnly: true, sortWith: (device: GPUDevice) => sortWithGpuRadixSort(device, true) },
  { name: 'portable kernel', subgroupsOnly: false, sortWith: (device: GPUDevice) => sortWithGpuRadixSort(device, false) },
  { name: 'large plan (4096-key blocks, two tile rounds)', subgroupsOnly: true, sortWith: sortWithLargePlan },
] as const;

describe('the key order in the kernels\' source', () => {
  gpuTest('digit_of is the plain shift and mask for ascending u32 keys (the kernel as measured), and transforms only what it must', async () => {
    await Promise.resolve();
    expect(digitOfSource({ descending: false, floatKeys: false })).toBe('fn digit_of(key: u32) -> u32 {\n  return (key >> params.shift) & params.mask;\n}');
    expect(digitOfSource({ descending: true, floatKeys: false })).toContain('params.mask - ((key >> params.shift) & params.mask)');
    expect(digitOfSource({ descending: false, floatKeys: true })).toContain('(key ^ select(0x80000000u, 0xffffffffu, (key >> 31u) == 1u)) >> params.shift');
  });

  gpuTest('padKey: the past-the-end key sorts last in every pass: all ones for ascending u32, zero for descending, the largest NaN bits for f32', async () => {
    await Promise.resolve();
    expect([padKey({ descending: false, floatKeys: false }), padKey({ descending: true, floatKeys: false })]).toEqual([0xffffffff, 0]);
    // +NaN with every payload bit set is the largest f32 in float order; -NaN likewise the smallest.
    expect([padKey({ descending: false, floatKeys: true }), padKey({ descending: true, floatKeys: true })]).toEqual([0x7fffffff, 0xffffffff]);
  });
});

for (const kernel of KERNELS) {
  describe(`count-scan, ${kernel.name}: descending, f32 and keys-only sorts against the reference`, () => {
    gpuTest('descending: largest key first, equal keys in their order, also with fewer key bits', async ({ device }) => {
      if (kernel.subgroupsOnly && !device.features.has('subgroups')) return;
      const sort = kernel.sortWith(device);
      for (const keyBits of [32, 16]) {
        // Not a multiple of any block: the last block's padding must still sort last.
        const { keys, values } = pairs(9 * 4096 + 1234, 5 + keyBits, 14);
        const got = await sort({ descending: true, keyBits }, keys, values);
        const expected = descendingReference(keys, values, keyBits);
        expectArraysEqual(got.keys, expected.keys, `keys, keyBits ${keyBits}`);
        expectArraysEqual(got.values, expected.values, `values (stability), keyBits ${keyBits}`);
      }
    }, COMPILE_TIMEOUT);

    gpuTest('keys only: the keys the pair sort gives, ascending and descending', async ({ device }) => {
      if (kernel.subgroupsOnly && !device.features.has('subgroups')) return;
      const sort = kernel.sortWith(device);
      const { keys, values } = pairs(7 * 4096 + 77, 21, 32);
      expectArraysEqual((await sort({ keysOnly: true }, keys, values)).keys, radixSortReference(keys, values).keys, 'ascending');
      expectArraysEqual((await sort({ keysOnly: true, descending: true }, keys, values)).keys, descendingReference(keys, values).keys, 'descending');
    }, COMPILE_TIMEOUT);

    gpuTest('f32 keys sort in float order (negatives, -0 before +0, infinities), pairs stable, keys unchanged', async ({ device }) => {
      if (kernel.subgroupsOnly && !device.features.has('subgroups')) return;
      const sort = kernel.sortWith(device);
      const { floats, keys, values, order } = floatPairs(20_000);
      for (const descending of [false, true]) {
        const got = await sort({ keyType: 'f32', descending }, keys.slice(), values.slice());
        const expected = order(descending);
        expectArraysEqual(got.values, expected, `values, descending ${descending}`);
        expectArraysEqual(new Float32Array(got.keys.buffer), Float32Array.from(expected, (i) => floats[i]!), `keys as floats, descending ${descending}`);
      }
      const keysOnly = await sort({ keyType: 'f32', keysOnly: true }, keys.slice(), values.slice());
      expectArraysEqual(new Float32Array(keysOnly.keys.buffer), Float32Array.from(order(false), (i) => floats[i]!), 'keys only');
      // NaNs go to the ends by their sign bit.
      const words = Uint32Array.from([0x7fc00000, 0x3f800000, 0xffc00000, 0xbf800000]); // NaN, 1, -NaN, -1
      expectArraysEqual((await sort({ keyType: 'f32', keysOnly: true }, words, new Uint32Array(4))).keys, Uint32Array.from([0xffc00000, 0xbf800000, 0x3f800000, 0x7fc00000]), 'NaNs');
    }, COMPILE_TIMEOUT);
  });
}
