import assert from 'node:assert/strict';
import { DirectionalLight, PerspectiveCamera, RenderTarget, Scene, WebGPURenderer } from 'three/webgpu';
import { finishGpu, gpuDevice, installBrowserShims, runFrames } from '../gpu.js';

const device = await gpuDevice();
installBrowserShims();
const renderer = new WebGPURenderer({ device, canvas: { width: 160, height: 90, style: {} } as unknown as HTMLCanvasElement });
await renderer.init();
const target = new RenderTarget(160, 90);
renderer.setRenderTarget(target);
const scene = new Scene();
scene.add(new DirectionalLight(0xffffff, 1));
const camera = new PerspectiveCamera(40, 160 / 90, 0.1, 100);
camera.position.set(0, 1, 4);
camera.lookAt(0, 1, 0);
runFrames();
// ---- README example ----
assert.equal(labels.labelCount, 1);
assert.equal(labels.glyphCount, 'Tower3:open'.length);
const pixels = new Uint8Array((await renderer.readRenderTargetPixelsAsync(target, 0, 0, 160, 90)).buffer);
let ink = 0;
for (let i = 0; i < pixels.length; i += 4) if (pixels[i]! > 200) ink++;
assert.ok(ink > 100, `the label should be drawn in white; ${ink} white pixels`);
labels.dispose();
target.dispose();
await renderer.dispose();
await finishGpu(device);
