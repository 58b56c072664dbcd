import { expect, test } from 'vitest';
import { gpuTest, gpuTestsSkipped, readBuffer, createBufferWithData, runInErrorScopes, sharedNodeGpu } from '../src/index.ts';

// These test gpuTest's engine itself, so they provoke WebGPU errors on purpose: they run as
// plain tests, outside the error scopes a gpuTest would add.
const engineTest = test.skipIf(gpuTestsSkipped);

engineTest('a validation error inside a GPU test body fails it with the WebGPU message', async () => {
  const gpu = await sharedNodeGpu();
  const outcome = runInErrorScopes(gpu, ({ device }) => {
    // MAP_READ may only be combined with COPY_DST: a validation error, not an exception.
    device.createBuffer({ size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.STORAGE });
    return Promise.resolve();
  });
  await expect(outcome).rejects.toThrow(/WebGPU reported errors[\s\S]*GPUValidationError/);
});

engineTest('resources created through the test device are destroyed afterwards', async () => {
  const gpu = await sharedNodeGpu();
  let kept: GPUBuffer | undefined;
  await runInErrorScopes(gpu, ({ device }) => {
    kept = device.createBuffer({ size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    return Promise.resolve();
  });
  // Mapping a destroyed buffer is rejected: proof the helper destroyed it.
  await expect(kept!.mapAsync(GPUMapMode.READ)).rejects.toThrow();
});

engineTest('when the body fails after a WebGPU error, the WebGPU error leads the report', async () => {
  const gpu = await sharedNodeGpu();
  const outcome = runInErrorScopes(gpu, ({ device }) => {
    device.createBuffer({ size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.STORAGE });
    return Promise.reject(new Error('expected 0 to be 7'));
  });
  await expect(outcome).rejects.toThrow(/GPUValidationError[\s\S]*The test body also failed: expected 0 to be 7/);
});

engineTest('a failing assertion inside the body surfaces unchanged', async () => {
  const gpu = await sharedNodeGpu();
  const outcome = runInErrorScopes(gpu, () => Promise.reject(new RangeError('the original failure')));
  await expect(outcome).rejects.toThrow(RangeError);
});

gpuTest('createBufferWithData and readBuffer round-trip bytes through the GPU', async ({ device }) => {
  const data = new Uint32Array([1, 2, 3, 0xffffffff, 5]);
  const buffer = createBufferWithData(device, data, GPUBufferUsage.COPY_SRC);
  expect(buffer.size).toBe(20);
  expect(Array.from(new Uint32Array(await readBuffer(device, buffer)))).toEqual(Array.from(data));
});

engineTest('timestamps are not rounded to 65,536 ns steps (Dawn quantizes them unless told not to)', async () => {
  const gpu = await sharedNodeGpu();
  if (!gpu.hasTimestamps) return; // an adapter without timestamp queries has nothing to round
  const { device } = gpu;
  const samples = 8;
  const querySet = device.createQuerySet({ type: 'timestamp', count: 2 * samples });
  const resolved = device.createBuffer({ size: 16 * samples, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
  const readback = device.createBuffer({ size: 16 * samples, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  const encoder = device.createCommandEncoder();
  for (let i = 0; i < samples; i++) {
    encoder.beginComputePass({ timestampWrites: { querySet, beginningOfPassWriteIndex: 2 * i, endOfPassWriteIndex: 2 * i + 1 } }).end();
  }
  encoder.resolveQuerySet(querySet, 0, 2 * samples, resolved, 0);
  encoder.copyBufferToBuffer(resolved, 0, readback, 0, 16 * samples);
  device.queue.submit([encoder.finish()]);
  await readback.mapAsync(GPUMapMode.READ);
  const stamps = new BigUint64Array(readback.getMappedRange().slice(0));
  readback.unmap();
  for (const resource of [querySet, resolved, readback]) resource.destroy();
  // Raw nanosecond stamps: the chance that 16 of them all fall on multiples of 65,536 is nil.
  expect([...stamps].some((stamp) => stamp % 65536n !== 0n)).toBe(true);
});
