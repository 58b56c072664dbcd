import { describe, expect } from 'vitest';
import { gpuTest } from '@cuttle/test-utils';
import { FluidSimulation, NEIGHBOUR_MODES, resolveParameters } from '../src/index.ts';
import { SCENE_PARAMETERS, compare, referenceSteps, scene } from './helpers.ts';

// f32 on the GPU against float64 in TypeScript, sums in a different order per mode: after one
// step every density, velocity and position agrees to 2e-5 relative (|d| / (1 + |ref|)), and
// after 10 steps to 2e-4.
const ONE_STEP_TOLERANCE = 2e-5;
const TEN_STEP_TOLERANCE = 2e-4;

describe.each(NEIGHBOUR_MODES)('mode %s matches the TypeScript reference', (mode) => {
  for (const count of [1000, 4099, 10_000]) {
    gpuTest(`${count} particles, one step`, async ({ device }) => {
      const parameters = resolveParameters(SCENE_PARAMETERS);
      const { positions, velocities } = scene(count, parameters);
      const fluid = new FluidSimulation(device, { capacity: count, mode, parameters });
      fluid.emit(positions, velocities);
      const encoder = device.createCommandEncoder();
      fluid.step(encoder);
      device.queue.submit([encoder.finish()]);
      const worst = compare(await fluid.read(), referenceSteps(positions, velocities, parameters, 1));
      expect(worst.densities).toBeLessThan(ONE_STEP_TOLERANCE);
      expect(worst.velocities).toBeLessThan(ONE_STEP_TOLERANCE);
      expect(worst.positions).toBeLessThan(ONE_STEP_TOLERANCE);
      fluid.destroy();
    });
  }

  gpuTest('2000 particles, ten steps in one submit', async ({ device }) => {
    const parameters = resolveParameters(SCENE_PARAMETERS);
    const { positions, velocities } = scene(2000, parameters);
    const fluid = new FluidSimulation(device, { capacity: 2000, mode, parameters });
    fluid.emit(positions, velocities);
    const encoder = device.createCommandEncoder();
    for (let s = 0; s < 10; s++) fluid.step(encoder);
    device.queue.submit([encoder.finish()]);
    const worst = compare(await fluid.read(), referenceSteps(positions, velocities, parameters, 10));
    expect(worst.positions).toBeLessThan(TEN_STEP_TOLERANCE);
    expect(worst.velocities).toBeLessThan(TEN_STEP_TOLERANCE);
    fluid.destroy();
  });
});

describe('hashed-grid with a tiny table', () => {
  gpuTest('7 entries: colliding cells, walked once each, still match the reference', async ({ device }) => {
    const parameters = resolveParameters(SCENE_PARAMETERS);
    const { positions, velocities } = scene(3000, parameters);
    const fluid = new FluidSimulation(device, { capacity: 3000, mode: 'hashed-grid', hashTableSize: 7, parameters });
    fluid.emit(positions, velocities);
    const encoder = device.createCommandEncoder();
    fluid.step(encoder);
    device.queue.submit([encoder.finish()]);
    const worst = compare(await fluid.read(), referenceSteps(positions, velocities, parameters, 1));
    expect(worst.densities).toBeLessThan(ONE_STEP_TOLERANCE);
    expect(worst.velocities).toBeLessThan(ONE_STEP_TOLERANCE);
    fluid.destroy();
  });

  gpuTest('a table larger than one clear dispatch covers is cleared by the grid-stride loop', async ({ device }) => {
    // The clear runs at most 4096 workgroups x 256 invocations = 2^20: a 2^21 table loops twice.
    const parameters = resolveParameters(SCENE_PARAMETERS);
    const { positions, velocities } = scene(1000, parameters);
    const fluid = new FluidSimulation(device, { capacity: 1000, mode: 'hashed-grid', hashTableSize: 2 ** 21, parameters });
    fluid.emit(positions, velocities);
    for (let round = 0; round < 2; round++) {
      // Two steps: the second only matches if the first step's entries were all cleared.
      const encoder = device.createCommandEncoder();
      fluid.step(encoder);
      device.queue.submit([encoder.finish()]);
    }
    const worst = compare(await fluid.read(), referenceSteps(positions, velocities, parameters, 2));
    expect(worst.densities).toBeLessThan(ONE_STEP_TOLERANCE);
    expect(worst.velocities).toBeLessThan(ONE_STEP_TOLERANCE);
    fluid.destroy();
  });
});
