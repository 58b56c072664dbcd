// three's WebGPURenderer runs on the device our packages use, in Node on Dawn.
import { gpuTest } from '@cuttle/test-utils';
import { expect } from 'vitest';
import { BoxGeometry, DirectionalLight, Mesh, MeshStandardNodeMaterial, PerspectiveCamera, Scene } from 'three/webgpu';
import { nodeThree } from './three-node.ts';

gpuTest('three draws a lit box on our device', async ({ device }) => {
  const three = await nodeThree(device, 64, 64);
  const scene = new Scene();
  scene.add(new Mesh(new BoxGeometry(1, 1, 1), new MeshStandardNodeMaterial({ color: 0xff8040 })));
  const sun = new DirectionalLight(0xffffff, 3);
  sun.position.set(1, 2, 3);
  scene.add(sun);
  const camera = new PerspectiveCamera(50, 1, 0.1, 100);
  camera.position.set(2, 2, 3);
  camera.lookAt(0, 0, 0);
  three.render(scene, camera);
  const pixels = await three.read();
  const centre = (32 * 64 + 32) * 4;
  expect(pixels[centre]!).toBeGreaterThan(pixels[centre + 2]! + 30);
  expect((three.renderer.backend as unknown as { device: GPUDevice }).device).toBe(device);
  await three.dispose();
});
