import { describe, expect, test } from 'vitest';
import { gpuTest } from '@cuttle/test-utils';
import { requestNodeGpu } from '@cuttle/test-utils/node-gpu';
import { DEFAULT_PARAMETERS, FluidSimulation, GpuFluidError, createSphScratch, gridDimensions, kernelConstants, resolveParameters, sphStepReference } from '../src/index.ts';

describe('parameters', () => {
  test('defaults are the post\'s and resolve unchanged', () => {
    expect(resolveParameters()).toEqual(DEFAULT_PARAMETERS);
    expect(gridDimensions(DEFAULT_PARAMETERS)).toEqual([40, 20, 20]);
    expect(gridDimensions(resolveParameters({ h: 3 }))).toEqual([14, 7, 7]);
    expect(kernelConstants(1).poly6).toBeCloseTo(315 / (64 * Math.PI), 12);
  });

  test.each([
    [{ h: 0 }, /h must be greater than 0/],
    [{ h: -1 }, /h must be greater than 0/],
    [{ h: Number.NaN }, /h must be a finite number/],
    [{ dt: Number.POSITIVE_INFINITY }, /dt must be a finite number/],
    [{ mass: 0 }, /mass must be greater than 0/],
    [{ rho0: -2 }, /rho0/],
    [{ k: -1 }, /k must be 0 or more/],
    [{ viscosity: Number.NaN }, /viscosity/],
    [{ restitution: 1.5 }, /restitution must be in \[0, 1\]/],
    [{ gravity: [0, Number.NaN, 0] as const }, /gravity\[1\]/],
    [{ bounds: { min: [0, 0, 0], max: [1, 0, 1] } as const }, /bounds.max\[1\]/],
  ])('%o is rejected with a typed error', (changes, message) => {
    expect(() => resolveParameters(changes)).toThrow(GpuFluidError);
    expect(() => resolveParameters(changes)).toThrow(message);
  });

  test('the reference rejects bad counts and short arrays before any work', () => {
    const state = { positions: new Float32Array(6), velocities: new Float32Array(6) };
    expect(() => sphStepReference(state, 3, DEFAULT_PARAMETERS)).toThrow(/need 9 floats/);
    expect(() => sphStepReference(state, -1, DEFAULT_PARAMETERS)).toThrow(GpuFluidError);
    expect(() => sphStepReference(state, 2, { ...DEFAULT_PARAMETERS, h: 0 })).toThrow(/h must be greater than 0/);
    expect(() => sphStepReference(state, 2, DEFAULT_PARAMETERS, createSphScratch(1))).toThrow(/scratch/);
  });

  test('two particles at the same place do not divide by zero (the r > 0 guard)', () => {
    const state = { positions: new Float32Array([5, 5, 5, 5, 5, 5]), velocities: new Float32Array(6) };
    const densities = sphStepReference(state, 2, DEFAULT_PARAMETERS);
    expect(Array.from(state.positions).every(Number.isFinite)).toBe(true);
    expect(densities[0]).toBeCloseTo(2 * kernelConstants(1).poly6, 6);
  });
});

describe('FluidSimulation bad input', () => {
  gpuTest('capacity, mode, cells, emission and parameters are checked before GPU work', async ({ device }) => {
    expect(() => new FluidSimulation(device, { capacity: 0 })).toThrow(/capacity must be a positive integer/);
    const tooMany = Math.floor(device.limits.maxStorageBufferBindingSize / 16) + 1;
    expect(() => new FluidSimulation(device, { capacity: tooMany })).toThrow(/above this device's buffer limits/);
    expect(() => new FluidSimulation(device, { capacity: 10, mode: 'octree' as 'nbody' })).toThrow(/mode must be one of/);
    expect(() => new FluidSimulation(device, { capacity: 10, parameters: { h: 0 } })).toThrow(/h must be greater than 0/);
    expect(() => new FluidSimulation(device, { capacity: 10, maxCells: 10 })).toThrow(/16000 grid cells, above maxCells 10/);

    expect(() => new FluidSimulation(device, { capacity: 10, hashTableSize: 0 })).toThrow(/hashTableSize/);
    expect(() => new FluidSimulation(device, { capacity: 10, hashTableSize: 2.5 })).toThrow(GpuFluidError);
    const fluid = new FluidSimulation(device, { capacity: 4 });
    expect(() => { fluid.emit(new Float32Array(15)); }).toThrow(/above capacity 4/);
    expect(() => { fluid.emit(new Float32Array(4)); }).toThrow(/xyz triplets/);
    expect(() => { fluid.emit(new Float32Array([1, Number.NaN, 1])); }).toThrow(/non-finite/);
    expect(() => { fluid.emit(new Float32Array(3), new Float32Array(6)); }).toThrow(/as long as positions/);
    expect(() => { fluid.setParameters({ h: 0.5 }); }).toThrow(/above maxCells 16000/);
    expect(() => { fluid.setParameters({ viscosity: -1 }); }).toThrow(GpuFluidError);
    expect(fluid.parameters.h).toBe(1);
    expect(() => { fluid.mode = 'grid' as 'nbody'; }).toThrow(/mode must be one of/);
    expect(fluid.count).toBe(0);
    fluid.destroy();
    expect(() => { fluid.step(device.createCommandEncoder()); }).toThrow(/destroyed/);
    await device.queue.onSubmittedWorkDone();
  });
});

test('device loss is reported through the callback, the promise and the next step', async () => {
  const gpu = await requestNodeGpu();
  const reported: GPUDeviceLostInfo[] = [];
  const fluid = new FluidSimulation(gpu.device, { capacity: 16, onDeviceLost: (info) => reported.push(info) });
  gpu.device.destroy();
  const info = await fluid.lost;
  expect(info.reason).toBe('destroyed');
  await Promise.resolve();
  expect(reported).toHaveLength(1);
  expect(fluid.deviceLost).toBe(info);
  expect(() => { fluid.step(gpu.device.createCommandEncoder()); }).toThrow(/device was lost/);
});
