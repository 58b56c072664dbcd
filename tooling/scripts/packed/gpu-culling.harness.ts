import assert from 'node:assert/strict';
import { lookAt, perspective } from '@cuttle/gpu-culling';
import { finishGpu, gpuDevice } from '../gpu.js';

const device = await gpuDevice();
// The camera and the depth prepass the example leaves to the reader: a flat depth buffer.
const view = lookAt([0, 4, 12], [0, 1, 0]);
const projection = perspective({ fovY: Math.PI / 3, aspect: 320 / 180, near: 0.1, far: 60 });
const depthTexture = device.createTexture({ size: [320, 180], format: 'depth32float', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING });
const encoder = device.createCommandEncoder();
encoder.beginRenderPass({ colorAttachments: [], depthStencilAttachment: { view: depthTexture.createView(), depthClearValue: 0.98, depthLoadOp: 'clear', depthStoreOp: 'store' } }).end();
// ---- README example ----
device.queue.submit([encoder.finish()]);
assert.match(wgsl, /fn cull_shade\(/);
const { entitiesPerTile } = await culler.read();
assert.ok(entitiesPerTile.some((n) => n > 0), 'no tile saw a light');
culler.destroy();
depthTexture.destroy();
await finishGpu(device);
