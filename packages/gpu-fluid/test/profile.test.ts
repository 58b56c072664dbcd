import { expect } from 'vitest';
import { gpuTest } from '@cuttle/test-utils';
import { FluidSimulation, GpuFluidError, NEIGHBOUR_MODES, damBreakPositions, resolveParameters } from '../src/index.ts';

const STAGES = {
  nbody: ['density', 'forces', 'integrate'],
  'counting-sort': ['count-cells', 'scan', 'scatter', 'density', 'forces', 'integrate'],
  'hashed-grid': ['hash', 'sort', 'clear-table', 'cell-offsets', 'gather', 'density', 'forces', 'integrate'],
};

gpuTest('profile() times every stage of every mode, or says why it cannot', async ({ device, hasTimestamps }) => {
  const parameters = resolveParameters({ bounds: { min: [0, 0, 0], max: [10, 10, 10] } });
  const fluid = new FluidSimulation(device, { capacity: 2000, parameters });
  fluid.emit(damBreakPositions(2000, parameters));
  if (!hasTimestamps) {
    await expect(fluid.profile()).rejects.toThrow(/timestamp-query/);
    fluid.destroy();
    return;
  }
  await expect(fluid.profile(0)).rejects.toThrow(GpuFluidError);
  for (const mode of NEIGHBOUR_MODES) {
    fluid.mode = mode;
    const ms = await fluid.profile(2);
    expect(Object.keys(ms)).toEqual(STAGES[mode]);
    for (const value of Object.values(ms)) expect(value).toBeGreaterThanOrEqual(0);
  }
  // Whole-step timestamps through step() are accepted in every mode (begin and end in different passes).
  const querySet = device.createQuerySet({ type: 'timestamp', count: 2 });
  const encoder = device.createCommandEncoder();
  for (const mode of NEIGHBOUR_MODES) {
    fluid.mode = mode;
    fluid.step(encoder, { querySet, beginIndex: 0, endIndex: 1 });
  }
  device.queue.submit([encoder.finish()]);
  const { positions } = await fluid.read();
  expect(positions.every(Number.isFinite)).toBe(true);
  fluid.destroy();
});

gpuTest('kernels says which gpu-primitives kernels the grids run', async ({ device }) => {
  const fluid = new FluidSimulation(device, { capacity: 100, parameters: resolveParameters({ bounds: { min: [0, 0, 0], max: [10, 10, 10] } }) });
  const expected = device.features.has('subgroups') ? 'subgroups' : 'portable';
  expect(fluid.kernels).toEqual({ scan: expected, sort: expected });
  fluid.emit(damBreakPositions(100, fluid.parameters));
  const encoder = device.createCommandEncoder();
  fluid.step(encoder);
  device.queue.submit([encoder.finish()]);
  const { ids } = await fluid.read();
  expect(Array.from(ids).sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i));
  fluid.destroy();
});
