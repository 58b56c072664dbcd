// The SSAO pass on the GPU against the TypeScript reference (fed the normals the GPU
// reconstructed, so the comparison isolates the occlusion and blur kernels).
import { describe, expect } from 'vitest';
import { gpuTest } from '@cuttle/test-utils';
import { ssaoReference, type SsaoOptions } from '../src/index.ts';
import { difference, runSsao } from './fixtures/ssao/run.ts';
import { edgeScene, occlusionScene, type Projection } from './fixtures/ssao/scene.ts';

/** Rounding of the output format's channel near 1. */
const QUANTUM: Partial<Record<GPUTextureFormat, number>> = { r32float: 1e-6, rgba16float: 2 ** -11, rgba8unorm: 1 / 255 };
/**
 * A sample whose occlusion test is within f32 rounding of its threshold may go either way on
 * the GPU (1/samples of a pixel's raw AO, spread over 16 pixels by the blur): allowed on this
 * share of pixels. Measured on lavapipe: none.
 */
const FLIPPED_SHARE = 0.005;

describe('SSAO: GPU against the reference', () => {
  const cases: [string, Projection, SsaoOptions, GPUTextureFormat, GPUTextureFormat][] = [
    ['occlusion', 'reversed', { normals: 'improved' }, 'r32float', 'depth32float'],
    ['occlusion', 'perspective', { normals: 'improved', blur: false, samples: 8, radius: 0.8 }, 'rgba16float', 'depth32float'],
    ['edge', 'reversed-infinite', { normals: 'naive', samples: 32, strength: 2 }, 'r32float', 'depth24plus'],
    ['edge', 'orthographic', { normals: 'improved', bias: 0.05 }, 'rgba8unorm', 'depth24plus-stencil8'],
  ];
  for (const [name, projection, options, format, depthFormat] of cases) {
    gpuTest(`${name} scene, ${projection}, ${JSON.stringify(options)}, ${format}, ${depthFormat}`, async ({ device }) => {
      const scene = (name === 'edge' ? edgeScene : occlusionScene)(160, 100, projection);
      const run = await runSsao(device, scene, options, format, depthFormat);
      const reference = ssaoReference({ depth: run.depth, width: scene.width, height: scene.height, camera: scene.camera, options, normals: { data: run.normals, stride: 4 } });
      const quantum = QUANTUM[format]!;
      const diff = difference(run.ao, reference.ao, quantum / 2 + 1e-4);
      expect(diff.over, `share of pixels beyond rounding (${JSON.stringify(diff)})`).toBeLessThanOrEqual(FLIPPED_SHARE);
      expect(diff.mean).toBeLessThan(1e-3);
      expect(diff.max).toBeLessThan(0.25);
      // Not all white: the scenes have occlusion to get right.
      expect(reference.ao.filter((v) => v < 0.9).length).toBeGreaterThan(100);
    });
  }
});
