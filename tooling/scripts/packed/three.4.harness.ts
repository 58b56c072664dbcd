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
const camera = new PerspectiveCamera(50, 128 / 96, 0.01, 100);
runFrames();
// ---- README example ----
assert.equal(water.count, 4096);
// Look at the low block of water the dam break made (x 0-16, z 0-20 of the default bounds), and draw it again.
camera.position.set(8, 18, 42);
camera.lookAt(8, 0, 10);
renderer.render(scene, camera);
const pixels = new Uint8Array((await renderer.readRenderTargetPixelsAsync(target, 0, 0, 128, 96)).buffer);
let wet = 0;
for (let i = 0; i < pixels.length; i += 4) if (pixels[i + 2]! > 60) wet++;
assert.ok(wet > 100, `the fluid should be drawn; ${wet} blue pixels`);
fluid.destroy();
target.dispose();
await renderer.dispose();
await finishGpu(device);
