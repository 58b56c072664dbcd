// Fluid particles from @cuttle/gpu-fluid as lit sphere impostors: drawn round, blue, and in
// the depth buffer (so they hide what is behind them and culling sees them).
import { expect } from 'vitest';
import { gpuTest } from '@cuttle/test-utils';
import { damBreakPositions, FluidSimulation } from '@cuttle/gpu-fluid';
import { boxMesh } from '../src/index.ts';
import { brightness, camera, floorAndBox, HEIGHT, newRenderer, renderFrame, translation, WIDTH } from './helpers.ts';

gpuTest('a block of water is drawn as blue spheres that hide what is behind them', async ({ device }) => {
  const { scene, grey } = floorAndBox(device);
  const fluid = new FluidSimulation(device, { capacity: 800, parameters: { bounds: { min: [-2, 0, -1], max: [2, 3, 1] } } });
  fluid.emit(damBreakPositions(800, fluid.parameters));
  scene.addFluid({ fluid, color: [0.1, 0.3, 0.9], radius: 0.25 });
  const wall = scene.addMesh(boxMesh(4, 2, 0.1));
  scene.addInstance(wall, grey, translation(0, 2, -3));
  scene.setSun({ direction: [-0.3, -1, -0.5], color: [1, 1, 1], intensity: 2 });
  const renderer = newRenderer(device);
  const view = camera([0, 2, 6], [0, 1, 0]);
  const frame = await renderFrame(device, renderer, scene, view);
  let blue = 0;
  for (let i = 0; i < WIDTH * HEIGHT; i++) {
    const [r, g, b] = [frame.pixels[i * 4]!, frame.pixels[i * 4 + 1]!, frame.pixels[i * 4 + 2]!];
    if (b > r + 30 && b > g) blue++;
  }
  expect(blue).toBeGreaterThan(200);
  // The dam-break column stands in the low corner (x near -2): it hides the wall there.
  const water = frame.at([-1.6, 0.5, -0.5]);
  expect(water[2]).toBeGreaterThan(water[0] + 30);
  expect(brightness(frame.at([1.5, 2.5, -2.9]))).toBeGreaterThan(60);
  renderer.destroy();
  fluid.destroy();
  scene.destroy();
});
