// The README's example, run as written (with a device from Dawn).
import { expect } from 'vitest';
import { gpuTest } from '@cuttle/test-utils';
import { GpuReduce } from '../src/index.ts';

gpuTest('README example', async ({ device }) => {
  const values = new Float32Array([1.5, 2.5, -1, 4]);
  const input = device.createBuffer({ size: values.byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(input, 0, values);

  const sum = new GpuReduce(device, { op: 'sum', type: 'f32' });
  expect(await sum.reduce(input, values.length)).toBe(7);

  const encoder = device.createCommandEncoder();
  sum.encode(encoder, input, values.length);
  device.queue.submit([encoder.finish()]);
  sum.destroy();
});
