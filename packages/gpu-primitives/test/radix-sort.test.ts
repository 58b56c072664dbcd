import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { expectArraysEqual, gpuTest, gpuTestsSkipped, requestNodeGpu } from '@cuttle/test-utils';
import { GpuPrimitivesError, GpuRadixSort, LARGE_BLOCKS_FROM, PORTABLE_RADIX_PLAN, SUBGROUP_RADIX_PLAN, largeBlockPlan, radixSortReference, subgroupRadixLayout } from '../src/index.ts';
import { pairs } from './sort-pairs.ts';
import { countScanBuild, countScanPasses, writePatternCountScan } from '../bench/count-scan-variant.ts';
import { OccupancyProbe, probeSource } from '../bench/occupancy-probe.ts';
import { H100_MODULE_ENTRIES, h100Modules } from '../bench/h100-modules.ts';
import { type CountScanPasses, countTilesFor } from '../src/count-scan-passes.ts';
import { scanStatusWords } from '../src/scan-plan.ts';
import { sortRoundTrip } from '../src/sort-round-trip.ts';

/**
 * Sorts `size` random pairs with `passes` (scratch buffers given) and checks them against the
 * reference; returns the scan's status words as they were after the sort.
 */
async function sortCheckedWithStatus(device: GPUDevice, passes: CountScanPasses, scratch: readonly [GPUBuffer, GPUBuffer], staging: GPUBuffer, size: number, seed: number): Promise<Uint32Array> {
  const { keys, values } = pairs(size, seed, 32);
  const got = await sortRoundTrip(device, 'test', keys, values, (encoder, keyBuffer, valueBuffer, count) => {
    passes.encode(encoder, 0, { keys: keyBuffer, values: valueBuffer, scratchKeys: scratch[0], scratchValues: scratch[1] }, count);
    encoder.copyBufferToBuffer(passes.scanStatus, 0, staging, 0, staging.size);
  });
  const expected = radixSortReference(keys, values);
  expectArraysEqual(got.keys, expected.keys, `keys, ${size}`);
  expectArraysEqual(got.values, expected.values, `values, ${size}`);
  await staging.mapAsync(GPUMapMode.READ);
  const status = new Uint32Array(staging.getMappedRange().slice(0));
  staging.unmap();
  return status;
}

/** A stable sort by key through plain JS, to check the reference itself. */
function stableSort(keys: Uint32Array, values: Uint32Array, keyBits: number): { keys: Uint32Array; values: Uint32Array } {
  const mask = keyBits === 32 ? 0xffffffff : (1 << keyBits) - 1;
  const order = Array.from(keys.keys()).sort((a, b) => ((keys[a]! & mask) >>> 0) - ((keys[b]! & mask) >>> 0) || a - b);
  return { keys: Uint32Array.from(order, (i) => keys[i]!), values: Uint32Array.from(order, (i) => values[i]!) };
}

describe('radixSortReference', () => {
  test('equals a stable sort for random inputs and key widths', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 12_000 }), fc.integer({ min: 1, max: 2 ** 31 }), fc.constantFrom(4, 8, 12, 32), fc.constantFrom(6, 12, 32), (count, seed, keyBits, spread) => {
        const { keys, values } = pairs(count, seed, spread);
        const sorted = radixSortReference(keys, values, keyBits);
        const expected = stableSort(keys, values, keyBits);
        expectArraysEqual(sorted.keys, expected.keys, 'keys');
        expectArraysEqual(sorted.values, expected.values, 'values');
      }),
      { numRuns: 30 },
    );
  });
});

describe('radixSortReference plans', () => {
  test('the 8-bit plan gives the same order as the 4-bit plan, also for keyBits not a multiple of 8', () => {
    for (const keyBits of [4, 12, 20, 32]) {
      const { keys, values } = pairs(9_000, keyBits, 32);
      const portable = radixSortReference(keys, values, keyBits, PORTABLE_RADIX_PLAN);
      const subgroups = radixSortReference(keys, values, keyBits, SUBGROUP_RADIX_PLAN);
      expectArraysEqual(subgroups.values, portable.values, `keyBits ${keyBits}`);
      expectArraysEqual(subgroups.values, stableSort(keys, values, keyBits).values, `keyBits ${keyBits} vs a stable sort`);
    }
  });

  test('subgroup layout: 8 subgroups of the smallest size, 2048-key blocks, within 16 KiB', () => {
    for (const [min, max, workgroup] of [[4, 4, 32], [8, 8, 64], [8, 32, 64], [16, 16, 128], [32, 32, 256], [32, 64, 256], [64, 64, 256], [4, 64, 64]] as const) {
      const layout = subgroupRadixLayout(min, max);
      expect(layout.plan.workgroupSize, `${min}..${max}`).toBe(workgroup);
      expect(layout.plan.workgroupSize * layout.plan.items).toBe(2048);
      expect(layout.plan.workgroupSize % max).toBe(0); // whole subgroups of any size the device may pick
      expect(layout.maxSubgroups).toBe(workgroup / min);
      if (workgroup / min <= 8) expect(layout.storageBytes, `${min}..${max}`).toBeLessThanOrEqual(16_384);
    }
    expect(subgroupRadixLayout(32).plan).toEqual(SUBGROUP_RADIX_PLAN);
  });
});

// Both kernels, on the same device: the subgroup one where the device has the feature.
for (const subgroups of [true, false]) {
  const name = subgroups ? 'GpuRadixSort (subgroup kernel where available)' : 'GpuRadixSort (portable kernel)';
  describe(`${name} against the reference`, () => {
    gpuTest('picks the plan the device allows', async ({ device }) => {
      const sorter = new GpuRadixSort(device, { maxCount: 16, subgroups });
      const expected = subgroups && device.features.has('subgroups') ? 'subgroups' : 'portable';
      expect(sorter.plan.kind).toBe(expected);
      const got = await sorter.sort(Uint32Array.from([9, 3, 9, 1]), Uint32Array.from([0, 1, 2, 3]));
      expectArraysEqual(got.values, Uint32Array.from([3, 1, 0, 2]));
      sorter.destroy();
    });

    gpuTest('32-bit keys: sizes around block edges and past many blocks', async ({ device }) => {
      const sorter = new GpuRadixSort(device, { maxCount: 100_000, subgroups });
      const block = sorter.plan.block;
      try {
        for (const [index, size] of [1, 2, 255, block - 1, block, block + 1, 4097, 10_001, 100_000].entries()) {
          const { keys, values } = pairs(size, 7 + index, index % 2 === 0 ? 32 : 10);
          const got = await sorter.sort(keys, values);
          const expected = radixSortReference(keys, values);
          expectArraysEqual(got.keys, expected.keys, `${size} keys`);
          expectArraysEqual(got.values, expected.values, `${size} values (stability)`);
        }
      } finally {
        sorter.destroy();
      }
    });

    gpuTest('all keys equal, and keys already sorted backwards', async ({ device }) => {
      const sorter = new GpuRadixSort(device, { maxCount: 20_000, subgroups });
      const size = 20_000;
      const values = Uint32Array.from({ length: size }, (_, i) => i);
      const same = new Uint32Array(size).fill(0xdeadbeef);
      expectArraysEqual((await sorter.sort(same, values.slice())).values, values, 'equal keys keep their order');
      const backwards = Uint32Array.from({ length: size }, (_, i) => size - i);
      const got = await sorter.sort(backwards, values.slice());
      expectArraysEqual(got.values, radixSortReference(backwards, values).values, 'descending keys');
      sorter.destroy();
    });

    gpuTest('fewer key bits: an odd number of passes copies back, a partial last digit masks', async ({ device }) => {
      for (const keyBits of [4, 12, 16, 20, 24]) {
        const sorter = new GpuRadixSort(device, { maxCount: 20_000, keyBits, subgroups });
        const { keys, values } = pairs(20_000, keyBits, 32);
        const got = await sorter.sort(keys, values);
        const expected = radixSortReference(keys, values, keyBits);
        expectArraysEqual(got.keys, expected.keys, `keyBits ${keyBits}: keys`);
        expectArraysEqual(got.values, expected.values, `keyBits ${keyBits}: values`);
        sorter.destroy();
      }
    });

    gpuTest('block counts past the per-dimension limit use a 2D grid', async ({ device }) => {
      // 8 blocks with at most 3 workgroups per dimension: a 3 x 3 grid with one padding workgroup.
      const probe = new GpuRadixSort(device, { maxCount: 16, subgroups });
      const size = 8 * probe.plan.block - 3;
      probe.destroy();
      const sorter = new GpuRadixSort(device, { maxCount: size, keyBits: 8, maxWorkgroupsPerDimension: 3, subgroups });
      const { keys, values } = pairs(size, 99, 32);
      const got = await sorter.sort(keys, values);
      expectArraysEqual(got.values, radixSortReference(keys, values, 8).values);
      sorter.destroy();
    });
  });
}

describe('count-scan with several blocks per count workgroup (GpuRadixSort from 2,048 blocks)', () => {
  test('countTilesFor: 8 blocks a workgroup from 8,192 blocks, fewer below', () => {
    expect([1, 2047, 2048, 4095, 4096, 8191, 8192, 1 << 20].map(countTilesFor)).toEqual([1, 1, 2, 2, 4, 4, 8, 8]);
  });


  gpuTest('several blocks per count workgroup sort the same (partial last group and block, 4096-key tiles; the scan clearing its own status; one digit per scatter invocation)', async ({ device }) => {
    const builds = [
      { block: 2048, countTiles: 8, portable: true },
      { block: 2048, countTiles: 2 },
      { block: 2048, countTiles: 8 },
      { block: 4096, countTiles: 4 },
      { block: 2048, countTiles: 8, scanClearsStatus: true },
      // 4096-key blocks written through a 2048-key tile in two rounds (19 blocks, the last short
      // of its second round).
      { block: 4096, countTiles: 4, tileRounds: 2 },
      { block: 4096, countTiles: 1, tileRounds: 2, scatterSize: 256 },
      // One digit an invocation (on 32-wide subgroups, the shipped layout): the two invocations
      // of a digit pair share its counter word and prefix half the subgroups' counters each.
      // Lavapipe's 8-wide subgroups need 26 KiB for it.
      { block: 2048, countTiles: 1, scatterSize: 256 },
    ] as const;
    for (const build of builds) {
      // 19 blocks: the last count group holds 1 (2 per group) or 3 (4 or 8 per group) of them.
      const size = 19 * ('portable' in build ? PORTABLE_RADIX_PLAN.block : build.block) - 5;
      if (!('portable' in build) && !device.features.has('subgroups')) continue;
      const sorter = countScanBuild(device, build, size, 1);
      if (!sorter) continue;
      const { keys, values } = pairs(size, 7 + build.countTiles, 32);
      const got = await sorter.sort(keys, values);
      const expected = radixSortReference(keys, values);
      expectArraysEqual(got.keys, expected.keys, `keys, ${JSON.stringify(build)}`);
      expectArraysEqual(got.values, expected.values, `values, ${JSON.stringify(build)}`);
      sorter.destroy();
    }
  });
});

describe('count-scan: 4096-key blocks written through the 2048-key tile in two rounds', () => {
  test('largeBlockPlan: only for 256-invocation subgroup plans of 2048-key blocks', () => {
    expect(largeBlockPlan(subgroupRadixLayout(32).plan)).toEqual({ ...subgroupRadixLayout(32).plan, block: 4096, items: 16, tileRounds: 2 });
    expect(largeBlockPlan(subgroupRadixLayout(64).plan)?.block).toBe(4096);
    expect(largeBlockPlan(subgroupRadixLayout(16).plan)).toBeUndefined(); // 128 invocations
    expect(largeBlockPlan(PORTABLE_RADIX_PLAN)).toBeUndefined();
    expect(LARGE_BLOCKS_FROM).toBe(Infinity); // 2048-key blocks at every size by default
  });

  gpuTest('GpuRadixSort takes the large plan from largeBlocksFrom pairs where its subgroups allow it, and none below its maxCount', async ({ device }) => {
    const sorter = new GpuRadixSort(device, { maxCount: 1 << 16, largeBlocksFrom: 1 << 15 });
    expect(sorter.largeBlocksFrom).toBe(1 << 15);
    expect(sorter.largePlan).toEqual(largeBlockPlan(sorter.plan));
    const { keys, values } = pairs(40_000, 77, 32);
    const got = await sorter.sort(keys, values);
    expectArraysEqual(got.keys, radixSortReference(keys, values).keys, 'keys');
    expectArraysEqual(got.values, radixSortReference(keys, values).values, 'values');
    sorter.destroy();
    const small = new GpuRadixSort(device, { maxCount: 1000, largeBlocksFrom: 1 << 15 });
    expect(small.largePlan).toBeUndefined();
    small.destroy();
    const byDefault = new GpuRadixSort(device, { maxCount: 1 << 16 });
    expect([byDefault.largeBlocksFrom, byDefault.largePlan]).toEqual([Infinity, undefined]);
    byDefault.destroy();
  });

  gpuTest('one set of passes switches at largeFrom: sorts below and above it, in a row, match the reference and leave the scan status zero', async ({ device }) => {
    if (!device.features.has('subgroups')) return;
    // 256 invocations whatever the subgroup size (lavapipe's 8-wide subgroups: 25 KiB), as on an H100.
    const layout = subgroupRadixLayout(device.adapterInfo.subgroupMinSize ?? 32, device.adapterInfo.subgroupMaxSize ?? 128);
    const plan = { ...layout.plan, workgroupSize: 256, items: 8 };
    const largePlan = largeBlockPlan(plan)!;
    const maxCount = 23 * 4096;
    const passes = countScanPasses(device, plan, maxCount, 1, { largePlan, largeFrom: 9 * 4096 });
    expect([passes.planFor(9 * 4096 - 1), passes.planFor(9 * 4096)]).toEqual([plan, largePlan]);
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
    const scratch = [device.createBuffer({ size: maxCount * 4, usage }), device.createBuffer({ size: maxCount * 4, usage })] as const;
    const staging = device.createBuffer({ size: passes.scanStatus.size, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
    try {
      // Large (the last block short of its second round, then one key into it), small, large again.
      for (const [index, size] of [maxCount - 2100, 9 * 4096 - 1, 11 * 4096 + 2049, maxCount].entries()) {
        const status = await sortCheckedWithStatus(device, passes, scratch, staging, size, 300 + index);
        expect(status.every((word) => word === 0), `status words after sorting ${size}`).toBe(true);
      }
    } finally {
      for (const buffer of [...scratch, staging]) buffer.destroy();
      passes.destroy();
    }
  });
});

describe('count-scan: the scatter zeroes the scan status (no clear command between passes)', () => {
  for (const subgroups of [true, false]) {
    gpuTest(`${subgroups ? 'subgroup' : 'portable'} kernel: the status words are zero after every sort, and sorts in a row stay right`, async ({ device }) => {
      const plan = subgroups && device.features.has('subgroups') ? subgroupRadixLayout(device.adapterInfo.subgroupMinSize ?? 32, device.adapterInfo.subgroupMaxSize ?? 128).plan : PORTABLE_RADIX_PLAN;
      const maxCount = 100 * plan.block;
      const passes = countScanPasses(device, plan, maxCount, 1, {});
      const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
      const scratch = [device.createBuffer({ size: maxCount * 4, usage }), device.createBuffer({ size: maxCount * 4, usage })] as const;
      const staging = device.createBuffer({ size: passes.scanStatus.size, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
      try {
        // 100 blocks a digit row: a table of 4 scan tiles (16-digit portable rows: 1 tile), then fewer.
        for (const [index, size] of [maxCount - 9, 37 * plan.block + 1, maxCount].entries()) {
          const status = await sortCheckedWithStatus(device, passes, scratch, staging, size, 60 + index);
          const used = scanStatusWords(plan.radix * Math.ceil(size / plan.block));
          expect(status.subarray(0, used).every((word) => word === 0), `status words after sorting ${size}`).toBe(true);
        }
      } finally {
        for (const buffer of [...scratch, staging]) buffer.destroy();
        passes.destroy();
      }
    });
  }
});

describe('the benchmark\'s occupancy probe', () => {
  test('edits only the entry point it probes, refuses one it cannot find its places in, and appends its padding after the enables', () => {
    expect(() => probeSource('enable subgroups;\nfn scatter() {\n}\n', 0)).toThrow(/exactly one/);
    expect(() => probeSource('enable subgroups;\nfn scatter() {\n}\n', 0, 'scatter_rounds')).toThrow(/no function 'scatter_rounds'/);
    const entry = (name: string): string => `\nfn ${name}(\n  @builtin(local_invocation_index) local: u32,\n) {\n  let block = block_index(group_id);\n  clear_scan_status(block, local, 8u);\n  write(block);\n}\n`;
    const source = `enable subgroups;\n${entry('scatter')}${entry('scatter_rounds')}`;
    const probed = probeSource(source, 1024, 'scatter_rounds');
    expect(probed.startsWith(`enable subgroups;\n${entry('scatter')}`)).toBe(true); // the other entry point untouched
    expect(probed).toContain('array<u32, 256>');
    expect(probed.match(/atomicAdd/g)).toHaveLength(1);
    expect(probed).toMatch(/write\(block\);\n {2}if \(local == 0u\) \{\n {4}atomicSub/);
  });

  gpuTest('counts the scatter workgroups in and out of a sort (at least one at once, no more than the blocks) and leaves the sort right, for both scatter entry points', async ({ device }) => {
    if (!device.features.has('subgroups')) return;
    const plan = subgroupRadixLayout(device.adapterInfo.subgroupMinSize ?? 32, device.adapterInfo.subgroupMaxSize ?? 128).plan;
    // scatter_rounds with 256 invocations whatever the subgroup size, as GpuRadixSort builds it on an H100.
    for (const probed of [plan, largeBlockPlan({ ...plan, workgroupSize: 256, items: 8 })!]) {
      const size = 9 * probed.block + 3;
      const probe = new OccupancyProbe(device, probed, 4 * size, 0);
      const { keys, values } = pairs(size, 91, 32);
      const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
      const keyBuffer = device.createBuffer({ size: size * 4, usage });
      const valueBuffer = device.createBuffer({ size: size * 4, usage });
      try {
        const got = await probe.variant.sort(keys, values);
        const expected = radixSortReference(keys, values);
        expectArraysEqual(got.keys, expected.keys, `keys, ${probed.block}-key blocks`);
        expectArraysEqual(got.values, expected.values, `values, ${probed.block}-key blocks`);
        device.queue.writeBuffer(keyBuffer, 0, keys);
        device.queue.writeBuffer(valueBuffer, 0, values);
        const peak = await probe.peak((encoder) => { probe.variant.encode(encoder, keyBuffer, valueBuffer, size); });
        expect(peak).toBeGreaterThanOrEqual(1);
        expect(peak).toBeLessThanOrEqual(10);
      } finally {
        keyBuffer.destroy();
        valueBuffer.destroy();
        probe.destroy();
      }
    }
  });

  gpuTest('the write-pattern controls build and run (timing only: their output is not sorted)', async ({ device }) => {
    if (!device.features.has('subgroups')) return;
    const plan = subgroupRadixLayout(device.adapterInfo.subgroupMinSize ?? 32, device.adapterInfo.subgroupMaxSize ?? 128).plan;
    for (const pattern of ['sequential', 'none'] as const) {
      const control = writePatternCountScan(device, plan, 4 * plan.block, 1, pattern);
      const { keys, values } = pairs(4 * plan.block, 5, 32);
      const got = await control.sort(keys, values);
      expect(got.keys.length).toBe(keys.length);
      control.destroy();
    }
  });
});

describe('GpuRadixSort on a device with default limits', () => {
  test.skipIf(gpuTestsSkipped)('still gets the subgroup kernel (16 KiB of workgroup memory is enough) and sorts right', async () => {
    const { device } = await requestNodeGpu({ maxLimits: [], timestamps: false });
    try {
      expect(device.limits.maxComputeWorkgroupStorageSize).toBe(16_384);
      const sorter = new GpuRadixSort(device, { maxCount: 50_000 });
      expect(sorter.plan.kind).toBe(device.features.has('subgroups') ? 'subgroups' : 'portable');
      const { keys, values } = pairs(50_000, 3, 32);
      const got = await sorter.sort(keys, values);
      expectArraysEqual(got.values, radixSortReference(keys, values).values);
      sorter.destroy();
      if (device.features.has('subgroups')) {
        // The onesweep kernel keeps to 2048-key tiles here, and a request for 4096 says what to raise.
        const onesweep = new GpuRadixSort(device, { maxCount: 50_000, algorithm: 'onesweep' });
        expect(onesweep.plan.block).toBe(2048);
        expectArraysEqual((await onesweep.sort(keys, values)).values, radixSortReference(keys, values).values);
        onesweep.destroy();
        expect(() => new GpuRadixSort(device, { maxCount: 16, algorithm: 'onesweep', tileKeys: 4096 })).toThrow(/maxComputeWorkgroupStorageSize/);
      }
    } finally {
      device.destroy();
    }
  });
});

describe('GpuRadixSort bad input', () => {
  gpuTest('typed errors before any GPU work', async ({ device }) => {
    expect(() => new GpuRadixSort(device, { maxCount: 10, keyBits: 6 })).toThrow(/multiple of 4/);
    expect(() => new GpuRadixSort(device, { maxCount: -1 })).toThrow(GpuPrimitivesError);
    for (const bad of [0, 2.5, -4, Number.NaN]) expect(() => new GpuRadixSort(device, { maxCount: 10, largeBlocksFrom: bad })).toThrow(/largeBlocksFrom must be a positive integer or Infinity/);
    const sorter = new GpuRadixSort(device, { maxCount: 100, keyBits: 4 });
    const keys = device.createBuffer({ size: 400, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
    const values = device.createBuffer({ size: 400, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
    const noCopy = device.createBuffer({ size: 400, usage: GPUBufferUsage.STORAGE });
    const encoder = device.createCommandEncoder();
    expect(() => { sorter.encode(encoder, keys, values, 101); }).toThrow(/maxCount 100/);
    expect(() => { sorter.encode(encoder, keys, keys, 10); }).toThrow(/different buffers/);
    expect(() => { sorter.encode(encoder, keys, noCopy, 10); }).toThrow(/COPY_DST/);
    device.queue.submit([encoder.finish()]);
    await expect(sorter.sort(new Uint32Array(3), new Uint32Array(2))).rejects.toThrow(/same length/);
    sorter.destroy();
    await expect(sorter.sort(new Uint32Array(3), new Uint32Array(3))).rejects.toThrow(/destroyed/);
  });
});

describe('the benchmark\'s H100 modules (for the driver\'s pipeline statistics)', () => {
  gpuTest('are the count-scan, scan and onesweep modules built for 32-wide subgroups, with their entry points', async ({ device }) => {
    const modules = h100Modules(device);
    await device.queue.onSubmittedWorkDone();
    for (const [label, entries] of Object.entries(H100_MODULE_ENTRIES)) {
      const code = modules.get(label);
      expect(code, label).toBeDefined();
      for (const entry of entries) expect(code, `${label} ${entry}`).toContain(`fn ${entry}(`);
    }
    expect(modules.get('cuttle.radix-sort')).toContain('const SCATTER_SIZE: u32 = 256u;');
    expect(modules.get('cuttle.radix-sort.large')).toContain('const TILE_ROUNDS: u32 = 2u;');
    expect(modules.get('cuttle.radix-sort.onesweep')).toContain('const BLOCK: u32 = 4096u;');
  });
});
