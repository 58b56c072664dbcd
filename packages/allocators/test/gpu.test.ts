import { gpuTest, readBuffer } from '@cuttle/test-utils';
import { expect } from 'vitest';
import { AllocationArgumentError, GpuBufferAllocator, InvalidFreeError } from '../src/index.ts';

// A compute shader doubles the u32s of one storage range, read back through the GPU: proves
// the ranges the CPU-side allocator hands out are where the GPU reads and writes.
const DOUBLE = /* wgsl */ `
struct Params { count: u32, add: u32 }
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@group(0) @binding(1) var<uniform> params: Params;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  if (id.x < params.count) { data[id.x] = data[id.x] * 2u + params.add; }
}`;

gpuTest('sub-allocated storage and uniform ranges are written and read back through the GPU', async ({ device }) => {
  const storage = new GpuBufferAllocator(device, {
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC,
    bufferSize: 64 * 1024,
    name: 'storage',
  });
  const uniforms = new GpuBufferAllocator(device, { usage: GPUBufferUsage.UNIFORM, bufferSize: 4096, name: 'uniforms' });
  expect(uniforms.defaultAlign).toBe(device.limits.minUniformBufferOffsetAlignment);
  expect(storage.defaultAlign).toBe(4);

  // Fragment the storage buffer a little so the range we use does not start at 0.
  const filler = storage.allocate(100);
  const count = 1000;
  const range = storage.allocate(count * 4, storage.alignments.storageBinding);
  expect(range % storage.alignments.storageBinding).toBe(0);
  const input = Uint32Array.from({ length: count }, (_, i) => i);
  storage.write(range, input);
  const u0 = uniforms.allocate(8);
  const u1 = uniforms.allocate(8);
  expect(u1 - u0).toBe(device.limits.minUniformBufferOffsetAlignment);
  uniforms.write(u1, new Uint32Array([count, 7]));

  const module = device.createShaderModule({ code: DOUBLE });
  const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
  const bindGroup = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [
      { binding: 0, resource: storage.range(range) },
      { binding: 1, resource: uniforms.range(u1) },
    ],
  });
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bindGroup);
  pass.dispatchWorkgroups(Math.ceil(count / 64));
  pass.end();
  device.queue.submit([encoder.finish()]);

  const { buffer, offset } = storage.range(range);
  const out = new Uint32Array(await readBuffer(device, buffer, offset, count * 4));
  for (let i = 0; i < count; i++) {
    if (out[i] !== i * 2 + 7) throw new Error(`element ${i}: got ${out[i]}, expected ${i * 2 + 7}`);
  }
  // The filler in front was not touched.
  const before = new Uint32Array(await readBuffer(device, buffer, 0, 16));
  expect(Array.from(before)).toEqual([0, 0, 0, 0]);

  storage.deallocate(filler);
  storage.deallocate(range);
  uniforms.deallocate(u0);
  uniforms.deallocate(u1);
  storage.destroy();
  uniforms.destroy();
});

gpuTest('creates more GPUBuffers when full, validates requests, and leaves state alone on bad frees', async ({ device }) => {
  const gpu = new GpuBufferAllocator(device, { usage: GPUBufferUsage.STORAGE, bufferSize: 1024, maxBuffers: 2 });
  const a = gpu.allocate(1000);
  const b = gpu.allocate(1000);
  expect(gpu.gpuBuffers.length).toBe(2);
  expect(gpu.range(b)).toMatchObject({ offset: 0, size: 1008 });
  expect(gpu.range(b).buffer).toBe(gpu.gpuBuffers[1]);
  expect(gpu.tryAllocate(1000)).toBeNull();
  expect(() => gpu.allocate(2048)).toThrow(AllocationArgumentError);
  expect(() => gpu.allocate(0)).toThrow(AllocationArgumentError);
  expect(() => gpu.allocate(16, 3)).toThrow(AllocationArgumentError);
  expect(() => {
    gpu.write(a, new Uint8Array(3));
  }).toThrow(AllocationArgumentError);
  gpu.deallocate(a);
  expect(() => {
    gpu.deallocate(a);
  }).toThrow(InvalidFreeError);
  expect(() => {
    gpu.deallocate(b + 16);
  }).toThrow(InvalidFreeError);
  expect(gpu.allocationCount).toBe(1);
  expect(() => {
      gpu.destroy();
    }).toThrow(/live allocation/);
  gpu.deallocate(b);
  gpu.destroy();
  await Promise.resolve();
});
