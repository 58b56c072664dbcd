import { expect } from 'vitest';
import { gpuTest, readBuffer } from '@cuttle/test-utils';
import { FluidPointRenderer, FluidSimulation, GpuFluidError, resolveParameters } from '../src/index.ts';

gpuTest('the point renderer draws particles where they are and nothing elsewhere', async ({ device }) => {
  const size = 64;
  const target = device.createTexture({ size: [size, size], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });
  const fluid = new FluidSimulation(device, { capacity: 1, parameters: resolveParameters({ bounds: { min: [-1, -1, -1], max: [1, 1, 1] } }) });
  fluid.emit(new Float32Array([0, 0, 0]));
  const renderer = new FluidPointRenderer(device, 'rgba8unorm');
  const encoder = device.createCommandEncoder();
  expect(() => { renderer.render(encoder, target.createView(), size, size, fluid, { aspect: 0 }); }).toThrow(GpuFluidError);
  renderer.render(encoder, target.createView(), size, size, fluid, { aspect: 1, radius: 0.5, clear: { r: 0, g: 0, b: 0, a: 1 } });
  const pixels = device.createBuffer({ size: size * size * 4, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC });
  encoder.copyTextureToBuffer({ texture: target }, { buffer: pixels, bytesPerRow: size * 4 }, [size, size]);
  device.queue.submit([encoder.finish()]);
  const rgba = new Uint8Array(await readBuffer(device, pixels));
  const at = (x: number, y: number): number[] => Array.from(rgba.subarray((y * size + x) * 4, (y * size + x) * 4 + 4));
  expect(at(32, 32)[2]).toBeGreaterThan(50); // the particle, at the centre, blue
  expect(at(2, 2)).toEqual([0, 0, 0, 255]); // the clear colour in the corner
  renderer.destroy();
  fluid.destroy();
});
