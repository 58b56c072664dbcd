// Normal reconstruction on the GPU against the TypeScript reference: every projection, every
// depth format, both methods, view and world space, sizes that are not multiples of the tile.
import { describe, expect, test } from 'vitest';
import { describeAdapter, gpuTest, gpuTestsSkipped, nodeGpu, runInErrorScopes, type NodeGpu, depthTexture, readDepth } from '@cuttle/test-utils';
import { compareNormals, NormalReconstructionPass, reconstructNormalsReference, type NormalMethod } from '../src/index.ts';
import { readFloatTexture } from './fixtures/ssao/gpu.ts';
import { edgeScene, type Projection } from './fixtures/ssao/scene.ts';

/** Largest angle between a GPU normal and the reference's: f32 positions, rgba32float output. */
const TOLERANCE_DEGREES = 0.05;

async function gpuNormals(device: GPUDevice, depth: GPUTexture, scene: ReturnType<typeof edgeScene>, method: NormalMethod, space: 'view' | 'world', format: GPUTextureFormat = 'rgba32float'): Promise<Float32Array> {
  const pass = new NormalReconstructionPass(device, { method });
  const output = device.createTexture({ size: [scene.width, scene.height], format, usage: GPUTextureUsage.STORAGE_BINDING | GPUTextureUsage.COPY_SRC });
  const encoder = device.createCommandEncoder();
  pass.run(encoder, { depth, camera: scene.camera, output, space });
  device.queue.submit([encoder.finish()]);
  const result = (await readFloatTexture(device, output)).data;
  pass.destroy();
  return result;
}

describe('normal reconstruction: GPU against the reference', () => {
  const cases: [Projection, GPUTextureFormat, number, number][] = [
    ['reversed', 'depth32float', 160, 96],
    ['perspective', 'depth32float', 131, 77],
    ['reversed-infinite', 'depth24plus-stencil8', 96, 64],
    ['orthographic', 'depth24plus', 100, 60],
    ['perspective', 'depth16unorm', 64, 40],
  ];
  for (const [projection, format, width, height] of cases) {
    for (const method of ['improved', 'naive'] as const) {
      gpuTest(`${method}, ${projection}, ${format}, ${width}x${height}`, async ({ device }) => {
        const scene = edgeScene(width, height, projection);
        const depth = depthTexture(device, scene.depth, width, height, format);
        const seen = await readDepth(device, depth);
        for (const space of ['view', 'world'] as const) {
          const gpu = await gpuNormals(device, depth, scene, method, space);
          const reference = reconstructNormalsReference(seen, width, height, scene.camera, method, { space });
          const comparison = compareNormals(gpu, reference, TOLERANCE_DEGREES);
          expect(comparison.errors, space).toEqual([]);
          expect(comparison.surfacePixels).toBeGreaterThan(width * height * 0.9);
          // Ties on flat ground are common and harmless (every candidate is the same plane); ties
          // between triangles that differ must stay rare, or the comparison would prove little.
          expect(comparison.ambiguous).toBeLessThanOrEqual(comparison.surfacePixels * 0.01);
          console.log(`${method} ${projection} ${format} ${space}: max ${comparison.maxDegrees.toFixed(4)} deg, mean ${comparison.meanDegrees.toFixed(5)}, borderline ${comparison.borderline}, ambiguous ${comparison.ambiguous}`);
        }
      });
    }
  }
});

/** A device with depth32float-stencil8 (the shared test device has no optional depth features), where the adapter offers it. */
async function deviceWithDepth32Stencil8(): Promise<NodeGpu | undefined> {
  if (gpuTestsSkipped) return undefined;
  const adapter = await nodeGpu().requestAdapter();
  if (!adapter?.features.has('depth32float-stencil8')) return undefined;
  const device = await adapter.requestDevice({ requiredFeatures: ['depth32float-stencil8'] });
  return { adapter, device, info: describeAdapter(adapter), hasTimestamps: false };
}

const withStencil8 = await deviceWithDepth32Stencil8();

test.skipIf(!withStencil8)('depth32float-stencil8 (its depth aspect) on a device with the feature', async () => {
  await runInErrorScopes(withStencil8!, async ({ device }) => {
    const scene = edgeScene(72, 40, 'reversed');
    const depth = depthTexture(device, scene.depth, scene.width, scene.height, 'depth32float-stencil8');
    const seen = await readDepth(device, depth);
    for (const method of ['improved', 'naive'] as const) {
      const gpu = await gpuNormals(device, depth, scene, method, 'view', 'rgba16float');
      const comparison = compareNormals(gpu, reconstructNormalsReference(seen, scene.width, scene.height, scene.camera, method), 0.1);
      expect(comparison.errors, method).toEqual([]);
    }
  });
  withStencil8!.device.destroy();
});
