// The README's example, run as written (with a device from Dawn).
import { expect } from 'vitest';
import { gpuTest } from '@cuttle/test-utils';
import { FluidSimulation, damBreakPositions } from '../src/index.ts';

gpuTest('README example', async ({ device }) => {
  const fluid = new FluidSimulation(device, { capacity: 10_000, parameters: { bounds: { min: [0, 0, 0], max: [20, 20, 10] } } });
  fluid.emit(damBreakPositions(10_000, fluid.parameters));

  // Every frame: record steps into your encoder, then draw from fluid.positionBuffer.
  const encoder = device.createCommandEncoder();
  fluid.step(encoder);
  device.queue.submit([encoder.finish()]);

  fluid.setParameters({ viscosity: 0.05 }); // any parameter, at run time
  fluid.mode = 'nbody'; // or 'counting-sort' (the default)
  void fluid.lost.then((info) => { console.error('GPU device lost:', info.message); });

  const { positions } = await fluid.read();
  expect(positions.length).toBe(30_000);
  expect(positions.every(Number.isFinite)).toBe(true);
  expect(fluid.positionBuffer.usage & GPUBufferUsage.VERTEX).toBe(GPUBufferUsage.VERTEX);
  fluid.destroy();
});
