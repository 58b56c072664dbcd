// The one-sweep radix sort (algorithm: 'onesweep'): the same contract as the other kernels,
// checked against the TypeScript reference, plus descending order and the look-back's fallback.
import { describe, expect } from 'vitest';
import { expectArraysEqual, gpuTest } from '@cuttle/test-utils';
import { GpuPrimitivesError, GpuRadixSort, radixSortReference } from '../src/index.ts';
import { onesweepVariant } from '../bench/onesweep-variant.ts';
import { descendingReference, floatPairs, pairs } from './sort-pairs.ts';

// Each kernel variant (pairs, keys only, the fallback-only test build) is a pipeline that lavapipe
// compiles for 10-20 s on a cold shader cache: room for a busy CI machine.
const COMPILE_TIMEOUT = 180_000;

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
  }, COMPILE_TIMEOUT);

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
  }, COMPILE_TIMEOUT);

  gpuTest('all keys equal, sorted, reversed', async ({ device }) => {
    const size = 30_000;
    const sorter = new GpuRadixSort(device, { maxCount: size, algorithm: 'onesweep' });
    const values = Uint32Array.from({ length: size }, (_, i) => i);
    await expectSorted(sorter, new Uint32Array(size).fill(0xdeadbeef), values.slice(), 'equal keys');
    await expectSorted(sorter, Uint32Array.from({ length: size }, (_, i) => i * 977), values.slice(), 'sorted keys');
    await expectSorted(sorter, Uint32Array.from({ length: size }, (_, i) => (size - i) * 977), values.slice(), 'reversed keys');
    sorter.destroy();
  }, COMPILE_TIMEOUT);

  gpuTest('fewer key bits: an odd number of passes copies back, a partial last digit masks', async ({ device }) => {
    for (const keyBits of [4, 12, 16, 20, 24]) {
      const sorter = new GpuRadixSort(device, { maxCount: 20_000, keyBits, algorithm: 'onesweep' });
      const { keys, values } = pairs(20_000, keyBits, 32);
      await expectSorted(sorter, keys, values, `keyBits ${keyBits}`);
      sorter.destroy();
    }
  }, COMPILE_TIMEOUT);

  gpuTest('descending: largest key first, equal keys in their order, also with fewer key bits', async ({ device }) => {
    if (!device.features.has('subgroups')) return;
    for (const keyBits of [32, 12]) {
      const sorter = new GpuRadixSort(device, { maxCount: 25_000, keyBits, algorithm: 'onesweep', descending: true });
      const { keys, values } = pairs(25_000, 5 + keyBits, 14);
      await expectSorted(sorter, keys, values, `descending, keyBits ${keyBits}`);
      sorter.destroy();
    }
  }, COMPILE_TIMEOUT);

  gpuTest('the look-back fallback alone sorts correctly (every tile counts its predecessors)', async ({ device }) => {
    const sorter = new GpuRadixSort(device, { maxCount: 12_000, algorithm: 'onesweep', lookbackFallsBack: 'always' });
    for (const size of [12_000, 5_000]) {
      const { keys, values } = pairs(size, 3 + size, 32);
      await expectSorted(sorter, keys, values, `${size} pairs, fallback only`);
    }
    sorter.destroy();
  }, COMPILE_TIMEOUT);

  gpuTest('the digits of a tile stalling at different predecessors still add up', async ({ device }) => {
    // A third of the statuses read as not ready, by tile and digit: in one tile some digits walk
    // on while others wait for the workgroup to count the tile they stalled at.
    const sorter = new GpuRadixSort(device, { maxCount: 40_000, algorithm: 'onesweep', lookbackFallsBack: 'sometimes' });
    for (const [size, bits] of [[40_000, 32], [9_000, 6]] as const) {
      const { keys, values } = pairs(size, 17 + size, bits);
      await expectSorted(sorter, keys, values, `${size} pairs of ${bits}-bit keys, some statuses ignored`);
    }
    sorter.destroy();
  }, COMPILE_TIMEOUT);

  gpuTest('tiles of 2048 and 4096 keys sort alike; a bad or unaffordable tile size is refused', async ({ device }) => {
    if (!device.features.has('subgroups')) return;
    const size = 3 * 4096 + 77;
    const { keys, values } = pairs(size, 8, 32);
    for (const tileKeys of [2048, 4096] as const) {
      const sorter = new GpuRadixSort(device, { maxCount: size, algorithm: 'onesweep', tileKeys });
      expect(sorter.plan.block).toBe(tileKeys);
      expect(sorter.plan.block).toBe(sorter.plan.workgroupSize * sorter.plan.items);
      await expectSorted(sorter, keys, values, `tiles of ${tileKeys}`);
      sorter.destroy();
    }
    expect(() => new GpuRadixSort(device, { maxCount: 16, algorithm: 'onesweep', tileKeys: 1024 as 2048 })).toThrow(/tileKeys must be 2048 or 4096/);
    expect(() => new GpuRadixSort(device, { maxCount: 16, tileKeys: 4096 })).toThrow(/onesweep/);
  }, COMPILE_TIMEOUT);

  gpuTest('four-word ballot masks (subgroups over 32 lanes) rank the same as one-word ones', async ({ device }) => {
    if (!device.features.has('subgroups')) return;
    // This device's subgroups fit one word, so the wide masks' code only runs when forced.
    const size = 9_000;
    const { keys, values } = pairs(size, 64, 32);
    for (const algorithm of ['onesweep', 'count-scan'] as const) {
      const sorter = new GpuRadixSort(device, { maxCount: size, algorithm, wideLaneMasks: true });
      await expectSorted(sorter, keys, values, `${algorithm}, wide masks`);
      sorter.destroy();
    }
  }, COMPILE_TIMEOUT);

  gpuTest('the benchmark\'s builds (look-back before the tile sort) sort the same, also when digits stall', async ({ device }) => {
    if (!device.features.has('subgroups')) return;
    const probe = new GpuRadixSort(device, { maxCount: 16, algorithm: 'onesweep' });
    const { plan } = probe;
    probe.destroy();
    // 4 tiles: the other order, with and without stalls.
    const builds = [
      { variant: { lookBackBeforeTileSort: true }, tiles: 3 },
      { variant: { lookBackBeforeTileSort: true, fallBack: 'sometimes' as const }, tiles: 3 },
    ];
    for (const { variant, tiles } of builds) {
      const size = tiles * plan.block + 11;
      const sorter = onesweepVariant(device, plan, size, 2, variant);
      const { keys, values } = pairs(size, 91, 32);
      const got = await sorter.sort(keys, values);
      const expected = radixSortReference(keys, values);
      expectArraysEqual(got.keys, expected.keys, `keys, ${JSON.stringify(variant)}`);
      expectArraysEqual(got.values, expected.values, `values, ${JSON.stringify(variant)}`);
      sorter.destroy();
    }
  }, COMPILE_TIMEOUT);

  gpuTest('tiles past the per-dimension limit use a 2D grid with padding workgroups', async ({ device }) => {
    const probe = new GpuRadixSort(device, { maxCount: 16, algorithm: 'onesweep' });
    const size = 8 * probe.plan.block - 3;
    probe.destroy();
    const sorter = new GpuRadixSort(device, { maxCount: size, algorithm: 'onesweep', maxWorkgroupsPerDimension: 3 });
    const { keys, values } = pairs(size, 42, 32);
    await expectSorted(sorter, keys, values, '8 tiles on a 3 x 3 grid');
    sorter.destroy();
  }, COMPILE_TIMEOUT);

  gpuTest('keys only: the same keys as the pair sort, also with an odd number of passes', async ({ device }) => {
    if (!device.features.has('subgroups')) return;
    for (const keyBits of [32, 24, 12]) {
      const sorter = new GpuRadixSort(device, { maxCount: 30_000, keyBits, algorithm: 'onesweep', keysOnly: true });
      const { keys, values } = pairs(30_000, 21 + keyBits, 32);
      expectArraysEqual(await sorter.sortKeys(keys), radixSortReference(keys, values, keyBits).keys, `keysOnly, keyBits ${keyBits}`);
      sorter.destroy();
    }
  }, COMPILE_TIMEOUT);

  gpuTest('f32 keys sort in float order: negatives, -0 before +0, infinities; pairs stay stable', async ({ device }) => {
    if (!device.features.has('subgroups')) return;
    const count = 20_000;
    const { floats, keys, values, order } = floatPairs(count);
    for (const descending of [false, true]) {
      const sorter = new GpuRadixSort(device, { maxCount: count, algorithm: 'onesweep', keyType: 'f32', descending });
      const got = await sorter.sort(keys.slice(), values.slice());
      const expected = order(descending);
      expectArraysEqual(got.values, expected, `f32 pairs, descending ${descending}`);
      expectArraysEqual(new Float32Array(got.keys.buffer), Float32Array.from(expected, (i) => floats[i]!), `f32 keys come back as floats, descending ${descending}`);
      sorter.destroy();
    }
    const keysOnly = new GpuRadixSort(device, { maxCount: count, algorithm: 'onesweep', keyType: 'f32', keysOnly: true });
    expectArraysEqual(new Float32Array((await keysOnly.sortKeys(keys.slice())).buffer), Float32Array.from(order(false), (i) => floats[i]!), 'f32 keys only');
    keysOnly.destroy();
  }, COMPILE_TIMEOUT);

  gpuTest('NaNs go to the ends by their sign bit', async ({ device }) => {
    if (!device.features.has('subgroups')) return;
    const words = Uint32Array.from([0x7fc00000, 0x3f800000, 0xffc00000, 0xbf800000]); // NaN, 1, -NaN, -1
    const sorter = new GpuRadixSort(device, { maxCount: 4, algorithm: 'onesweep', keyType: 'f32', keysOnly: true });
    expectArraysEqual(await sorter.sortKeys(words), Uint32Array.from([0xffc00000, 0xbf800000, 0x3f800000, 0x7fc00000]));
    sorter.destroy();
  }, COMPILE_TIMEOUT);

  gpuTest('per-pass timestamps: one pair around each pass (onesweep and count-scan), in order', async ({ device }) => {
    if (!device.features.has('subgroups') || !device.features.has('timestamp-query')) return;
    const { keys, values } = pairs(50_000, 77, 32);
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
    const [keyBuffer, valueBuffer] = [device.createBuffer({ size: keys.byteLength, usage }), device.createBuffer({ size: keys.byteLength, usage })];
    // 24 key bits: three digits. Onesweep: the histogram and three digit passes; count-scan: a
    // count, a scan and a scatter per digit.
    for (const [algorithm, passes] of [['onesweep', 4], ['count-scan', 9]] as const) {
      const sorter = new GpuRadixSort(device, { maxCount: 50_000, keyBits: 24, algorithm });
      expect(sorter.timedPasses).toBe(passes);
      const querySet = device.createQuerySet({ type: 'timestamp', count: 2 + 2 * passes });
      const resolve = device.createBuffer({ size: querySet.count * 8, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
      const readback = device.createBuffer({ size: querySet.count * 8, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
      device.queue.writeBuffer(keyBuffer, 0, keys);
      device.queue.writeBuffer(valueBuffer, 0, values);
      const encoder = device.createCommandEncoder();
      // Queries 0 and 1 stay unwritten: firstIndex is honoured.
      sorter.encode(encoder, keyBuffer, valueBuffer, keys.length, { querySet, firstIndex: 2, perPass: true });
      encoder.resolveQuerySet(querySet, 0, querySet.count, resolve, 0);
      encoder.copyBufferToBuffer(resolve, 0, readback, 0, resolve.size);
      device.queue.submit([encoder.finish()]);
      await readback.mapAsync(GPUMapMode.READ);
      const stamps = Array.from(new BigUint64Array(readback.getMappedRange().slice(0)).slice(2));
      readback.unmap();
      expect(stamps.every((stamp) => stamp > 0n), `${algorithm}: every pass stamped`).toBe(true);
      for (let i = 1; i < stamps.length; i++) expect(stamps[i]! >= stamps[i - 1]!, `${algorithm}: timestamp ${i} after ${i - 1}`).toBe(true);
      // Still a correct sort (the last of three digit passes copied back).
      const check = await sorter.sort(keys.slice(), values.slice());
      expectArraysEqual(check.values, radixSortReference(keys, values, 24).values);
      const small = device.createQuerySet({ type: 'timestamp', count: 4 });
      expect(() => { sorter.encode(device.createCommandEncoder(), keyBuffer, valueBuffer, keys.length, { querySet: small, firstIndex: 0, perPass: true }); }).toThrow(new RegExp(`need ${2 * passes} queries`));
      for (const resource of [sorter, querySet, small, resolve, readback]) resource.destroy();
    }
    const portable = new GpuRadixSort(device, { maxCount: 16, subgroups: false });
    expect(portable.timedPasses).toBe(0);
    const querySet = device.createQuerySet({ type: 'timestamp', count: 2 });
    expect(() => { portable.encode(device.createCommandEncoder(), keyBuffer, valueBuffer, 16, { querySet, firstIndex: 0, perPass: true }); }).toThrow(/per-pass timestamps need the onesweep or subgroup kernel/);
    for (const resource of [portable, querySet, keyBuffer, valueBuffer]) resource.destroy();
  }, COMPILE_TIMEOUT);

  gpuTest('bad options throw typed errors and build nothing', async ({ device }) => {
    await Promise.resolve();
    expect(() => new GpuRadixSort(device, { maxCount: 16, algorithm: 'fastest' as 'onesweep' })).toThrow(GpuPrimitivesError);
    expect(() => new GpuRadixSort(device, { maxCount: 16, keyType: 'f64' as 'f32' })).toThrow(/keyType must be/);
    expect(() => new GpuRadixSort(device, { maxCount: 16, algorithm: 'onesweep', lookbackFallsBack: 'often' as 'always' })).toThrow(/lookbackFallsBack must be/);
    if (!device.features.has('subgroups')) return;
    expect(() => new GpuRadixSort(device, { maxCount: 16, keyType: 'f32', keyBits: 16, algorithm: 'onesweep' })).toThrow(/keyBits 16/);
    const keysOnly = new GpuRadixSort(device, { maxCount: 16, algorithm: 'onesweep', keysOnly: true });
    const pairsSorter = new GpuRadixSort(device, { maxCount: 16, algorithm: 'onesweep' });
    const buffer = device.createBuffer({ size: 64, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
    const other = device.createBuffer({ size: 64, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
    const encoder = device.createCommandEncoder();
    expect(() => { keysOnly.encode(encoder, buffer, other, 16); }).toThrow(/encodeKeys/);
    expect(() => { pairsSorter.encodeKeys(encoder, buffer, 16); }).toThrow(/keysOnly: true/);
    for (const resource of [keysOnly, pairsSorter, buffer, other]) resource.destroy();
  }, COMPILE_TIMEOUT);
});
