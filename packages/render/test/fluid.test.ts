// Fluid particles from @cuttle/gpu-fluid as lit sphere impostors: drawn round, blue, and in
// the depth buffer (so they hide what is behind them and culling sees them).
import { expect } from 'vitest';
import { gpuTest } from '@cuttle/test-utils';
import { damBreakPositions, FluidSimulation } from '@cuttle/gpu-fluid';
import { boxMesh, RenderError, RenderScene } from '../src/index.ts';
import { lookAt, perspective } from '@cuttle/gpu-culling';
import { brightness, camera, floorAndBox, HEIGHT, newRenderer, project, renderFrame, translation, WIDTH } from './helpers.ts';

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

gpuTest('two fluids keep their own colours; a particle behind the box stays hidden; the shading pass is timed', async ({ device }) => {
  const { scene } = floorAndBox(device);
  const cluster = (x: number, z: number): Float32Array => {
    const positions = new Float32Array(27 * 3);
    for (let i = 0; i < 27; i++) positions.set([x + ((i % 3) - 1) * 0.2, 0.6 + (Math.floor(i / 3) % 3) * 0.2, z + (Math.floor(i / 9) - 1) * 0.2], i * 3);
    return positions;
  };
  const red = new FluidSimulation(device, { capacity: 64 });
  red.emit(cluster(-2, 1));
  const green = new FluidSimulation(device, { capacity: 64 });
  // Two clusters: one in the open on the right, one hidden behind the box (which stands at x 0).
  const both = new Float32Array(54 * 3);
  both.set(cluster(2, 1), 0);
  both.set(cluster(0, -1.2), 27 * 3);
  green.emit(both);
  scene.addFluid({ fluid: red, color: [0.9, 0.05, 0.05], radius: 0.15 });
  scene.addFluid({ fluid: green, color: [0.05, 0.9, 0.05], radius: 0.15 });
  scene.setSun({ direction: [-0.3, -1, -0.5], color: [1, 1, 1], intensity: 2 });
  const renderer = newRenderer(device);
  const view = camera([0, 1.2, 6], [0, 0.8, 0]);
  const frame = await renderFrame(device, renderer, scene, view);
  const left = frame.at([-2, 0.8, 1.15]);
  const right = frame.at([2, 0.8, 1.15]);
  expect(left[0]).toBeGreaterThan(left[1] + 40);
  expect(right[1]).toBeGreaterThan(right[0] + 40);
  // Straight behind the box the box's grey shows, not green.
  const behind = frame.at([0, 0.8, 0.3]);
  expect(Math.abs(behind[1] - behind[0])).toBeLessThan(20);
  const timings = await renderer.readTimings();
  if (device.features.has('timestamp-query')) expect(timings.fluid).toBeGreaterThan(0);
  renderer.destroy();
  red.destroy();
  green.destroy();
  scene.destroy();
});

gpuTest('a particle too large on screen for one invocation is splatted by a workgroup; a nearer small one still wins its pixels; either depth direction', async ({ device }) => {
  const { scene } = floorAndBox(device);
  const big = new FluidSimulation(device, { capacity: 8 });
  big.emit(new Float32Array([0, 1.2, 3]));
  const small = new FluidSimulation(device, { capacity: 8 });
  small.emit(new Float32Array([0.3, 1.3, 4]));
  scene.addFluid({ fluid: big, color: [0.05, 0.1, 0.9], radius: 0.5 });
  scene.addFluid({ fluid: small, color: [0.9, 0.05, 0.05], radius: 0.1 });
  scene.setSun({ direction: [-0.3, -1, -0.5], color: [1, 1, 1], intensity: 2 });
  const renderer = newRenderer(device);
  const counts: number[][] = [];
  for (const reversedZ of [true, false]) {
    const view = { view: lookAt([0, 1.2, 6], [0, 1.2, 0]), projection: perspective({ fovY: 0.9, aspect: WIDTH / HEIGHT, near: 0.1, far: reversedZ ? Infinity : 100, reversedZ }) };
    const frame = await renderFrame(device, renderer, scene, view);
    let blue = 0;
    let red = 0;
    for (let i = 0; i < WIDTH * HEIGHT; i++) {
      const [r, g, b] = [frame.pixels[i * 4]!, frame.pixels[i * 4 + 1]!, frame.pixels[i * 4 + 2]!];
      if (b > r + 30 && b > g + 30) blue++;
      if (r > b + 30 && r > g + 30) red++;
    }
    // The big sphere's disc is about 20 pixels across in radius (over 1,024 in its box): pi r^2.
    const radius = project(view, [0, 1.2, 3])[1] - project(view, [0, 1.7, 3])[1];
    expect(radius).toBeGreaterThan(18);
    const disc = Math.PI * radius * radius;
    expect(blue + red, `reversedZ ${reversedZ}`).toBeGreaterThan(disc * 0.85);
    expect(blue + red, `reversedZ ${reversedZ}`).toBeLessThan(disc * 1.15);
    expect(red).toBeGreaterThan(50);
    const nearer = frame.at([0.3, 1.3, 4]);
    expect(nearer[0]).toBeGreaterThan(nearer[2] + 30);
    counts.push([blue, red]);
  }
  // Both depth directions draw the same picture, within a few edge pixels.
  expect(Math.abs(counts[0]![0]! - counts[1]![0]!)).toBeLessThan(12);
  expect(Math.abs(counts[0]![1]! - counts[1]![1]!)).toBeLessThan(6);
  renderer.destroy();
  big.destroy();
  small.destroy();
  scene.destroy();
});

gpuTest('a particle in front of a moving box has no motion; the box around it keeps its own', async ({ device }) => {
  const { readTexture } = await import('@cuttle/test-utils');
  const { scene } = floorAndBox(device);
  const fluid = new FluidSimulation(device, { capacity: 8 });
  // One particle between the camera (z 6) and the box's face (z 0.25), at the box's height.
  fluid.emit(new Float32Array([0, 1, 1.5]));
  scene.addFluid({ fluid, color: [0.1, 0.3, 0.9], radius: 0.15 });
  const renderer = newRenderer(device);
  const view = camera([0, 1, 6], [0, 1, 0]);
  await renderFrame(device, renderer, scene, view);
  scene.setTransform(1, translation(0.1, 1, 0));
  await renderFrame(device, renderer, scene, view);
  const texels = new Uint16Array((await readTexture(device, renderer.targets!.motion, 8)).buffer);
  const half = (h: number): number => ((h & 0x7fff) === 0 ? 0 : (h & 0x8000 ? -1 : 1) * 2 ** (((h >> 10) & 31) - 15) * (1 + (h & 1023) / 1024));
  const motionAt = (p: [number, number, number]): number => {
    const [x, y] = project(view, p);
    return half(texels[(y * WIDTH + x) * 4]!);
  };
  expect(motionAt([0, 1, 1.5])).toBe(0);
  expect(motionAt([0.35, 1.3, 0.25])).toBeGreaterThan(0.002);
  renderer.destroy();
  fluid.destroy();
  scene.destroy();
});

gpuTest('a pass a frame does not run reads 0, not an earlier frame\'s time', async ({ device }) => {
  if (!device.features.has('timestamp-query')) return;
  const withFluid = floorAndBox(device).scene;
  const fluid = new FluidSimulation(device, { capacity: 64 });
  fluid.emit(new Float32Array([0, 1, 2, 0.5, 1, 2]));
  withFluid.addFluid({ fluid, color: [0.1, 0.3, 0.9], radius: 0.2 });
  const without = floorAndBox(device).scene;
  const renderer = newRenderer(device);
  await renderFrame(device, renderer, withFluid);
  expect((await renderer.readTimings()).fluid).toBeGreaterThan(0);
  await renderFrame(device, renderer, without);
  const timings = await renderer.readTimings();
  expect(timings.fluid).toBe(0);
  expect(timings.opaque).toBeGreaterThan(0);
  renderer.destroy();
  fluid.destroy();
  withFluid.destroy();
  without.destroy();
});

gpuTest('a scene takes at most 64 fluids: the 65th is refused and the scene keeps its 64', async ({ device }) => {
  const scene = new RenderScene(device);
  const fluid = new FluidSimulation(device, { capacity: 8 });
  for (let i = 0; i < 64; i++) scene.addFluid({ fluid });
  expect(() => scene.addFluid({ fluid })).toThrow(RenderError);
  expect(() => scene.addFluid({ fluid })).toThrow(/at most 64 fluids/);
  expect(scene.fluids.length).toBe(64);
  await device.queue.onSubmittedWorkDone();
  fluid.destroy();
  scene.destroy();
});
