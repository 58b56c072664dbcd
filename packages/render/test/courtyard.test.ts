// The demo's and the benchmark's courtyard: its options reach the scene, and bad ones change nothing.
import { expect } from 'vitest';
import { gpuTest } from '@cuttle/test-utils';
import { buildCourtyard, RenderError, RenderScene } from '../src/index.ts';

gpuTest('the small lights take their ranges from lightRange', async ({ device }) => {
  await Promise.resolve();
  const scene = new RenderScene(device);
  const yard = buildCourtyard(scene, { characters: 0, lights: 300, lightRange: [0.5, 1.5] });
  const packed = new Float32Array(scene.lights.pack().buffer);
  const words = packed.length / scene.lights.count;
  const ranges = Array.from({ length: 300 }, (_, i) => packed[scene.lights.lightEntityIndex(i) * words + 3]!);
  expect(scene.lights.count).toBe(300);
  expect(Math.min(...ranges)).toBeGreaterThanOrEqual(0.5);
  expect(Math.max(...ranges)).toBeLessThanOrEqual(1.5);
  // Drawn across the whole interval, not pinned to one end.
  expect(Math.max(...ranges) - Math.min(...ranges)).toBeGreaterThan(0.8);
  yard.destroy();
  scene.destroy();
});

gpuTest('a bad lightRange throws before anything is added to the scene', async ({ device }) => {
  await Promise.resolve();
  const scene = new RenderScene(device);
  for (const lightRange of [[0, 1], [2, 1], [1, Infinity], [Number.NaN, 1]] as [number, number][]) {
    expect(() => buildCourtyard(scene, { characters: 0, lights: 10, lightRange })).toThrow(RenderError);
  }
  expect(scene.lights.count).toBe(0);
  expect(scene.instanceCount).toBe(0);
  scene.destroy();
});
