// The README's SSAO example, run as written (between the markers), on a real depth buffer.
import { expect } from 'vitest';
import { gpuTest, readTexture, depthTexture } from '@cuttle/test-utils';
import { SsaoPass } from '../src/index.ts';

import { occlusionScene } from './fixtures/ssao/scene.ts';

gpuTest('README: SSAO after the depth prepass, then the naive normals for comparison', async ({ device }) => {
  const scene = occlusionScene(160, 100);
  const [width, height] = [scene.width, scene.height];
  const depth = depthTexture(device, scene.depth, width, height);
  const { view, projection } = scene.camera;

  // README example start
  const ssao = new SsaoPass(device, { normals: 'improved', radius: 0.5 });
  const ao = device.createTexture({
    size: [width, height],
    format: 'r32float', // or rgba16float, rgba8unorm
    usage: GPUTextureUsage.STORAGE_BINDING | GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_SRC,
  });
  // Each frame, after the depth prepass (depth: depth24plus / depth32float, TEXTURE_BINDING):
  const encoder = device.createCommandEncoder();
  ssao.run(encoder, { depth, camera: { view, projection }, output: ao });
  device.queue.submit([encoder.finish()]);
  // Sample `ao` in the lighting pass: ambient *= ao (1 = open, 0 = fully occluded).
  ssao.normals = 'naive'; // the post's edge artifacts, for comparison
  // README example end

  const values = new Float32Array((await readTexture(device, ao, 4)).buffer);
  expect(Math.min(...values)).toBeLessThan(0.8);
  expect(values.filter((v) => v === 1).length).toBeGreaterThan(width * height * 0.5);
  expect(ssao.normals).toBe('naive');
  ssao.destroy();
});
