import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { createBufferWithData, expectArraysEqual, gpuTest } from '@cuttle/test-utils';
import { GpuPrimitivesError, GpuScan, SCAN_BLOCK, SMALL_SCAN_BLOCK, SMALL_SCAN_MAX, dispatchGrid, exclusiveScanReference, maxScanStatusWords, scanBlockFor, scanStatusWords, scanTiles } from '../src/index.ts';

function sequentialScan(input: Uint32Array): Uint32Array {
  const out = new Uint32Array(input.length);
  let running = 0;
  for (let i = 0; i < input.length; i++) {
    out[i] = running;
    running = (running + input[i]!) >>> 0;
  }
  return out;
}

function words(count: number, seed: number, max = 2 ** 32): Uint32Array {
  const out = new Uint32Array(count);
  let x = seed || 1;
  for (let i = 0; i < count; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = (x >>> 0) % max;
  }
  return out;
}

describe('scan reference and plan', () => {
  test('the blocked reference equals a sequential scan, wrapping at 2^32', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 1, max: 2 ** 31 }), (count, seed) => {
        const input = words(count, seed);
        expectArraysEqual(exclusiveScanReference(input), sequentialScan(input));
      }),
      { numRuns: 40 },
    );
  });

  test('tiles of 4096 elements up to SMALL_SCAN_MAX with subgroups, of 8192 above it and without', () => {
    expect([SCAN_BLOCK, SMALL_SCAN_BLOCK, SMALL_SCAN_MAX]).toEqual([8192, 4096, 3 * 2 ** 20]);
    expect([scanTiles(1), scanTiles(4096), scanTiles(4097), scanTiles(8193)]).toEqual([1, 1, 2, 3]);
    expect([scanTiles(SMALL_SCAN_MAX), scanTiles(SMALL_SCAN_MAX + 1), scanTiles(2 ** 26)]).toEqual([768, 385, 8192]);
    expect([scanTiles(8193, 'portable'), scanTiles(SMALL_SCAN_MAX, 'portable')]).toEqual([2, 384]);
    expect(scanBlockFor(SMALL_SCAN_MAX)).toBe(SMALL_SCAN_BLOCK);
    expect(scanBlockFor(SMALL_SCAN_MAX, 'portable')).toBe(SCAN_BLOCK);
    expect(scanStatusWords(8193)).toBe(7);
    // Just above the threshold, the small tiles of a smaller count need more words than maxCount's own.
    expect(maxScanStatusWords(SMALL_SCAN_MAX + 4)).toBe(scanStatusWords(SMALL_SCAN_MAX));
    expect(maxScanStatusWords(2 ** 26)).toBe(scanStatusWords(2 ** 26));
    expect(maxScanStatusWords(100)).toBe(3);
  });

  test('dispatch grids never exceed the per-dimension limit and cover every workgroup', () => {
    for (const [groups, limit] of [[1, 65535], [65535, 65535], [65536, 65535], [200_000, 65535], [40, 7], [49, 7]] as const) {
      const { x, y } = dispatchGrid(groups, limit);
      expect(x).toBeLessThanOrEqual(limit);
      expect(y).toBeLessThanOrEqual(limit);
      expect(x * y).toBeGreaterThanOrEqual(groups);
      expect(x * (y - 1)).toBeLessThan(groups);
    }
    expect(() => dispatchGrid(50, 7)).toThrow(/7 x 7/);
  });
});

for (const subgroups of [true, false]) {
describe(`GpuScan (${subgroups ? 'subgroup variant where available' : 'portable variant'}) against the reference`, () => {
  gpuTest('picks the variant the device allows', async ({ device }) => {
    const scan = new GpuScan(device, { maxCount: 8, subgroups });
    expect(scan.variant).toBe(subgroups && device.features.has('subgroups') ? 'subgroups' : 'portable');
    const input = createBufferWithData(device, Uint32Array.from([5, 6, 7, 8]), GPUBufferUsage.STORAGE);
    const output = device.createBuffer({ size: 16, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
    expect(await scan.scan(input, output, 4)).toEqual({ prefix: Uint32Array.from([0, 5, 11, 18]), total: 26 });
    scan.destroy();
  });

  gpuTest('sizes around tile edges, ragged ends and hundreds of tiles', async ({ device }) => {
    // Both tile sizes in one instance: small tiles up to SMALL_SCAN_MAX, large ones above.
    const sizes = [1, 3, 7, 1023, 1024, 4095, 4096, 4097, 8191, 8192, 8193, 8195, 1_048_576 + 3, SMALL_SCAN_MAX, SMALL_SCAN_MAX + 2 * SCAN_BLOCK + 5];
    const scan = new GpuScan(device, { maxCount: SMALL_SCAN_MAX + 2 * SCAN_BLOCK + 5, subgroups });
    try {
      for (const [index, size] of sizes.entries()) {
        const input = words(size, 11 + index);
        const inputBuffer = createBufferWithData(device, input, GPUBufferUsage.STORAGE);
        const output = device.createBuffer({ size: size * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
        const { prefix, total } = await scan.scan(inputBuffer, output, size);
        const expected = exclusiveScanReference(input);
        expectArraysEqual(prefix, expected, `${size} elements`);
        expect(total, `${size} elements: total`).toBe((expected[size - 1]! + input[size - 1]!) >>> 0);
      }
    } finally {
      scan.destroy();
    }
  });

  gpuTest('an instance sized just above SMALL_SCAN_MAX has status room for the small tiles of smaller scans', async ({ device }) => {
    const maxCount = SMALL_SCAN_MAX + 4;
    const scan = new GpuScan(device, { maxCount, subgroups });
    expect(scan.statusBuffer.size).toBeGreaterThanOrEqual(scanStatusWords(SMALL_SCAN_MAX, scan.variant) * 4);
    const input = words(maxCount, 12, 50);
    const inputBuffer = createBufferWithData(device, input, GPUBufferUsage.STORAGE);
    const output = device.createBuffer({ size: maxCount * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
    try {
      for (const size of [SMALL_SCAN_MAX, maxCount]) {
        expectArraysEqual((await scan.scan(inputBuffer, output, size)).prefix, exclusiveScanReference(input.subarray(0, size)), `${size} elements`);
      }
    } finally {
      for (const buffer of [inputBuffer, output]) buffer.destroy();
      scan.destroy();
    }
  });

  gpuTest('block counts above the per-dimension limit spread over a 2D grid', async ({ device }) => {
    // A limit of 7 workgroups per dimension turns 40 tiles (subgroups: of 4096 elements) into a
    // 7 x 6 grid with 2 padding workgroups, and 20 (portable: of 8192) into 7 x 3 with 1.
    const size = 40 * SMALL_SCAN_BLOCK - 5;
    const scan = new GpuScan(device, { maxCount: size, maxWorkgroupsPerDimension: 7, subgroups });
    const input = words(size, 3, 1000);
    const output = device.createBuffer({ size: size * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
    const { prefix } = await scan.scan(createBufferWithData(device, input, GPUBufferUsage.STORAGE), output, size);
    expectArraysEqual(prefix, exclusiveScanReference(input));
    scan.destroy();
  });

  gpuTest('buffers smaller than one vec4 (1 to 3 words)', async ({ device }) => {
    const scan = new GpuScan(device, { maxCount: 3, subgroups });
    for (const size of [1, 2, 3]) {
      const input = words(size, size, 1000);
      const output = device.createBuffer({ size: size * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
      const { prefix, total } = await scan.scan(createBufferWithData(device, input, GPUBufferUsage.STORAGE), output, size);
      expectArraysEqual(prefix, exclusiveScanReference(input), `${size} words`);
      expect(total).toBe(input.reduce((a, b) => a + b, 0));
    }
    scan.destroy();
  });

  gpuTest('the look-back fallback alone gives the same result (every tile sums its predecessors)', async ({ device }) => {
    const size = 9 * SCAN_BLOCK + 77;
    const scan = new GpuScan(device, { maxCount: size, lookback: { alwaysFallBack: true }, subgroups });
    const input = words(size, 5);
    const output = device.createBuffer({ size: size * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
    const { prefix, total } = await scan.scan(createBufferWithData(device, input, GPUBufferUsage.STORAGE), output, size);
    const expected = exclusiveScanReference(input);
    expectArraysEqual(prefix, expected);
    expect(total).toBe((expected[size - 1]! + input[size - 1]!) >>> 0);
    scan.destroy();
  });

  gpuTest('a spin limit of 1 falls back whenever a predecessor is late, with the same result', async ({ device }) => {
    const size = 100 * SCAN_BLOCK + 1;
    const scan = new GpuScan(device, { maxCount: size, lookback: { spinLimit: 1 }, subgroups });
    const input = words(size, 6);
    const output = device.createBuffer({ size: size * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
    const inputBuffer = createBufferWithData(device, input, GPUBufferUsage.STORAGE);
    const expected = exclusiveScanReference(input);
    for (let run = 0; run < 2; run++) expectArraysEqual((await scan.scan(inputBuffer, output, size)).prefix, expected, `run ${run}`);
    scan.destroy();
  });

  gpuTest('tiles by ticket: same results, also on a 2D grid and with the fallback', async ({ device }) => {
    // 18 tiles on a 7 x 3 grid (portable: 9 on 7 x 2): 3 (5) padding workgroups.
    const size = 9 * SCAN_BLOCK - 5;
    const input = words(size, 8);
    const inputBuffer = createBufferWithData(device, input, GPUBufferUsage.STORAGE);
    const output = device.createBuffer({ size: size * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
    const expected = exclusiveScanReference(input);
    for (const lookback of [{}, { spinLimit: 1 }, { alwaysFallBack: true }] as const) {
      const scan = new GpuScan(device, { maxCount: size, maxWorkgroupsPerDimension: 7, subgroups, lookback: { ...lookback, tileOrder: 'ticket' } });
      const { prefix, total } = await scan.scan(inputBuffer, output, size);
      expectArraysEqual(prefix, expected, JSON.stringify(lookback));
      expect(total).toBe((expected[size - 1]! + input[size - 1]!) >>> 0);
      scan.destroy();
    }
  });

  gpuTest('clearsStatus false: encode leaves the status alone, and the caller zeroing it between scans is enough', async ({ device }) => {
    // Tiles by ticket: a ticket counter left from the last scan would hand out tiles past the end.
    const scan = new GpuScan(device, { maxCount: 5 * SCAN_BLOCK, clearsStatus: false, subgroups, lookback: { tileOrder: 'ticket' } });
    const count = 4 * SCAN_BLOCK + 7;
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
    const output = device.createBuffer({ size: count * 4, usage });
    const staging = device.createBuffer({ size: scanStatusWords(count, scan.variant) * 4, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
    try {
      const ticketCounter = async (): Promise<number> => {
        const encoder = device.createCommandEncoder();
        encoder.copyBufferToBuffer(scan.statusBuffer, 0, staging, 0, staging.size);
        device.queue.submit([encoder.finish()]);
        await staging.mapAsync(GPUMapMode.READ);
        const counter = new Uint32Array(staging.getMappedRange().slice(0))[0]!;
        staging.unmap();
        return counter;
      };
      const input = words(count, 5);
      const buffer = createBufferWithData(device, input, usage);
      const expected = exclusiveScanReference(input);
      expectArraysEqual((await scan.scan(buffer, output, count)).prefix, expected, 'first scan');
      expect(await ticketCounter()).toBe(scanTiles(count, scan.variant));
      // Not zeroed: the next scan counts on from there (its result is not checked: tiles past the end).
      await scan.scan(buffer, output, count);
      expect(await ticketCounter()).toBe(2 * scanTiles(count, scan.variant));
      const encoder = device.createCommandEncoder();
      encoder.clearBuffer(scan.statusBuffer, 0, scanStatusWords(count, scan.variant) * 4);
      device.queue.submit([encoder.finish()]);
      expectArraysEqual((await scan.scan(buffer, output, count)).prefix, expected, 'after the caller zeroed the status');
      expect(await ticketCounter()).toBe(scanTiles(count, scan.variant));
      buffer.destroy();
    } finally {
      for (const buffer of [output, staging]) buffer.destroy();
      scan.destroy();
    }
  });

  gpuTest('several scans of different sizes in one encoder', async ({ device }) => {
    const scan = new GpuScan(device, { maxCount: 50_000, slots: 2, subgroups });
    const input = words(50_000, 9, 100);
    const inputBuffer = createBufferWithData(device, input, GPUBufferUsage.STORAGE);
    const outputs = [device.createBuffer({ size: 200_000, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST }), device.createBuffer({ size: 200_000, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST })];
    const readback = device.createBuffer({ size: 400_000, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
    const encoder = device.createCommandEncoder();
    scan.encode(encoder, inputBuffer, outputs[0]!, 50_000);
    scan.encode(encoder, inputBuffer, outputs[1]!, 700);
    encoder.copyBufferToBuffer(outputs[0]!, 0, readback, 0, 200_000);
    encoder.copyBufferToBuffer(outputs[1]!, 0, readback, 200_000, 700 * 4);
    device.queue.submit([encoder.finish()]);
    await readback.mapAsync(GPUMapMode.READ);
    const got = new Uint32Array(readback.getMappedRange().slice(0));
    readback.unmap();
    expectArraysEqual(got.subarray(0, 50_000), exclusiveScanReference(input), 'first scan');
    expectArraysEqual(got.subarray(50_000, 50_700), exclusiveScanReference(input.subarray(0, 700)), 'second scan');
    scan.destroy();
  });
});
}

describe('GpuScan bad input', () => {
  gpuTest('typed errors for bad sizes, aliasing, usage and use after destroy', async ({ device }) => {
    expect(() => new GpuScan(device, { maxCount: 0 })).toThrow(GpuPrimitivesError);
    expect(() => new GpuScan(device, { maxCount: 10, maxWorkgroupsPerDimension: 0 })).toThrow(/maxWorkgroupsPerDimension/);
    expect(() => new GpuScan(device, { maxCount: 10, lookback: { spinLimit: 0 } })).toThrow(/spinLimit/);
    expect(() => new GpuScan(device, { maxCount: 10, lookback: { tileOrder: 'random' as 'ticket' } })).toThrow(/tileOrder/);
    const scan = new GpuScan(device, { maxCount: 100 });
    const a = device.createBuffer({ size: 400, usage: GPUBufferUsage.STORAGE });
    const b = device.createBuffer({ size: 400, usage: GPUBufferUsage.STORAGE });
    const small = device.createBuffer({ size: 40, usage: GPUBufferUsage.STORAGE });
    const copyOnly = device.createBuffer({ size: 400, usage: GPUBufferUsage.COPY_DST });
    const encoder = device.createCommandEncoder();
    expect(() => { scan.encode(encoder, a, b, 101); }).toThrow(/maxCount 100/);
    expect(() => { scan.encode(encoder, a, small, 50); }).toThrow(/output buffer holds 40/);
    expect(() => { scan.encode(encoder, a, a, 12); }).toThrow(/different buffers/);
    expect(() => { scan.encode(encoder, a, b, 10); }).toThrow(/not a multiple of 4 \(10\) the output buffer also needs GPUBufferUsage.COPY_DST/);
    expect(() => { scan.encode(encoder, copyOnly, b, 10); }).toThrow(/input buffer needs GPUBufferUsage.STORAGE/);
    expect(() => { scan.encode(encoder, a, b, -1); }).toThrow(GpuPrimitivesError);
    device.queue.submit([encoder.finish()]);
    scan.destroy();
    await expect(scan.scan(a, b, 10)).rejects.toThrow(/destroyed/);
  });
});
