// The README's example, run as written (with a device from Dawn and an offscreen target).
import { expect } from 'vitest';
import { gpuTest, readTexture } from '@cuttle/test-utils';
import { lookAt, perspective } from '@cuttle/gpu-culling';
import { boxMesh, planeMesh, Renderer, RenderScene } from '../src/index.ts';

gpuTest('README example', async ({ device }) => {
  const view = lookAt([3, 4, 6], [0, 0.5, 0]);
  const projection = perspective({ fovY: 0.9, aspect: 640 / 360, near: 0.1, far: Infinity, reversedZ: true });
  const target = device.createTexture({ size: [640, 360], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });
  const encoder = device.createCommandEncoder();

  const scene = new RenderScene(device);
  const stone = scene.addMaterial({ baseColor: [0.6, 0.6, 0.6, 1], roughness: 0.9 });
  const glass = scene.addMaterial({ baseColor: [1, 0.1, 0.1, 0.5], alphaMode: 'blend' }); // tints its shadow red
  scene.addInstance(scene.addMesh(planeMesh(20)), stone);
  scene.addInstance(scene.addMesh(boxMesh(1, 1, 0.05)), glass, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1.5, 0, 1]);
  scene.setSun({ direction: [-0.4, -1, -0.3], color: [1, 0.95, 0.9], intensity: 3 });
  scene.lights.addPointLight({ position: [2, 0.5, 1], range: 4, color: [1, 0.5, 0.2], intensity: 5 }); // culled per tile

  const renderer = new Renderer(device, { format: 'rgba8unorm' });
  renderer.render(encoder, scene, { view, projection }, { view: target.createView(), width: 640, height: 360 });

  device.queue.submit([encoder.finish()]);
  const pixels = await readTexture(device, target, 4);
  let reddish = 0;
  for (let i = 0; i < pixels.length; i += 4) if (pixels[i]! > pixels[i + 1]! + 40) reddish++;
  expect(reddish).toBeGreaterThan(500); // the glass and its red shadow
  renderer.destroy();
  scene.destroy();
});
