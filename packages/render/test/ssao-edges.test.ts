// The post's edge artifacts, measured: on a synthetic depth buffer with known normals (boxes and
// tilted quads floating over a floor), the share of pixels along silhouettes whose reconstructed
// normal is more than 10 degrees off, naive against improved, on the GPU; and flat interiors
// within 1 degree for both.
import { describe, expect } from 'vitest';
import { gpuTest, depthTexture } from '@cuttle/test-utils';
import { NormalReconstructionPass, reconstructNormalsReference, type NormalMethod } from '../src/index.ts';
import { readFloatTexture } from './fixtures/ssao/gpu.ts';
import { normalErrors, sceneMasks } from './fixtures/ssao/metrics.ts';
import { edgeScene, type Projection } from './fixtures/ssao/scene.ts';

const WRONG_DEGREES = 10;
const INTERIOR_DEGREES = 1;
/** The improved method's share of wrong edge pixels is at most this fraction of the naive method's. */
const IMPROVED_FRACTION = 0.2;

async function gpuWorldNormals(device: GPUDevice, depth: GPUTexture, camera: ReturnType<typeof edgeScene>['camera'], method: NormalMethod): Promise<Float32Array> {
  const pass = new NormalReconstructionPass(device, { method });
  const output = device.createTexture({ size: [depth.width, depth.height], format: 'rgba32float', usage: GPUTextureUsage.STORAGE_BINDING | GPUTextureUsage.COPY_SRC });
  const encoder = device.createCommandEncoder();
  pass.run(encoder, { depth, camera, output, space: 'world' });
  device.queue.submit([encoder.finish()]);
  const normals = (await readFloatTexture(device, output)).data;
  pass.destroy();
  return normals;
}

describe('edge artifacts of naive and improved normal reconstruction', () => {
  const cases: [Projection, number, number][] = [
    ['reversed', 320, 200],
    ['perspective', 320, 200],
    ['orthographic', 256, 160],
  ];
  for (const [projection, width, height] of cases) {
    gpuTest(`${projection} ${width}x${height}: improved has at most ${IMPROVED_FRACTION} of the naive share of edge pixels off by more than ${WRONG_DEGREES} degrees`, async ({ device }) => {
      const scene = edgeScene(width, height, projection);
      const masks = sceneMasks(scene);
      const depth = depthTexture(device, scene.depth, width, height, 'depth32float');
      const stats: Record<NormalMethod, ReturnType<typeof normalErrors>> = {} as never;
      for (const method of ['naive', 'improved'] as const) {
        const normals = await gpuWorldNormals(device, depth, scene.camera, method);
        const edge = normalErrors(scene, normals, 4, masks.edge, WRONG_DEGREES);
        const interior = normalErrors(scene, normals, 4, masks.interior, INTERIOR_DEGREES);
        const crease = normalErrors(scene, normals, 4, masks.crease, WRONG_DEGREES);
        // The reference measures the same (the GPU is not lucky or unlucky).
        const reference = reconstructNormalsReference(scene.depth, width, height, scene.camera, method, { space: 'world', tolerance: 0 });
        const referenceEdge = normalErrors(scene, reference.normals, 3, masks.edge, WRONG_DEGREES);
        expect(Math.abs(referenceEdge.over - edge.over), `${method}: GPU and reference count different wrong edge pixels`).toBeLessThanOrEqual(Math.max(2, edge.over * 0.02));
        expect(interior.pixels, 'flat interior pixels').toBeGreaterThan(width * height * 0.4);
        expect(interior.maxDegrees, `${method}: worst flat interior pixel`).toBeLessThanOrEqual(INTERIOR_DEGREES);
        expect(interior.over).toBe(0);
        stats[method] = edge;
        console.log(`${projection} ${method}: edge pixels ${edge.pixels}, > ${WRONG_DEGREES} deg: ${edge.over} (${(edge.share * 100).toFixed(2)} %); interior ${interior.pixels} px, worst ${interior.maxDegrees.toFixed(3)} deg; creases ${crease.pixels} px, > ${WRONG_DEGREES} deg: ${crease.over}`);
      }
      expect(stats.naive.pixels).toBeGreaterThan(width * height * 0.05);
      expect(stats.naive.share, 'the naive method shows the edge artifacts').toBeGreaterThan(0.05);
      expect(stats.improved.share).toBeLessThanOrEqual(stats.naive.share * IMPROVED_FRACTION);
      console.log(`${projection}: improved / naive = ${(stats.improved.share / stats.naive.share).toFixed(3)}`);
    });
  }
});
