import { describe, expect } from 'vitest';
import { gpuTest } from '@cuttle/test-utils';
import { FluidSimulation, NEIGHBOUR_MODES, resolveParameters } from '../src/index.ts';
import { SCENE_PARAMETERS, compare, referenceSteps, scene } from './helpers.ts';

// f32 on the GPU against float64 in TypeScript, sums in a different order per mode: after one
// step every density, velocity and position agrees to 2e-5 relative (|d| / (1 + |ref|)), and
// after 10 steps to 2e-4.
const ONE_STEP_TOLERANCE = 2e-5;
const TEN_STEP_TOLERANCE = 2e-4;

type RunOptions = Omit<ConstructorParameters<typeof FluidSimulation>[1], 'capacity' | 'parameters'>;

/**
 * Runs `steps` steps of the test scene with `count` particles on the GPU (`perSubmit` steps per
 * submit) and returns the worst relative deviations from the TypeScript reference.
 */
async function worstAgainstReference(device: GPUDevice, count: number, options: RunOptions, steps: number, perSubmit = steps): Promise<ReturnType<typeof compare>> {
  const parameters = resolveParameters(SCENE_PARAMETERS);
  const { positions, velocities } = scene(count, parameters);
  const fluid = new FluidSimulation(device, { ...options, capacity: count, parameters });
  try {
    fluid.emit(positions, velocities);
    for (let done = 0; done < steps; done += perSubmit) {
      const encoder = device.createCommandEncoder();
      for (let s = 0; s < perSubmit; s++) fluid.step(encoder);
      device.queue.submit([encoder.finish()]);
    }
    return compare(await fluid.read(), referenceSteps(positions, velocities, parameters, steps));
  } finally {
    fluid.destroy();
  }
}

describe.each(NEIGHBOUR_MODES)('mode %s matches the TypeScript reference', (mode) => {
  for (const count of [1000, 4099, 10_000]) {
    gpuTest(`${count} particles, one step`, async ({ device }) => {
      const worst = await worstAgainstReference(device, count, { mode }, 1);
      expect(worst.densities).toBeLessThan(ONE_STEP_TOLERANCE);
      expect(worst.velocities).toBeLessThan(ONE_STEP_TOLERANCE);
      expect(worst.positions).toBeLessThan(ONE_STEP_TOLERANCE);
    });
  }

  gpuTest('2000 particles, ten steps in one submit', async ({ device }) => {
    const worst = await worstAgainstReference(device, 2000, { mode }, 10);
    expect(worst.positions).toBeLessThan(TEN_STEP_TOLERANCE);
    expect(worst.velocities).toBeLessThan(TEN_STEP_TOLERANCE);
  });
});

describe('hashed-grid sorting with the one-sweep kernel', () => {
  gpuTest('4099 particles, one step, and 2000 particles, ten steps: match the reference', async ({ device }) => {
    const probe = new FluidSimulation(device, { capacity: 16, mode: 'hashed-grid', sortAlgorithm: 'onesweep' });
    expect(probe.kernels.sort).toBe(device.features.has('subgroups') ? 'onesweep' : 'portable');
    probe.destroy();
    const one = await worstAgainstReference(device, 4099, { mode: 'hashed-grid', sortAlgorithm: 'onesweep' }, 1);
    expect(one.densities).toBeLessThan(ONE_STEP_TOLERANCE);
    expect(one.velocities).toBeLessThan(ONE_STEP_TOLERANCE);
    expect(one.positions).toBeLessThan(ONE_STEP_TOLERANCE);
    const ten = await worstAgainstReference(device, 2000, { mode: 'hashed-grid', sortAlgorithm: 'onesweep' }, 10);
    expect(ten.positions).toBeLessThan(TEN_STEP_TOLERANCE);
    expect(ten.velocities).toBeLessThan(TEN_STEP_TOLERANCE);
  }, 180_000);
});

describe('hashed-grid with a tiny table', () => {
  gpuTest('7 entries: colliding cells, walked once each, still match the reference', async ({ device }) => {
    const worst = await worstAgainstReference(device, 3000, { mode: 'hashed-grid', hashTableSize: 7 }, 1);
    expect(worst.densities).toBeLessThan(ONE_STEP_TOLERANCE);
    expect(worst.velocities).toBeLessThan(ONE_STEP_TOLERANCE);
  });

  gpuTest('a table larger than one clear dispatch covers is cleared by the grid-stride loop', async ({ device }) => {
    // The clear runs at most 4096 workgroups x 256 invocations = 2^20: a 2^21 table loops twice.
    // Two steps in two submits: the second only matches if the first step's entries were all cleared.
    const worst = await worstAgainstReference(device, 1000, { mode: 'hashed-grid', hashTableSize: 2 ** 21 }, 2, 1);
    expect(worst.densities).toBeLessThan(ONE_STEP_TOLERANCE);
    expect(worst.velocities).toBeLessThan(ONE_STEP_TOLERANCE);
  });
});
