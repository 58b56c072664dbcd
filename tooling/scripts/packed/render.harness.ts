import assert from 'node:assert/strict';
import { lookAt, perspective } from '@cuttle/gpu-culling';
import { finishGpu, gpuDevice } from '../gpu.js';

const device = await gpuDevice();
// The camera, encoder and offscreen target the example leaves to the reader.
const view = lookAt([3, 4, 6], [0, 0.5, 0]);
const projection = perspective({ fovY: 0.9, aspect: 640 / 360, near: 0.1, far: Infinity, reversedZ: true });
const target = device.createTexture({ size: [640, 360], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });
const encoder = device.createCommandEncoder();
// ---- README example ----
const readback = device.createBuffer({ size: 640 * 4 * 360, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
encoder.copyTextureToBuffer({ texture: target }, { buffer: readback, bytesPerRow: 640 * 4 }, [640, 360]);
device.queue.submit([encoder.finish()]);
await readback.mapAsync(GPUMapMode.READ);
const pixels = new Uint8Array(readback.getMappedRange());
let reddish = 0;
for (let i = 0; i < pixels.length; i += 4) if (pixels[i]! > pixels[i + 1]! + 40) reddish++;
assert.ok(reddish > 500, `the red glass and its shadow: ${reddish} reddish pixels`);
readback.unmap();
renderer.destroy();
scene.destroy();
target.destroy();
await finishGpu(device);
