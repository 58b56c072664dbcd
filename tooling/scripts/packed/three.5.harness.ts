import assert from 'node:assert/strict';
import { DirectionalLight, PerspectiveCamera, RenderTarget, Scene, WebGPURenderer } from 'three/webgpu';
import { finishGpu, gpuDevice, installBrowserShims, runFrames } from '../gpu.js';

const device = await gpuDevice();
installBrowserShims();
const renderer = new WebGPURenderer({ device, canvas: { width: 128, height: 96, style: {} } as unknown as HTMLCanvasElement });
await renderer.init();
const target = new RenderTarget(128, 96);
renderer.setRenderTarget(target);
const scene = new Scene();
scene.add(new DirectionalLight(0xffffff, 3));
const camera = new PerspectiveCamera(50, 128 / 96, 0.1, 100);
camera.position.set(0, 3, 8);
camera.lookAt(0, 0.9, 0);
runFrames();
// ---- README example ----
const pixels = new Uint8Array((await renderer.readRenderTargetPixelsAsync(target, 0, 0, 128, 96)).buffer);
let drawn = 0;
for (let i = 0; i < pixels.length; i += 4) if (pixels[i]! + pixels[i + 1]! + pixels[i + 2]! > 30) drawn++;
assert.ok(drawn > 300, `the 16 walkers should be drawn; ${drawn} pixels`);
skinning.destroy();
target.dispose();
await renderer.dispose();
await finishGpu(device);
