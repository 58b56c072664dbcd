// The README's example, run as written (with a device from Dawn).
import { expect } from 'vitest';
import { gpuTest, readBuffer } from '@cuttle/test-utils';
import { GpuRadixSort, GpuReduce, GpuScan } from '../src/index.ts';

gpuTest('README example', async ({ device }) => {
  const values = new Float32Array([1.5, 2.5, -1, 4]);
  const input = device.createBuffer({ size: values.byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(input, 0, values);

  const sum = new GpuReduce(device, { op: 'sum', type: 'f32' });
  expect(await sum.reduce(input, values.length)).toBe(7);

  const encoder = device.createCommandEncoder();
  sum.encode(encoder, input, values.length);

  const cellCount = 5;
  const counts = device.createBuffer({ size: 20, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
  const offsets = device.createBuffer({ size: 20, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(counts, 0, new Uint32Array([3, 0, 2, 5, 1]));
  const scan = new GpuScan(device, { maxCount: 1 << 20 });
  scan.encode(encoder, counts, offsets, cellCount);

  const particleCount = 4;
  const cellHashes = device.createBuffer({ size: 16, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC });
  const particleIndices = device.createBuffer({ size: 16, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC });
  device.queue.writeBuffer(cellHashes, 0, new Uint32Array([900, 12, 900, 3]));
  device.queue.writeBuffer(particleIndices, 0, new Uint32Array([0, 1, 2, 3]));
  const sort = new GpuRadixSort(device, { maxCount: particleCount, keyBits: 24 });
  sort.encode(encoder, cellHashes, particleIndices, particleCount);
  device.queue.submit([encoder.finish()]);
  expect(Array.from(new Uint32Array(await readBuffer(device, particleIndices)))).toEqual([3, 1, 0, 2]);
  sort.destroy();

  expect(await scan.scan(counts, offsets, cellCount)).toEqual({ prefix: new Uint32Array([0, 3, 3, 5, 10]), total: 11 });
  sum.destroy();
  scan.destroy();
});
