import assert from 'node:assert/strict';
import { finishGpu, gpuDevice } from '../gpu.js';

const device = await gpuDevice();
const target = device.createTexture({ size: [256, 64], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });
const encoder = device.createCommandEncoder();
const pass = encoder.beginRenderPass({ colorAttachments: [{ view: target.createView(), clearValue: [0, 0, 0, 1], loadOp: 'clear', storeOp: 'store' }] });
// ---- README example ----
pass.end();
const pixels = device.createBuffer({ size: 256 * 64 * 4, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
encoder.copyTextureToBuffer({ texture: target }, { buffer: pixels, bytesPerRow: 256 * 4 }, [256, 64]);
device.queue.submit([encoder.finish()]);
await pixels.mapAsync(GPUMapMode.READ);
const rgba = new Uint8Array(pixels.getMappedRange());
let lit = 0;
for (let i = 0; i < 256 * 64; i++) if (rgba[i * 4]! > 200) lit++;
assert.ok(lit > 200, `"Score 10" should be drawn in white; ${lit} bright pixels`);
assert.equal(hud.placementOf(score).count, 7);
renderer.destroy();
target.destroy();
await finishGpu(device);
