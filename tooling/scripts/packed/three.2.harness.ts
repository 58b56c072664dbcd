import assert from 'node:assert/strict';
import { Mesh, MeshStandardNodeMaterial, PerspectiveCamera, PlaneGeometry, RenderTarget, Scene, WebGPURenderer } from 'three/webgpu';
import { finishGpu, gpuDevice, installBrowserShims, runFrames } from '../gpu.js';

// What the example leaves to the reader: a renderer on Dawn, a floor and a camera.
const device = await gpuDevice();
installBrowserShims();
const renderer = new WebGPURenderer({ device, canvas: { width: 128, height: 96, style: {} } as unknown as HTMLCanvasElement });
await renderer.init();
const target = new RenderTarget(128, 96);
renderer.setRenderTarget(target);
const scene = new Scene();
const floor = new Mesh(new PlaneGeometry(40, 40), new MeshStandardNodeMaterial({ color: 0x808080 }));
floor.rotation.x = -Math.PI / 2;
scene.add(floor);
const camera = new PerspectiveCamera(60, 128 / 96, 0.1, 100);
camera.position.set(0, 6, 10);
camera.lookAt(0, 0, 0);
runFrames();
// ---- README example ----
assert.equal(lighting.stats.culledLights, 4096);
const pixels = new Uint8Array((await renderer.readRenderTargetPixelsAsync(target, 0, 0, 128, 96)).buffer);
let lit = 0;
for (let i = 0; i < pixels.length; i += 4) if (pixels[i]! > 40) lit++;
assert.ok(lit > 128 * 96 * 0.3, `the lights should light the floor; ${lit} lit pixels`);
lighting.dispose();
target.dispose();
await renderer.dispose();
await finishGpu(device);
