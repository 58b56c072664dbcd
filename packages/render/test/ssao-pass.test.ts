// The SsaoPass as a user drives it: the normal method and options change between runs, one pass
// serves depth buffers of any size one after another, blur on and off, timestamps.
import { describe, expect } from 'vitest';
import { gpuTest, readBuffer, depthTexture, readDepth } from '@cuttle/test-utils';
import { ssaoReference, SsaoPass, type SsaoOptions } from '../src/index.ts';
import { firstChannel, readFloatTexture } from './fixtures/ssao/gpu.ts';
import { difference } from './fixtures/ssao/run.ts';
import { edgeScene, occlusionScene, type SyntheticScene } from './fixtures/ssao/scene.ts';

async function runOn(device: GPUDevice, ssao: SsaoPass, scene: SyntheticScene, depth = depthTexture(device, scene.depth, scene.width, scene.height)): Promise<Float32Array> {
  const output = device.createTexture({ size: [scene.width, scene.height], format: 'r32float', usage: GPUTextureUsage.STORAGE_BINDING | GPUTextureUsage.COPY_SRC });
  const encoder = device.createCommandEncoder();
  ssao.run(encoder, { depth, camera: scene.camera, output });
  device.queue.submit([encoder.finish()]);
  return firstChannel(await readFloatTexture(device, output));
}

describe('SsaoPass', () => {
  gpuTest('normals and options change between runs, as if the pass had been made with them', async ({ device }) => {
    const scene = edgeScene(96, 64);
    const depth = depthTexture(device, scene.depth, scene.width, scene.height);
    const ssao = new SsaoPass(device, { normals: 'improved' });
    const improved = await runOn(device, ssao, scene, depth);
    ssao.normals = 'naive';
    const naive = await runOn(device, ssao, scene, depth);
    ssao.configure({ radius: 1, samples: 24, blur: false });
    const changed = await runOn(device, ssao, scene, depth);
    const fresh = async (options: SsaoOptions): Promise<Float32Array> => {
      const pass = new SsaoPass(device, options);
      const ao = await runOn(device, pass, scene, depth);
      pass.destroy();
      return ao;
    };
    expect(naive).toEqual(await fresh({ normals: 'naive' }));
    expect(changed).toEqual(await fresh({ normals: 'naive', radius: 1, samples: 24, blur: false }));
    expect(difference(improved, naive, 0.05).over).toBeGreaterThan(0.005);
    expect(ssao.options).toEqual({ normals: 'naive', radius: 1, samples: 24, strength: 1, bias: 0.025, blur: false });
    ssao.destroy();
  });

  gpuTest('one pass serves any size, one after another (1x1 to not a multiple of 8)', async ({ device }) => {
    const ssao = new SsaoPass(device, { normals: 'improved', radius: 0.6 });
    for (const [width, height] of [[130, 70], [1, 1], [7, 5], [9, 17], [130, 70]] as const) {
      const scene = occlusionScene(width, height);
      const depth = depthTexture(device, scene.depth, width, height);
      const ao = await runOn(device, ssao, scene, depth);
      const reference = ssaoReference({ depth: await readDepth(device, depth), width, height, camera: scene.camera, options: ssao.options });
      // The reference reconstructs its own normals here (f64, not the GPU's f16 ones): a little more slack.
      const diff = difference(ao, reference.ao, 0.02);
      expect(diff.over, `${width}x${height}`).toBeLessThanOrEqual(0.01);
      expect(ssao.normalsTexture!.width).toBe(width);
    }
    ssao.destroy();
  });

  gpuTest('timestamps bracket the pass where the adapter has them', async ({ device, hasTimestamps }) => {
    const scene = edgeScene(64, 48);
    const depth = depthTexture(device, scene.depth, scene.width, scene.height);
    const output = device.createTexture({ size: [scene.width, scene.height], format: 'rgba16float', usage: GPUTextureUsage.STORAGE_BINDING });
    const ssao = new SsaoPass(device, { normals: 'improved' });
    const encoder = device.createCommandEncoder();
    if (!hasTimestamps) {
      // Without the feature no query set can exist; the pass still runs without one.
      ssao.run(encoder, { depth, camera: scene.camera, output });
      device.queue.submit([encoder.finish()]);
      return;
    }
    const querySet = device.createQuerySet({ type: 'timestamp', count: 2 });
    const resolve = device.createBuffer({ size: 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
    ssao.run(encoder, { depth, camera: scene.camera, output, timestamps: { querySet, beginIndex: 0, endIndex: 1 } });
    encoder.resolveQuerySet(querySet, 0, 2, resolve, 0);
    device.queue.submit([encoder.finish()]);
    const [begin, end] = new BigUint64Array(await readBuffer(device, resolve));
    expect(end! >= begin!).toBe(true);
    ssao.destroy();
  });
});
