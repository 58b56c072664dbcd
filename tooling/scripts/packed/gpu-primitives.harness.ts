import assert from 'node:assert/strict';
import { finishGpu, gpuDevice } from '../gpu.js';

const device = await gpuDevice();
const encoder = device.createCommandEncoder();
// Input the example leaves to the reader: counts per cell, and cell hashes per particle.
const cellCount = 5;
const counts = device.createBuffer({ size: 20, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
const offsets = device.createBuffer({ size: 20, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
device.queue.writeBuffer(counts, 0, new Uint32Array([3, 0, 2, 5, 1]));
const particleCount = 4;
const cellHashes = device.createBuffer({ size: 16, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC });
const particleIndices = device.createBuffer({ size: 16, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC });
device.queue.writeBuffer(cellHashes, 0, new Uint32Array([900, 12, 900, 3]));
device.queue.writeBuffer(particleIndices, 0, new Uint32Array([0, 1, 2, 3]));
// ---- README example ----
device.queue.submit([encoder.finish()]);
const readBack = device.createBuffer({ size: 16, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
const copy = device.createCommandEncoder();
copy.copyBufferToBuffer(particleIndices, 0, readBack, 0, 16);
device.queue.submit([copy.finish()]);
await readBack.mapAsync(GPUMapMode.READ);
assert.deepEqual(Array.from(new Uint32Array(readBack.getMappedRange())), [3, 1, 0, 2]);
assert.deepEqual(await scan.scan(counts, offsets, cellCount), { prefix: new Uint32Array([0, 3, 3, 5, 10]), total: 11 });
sum.destroy();
scan.destroy();
sort.destroy();
await finishGpu(device);
