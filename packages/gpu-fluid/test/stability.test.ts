import { expect } from 'vitest';
import { gpuTest } from '@cuttle/test-utils';
import { FluidSimulation, damBreakPositions, resolveParameters, type NeighbourMode } from '../src/index.ts';

const STEPS = 10_000;
// Lattice spacing 0.7 h: about 3 particles per cell, so lavapipe runs 10,000 steps in seconds.
const SPACING = 0.7;
const STEPS_PER_SUBMIT = 1000;
// Every neighbour search, each with as many particles as lavapipe runs 10,000 steps of in
// reasonable time (N-body is O(n^2)).
const CASES: readonly { mode: NeighbourMode; count: number }[] = [
  { mode: 'counting-sort', count: 1000 },
  { mode: 'hashed-grid', count: 1000 },
  { mode: 'nbody', count: 400 },
];

for (const { mode, count: COUNT } of CASES) gpuTest(`${mode}: a ${COUNT}-particle dam break stays finite and in the box for ${STEPS} steps`, async ({ device }) => {
  const parameters = resolveParameters({ bounds: { min: [0, 0, 0], max: [16, 12, 6] } });
  const fluid = new FluidSimulation(device, { capacity: COUNT, parameters, mode });
  fluid.emit(damBreakPositions(COUNT, parameters, SPACING * parameters.h));
  const startHeight = meanHeight((await fluid.read()).positions);
  for (let done = 0; done < STEPS; done += STEPS_PER_SUBMIT) {
    const encoder = device.createCommandEncoder();
    for (let s = 0; s < STEPS_PER_SUBMIT; s++) fluid.step(encoder);
    device.queue.submit([encoder.finish()]);
    await device.queue.onSubmittedWorkDone();
  }
  const { positions, velocities, densities, ids } = await fluid.read();
  const { min, max } = parameters.bounds;
  for (let i = 0; i < COUNT; i++) {
    for (let axis = 0; axis < 3; axis++) {
      const x = positions[i * 3 + axis]!;
      if (!Number.isFinite(x) || !Number.isFinite(velocities[i * 3 + axis]!)) throw new Error(`particle slot ${i} is not finite: ${x}, ${velocities[i * 3 + axis]}`);
      if (x < min[axis]! || x > max[axis]!) throw new Error(`particle slot ${i} left the box on axis ${axis}: ${x}`);
    }
    expect(Number.isFinite(densities[i]!)).toBe(true);
  }
  // Every particle is still there exactly once after 10,000 reorderings.
  expect(Array.from(ids).sort((a, b) => a - b)).toEqual(Array.from({ length: COUNT }, (_, i) => i));
  // The column collapsed: the fluid spread out and its mean height dropped.
  expect(meanHeight(positions)).toBeLessThan(startHeight);
  fluid.destroy();
}, 240_000);

function meanHeight(positions: Float32Array): number {
  let sum = 0;
  for (let i = 1; i < positions.length; i += 3) sum += positions[i]!;
  return sum / (positions.length / 3);
}
