// Bad input to the SSAO passes: a RenderError that says what to do, thrown before anything is
// recorded or created (the encoder stays usable, no internal texture appears), state unchanged.
import { describe, expect, test } from 'vitest';
import { gpuTest, depthTexture } from '@cuttle/test-utils';
import { NormalReconstructionPass, reconstructNormalsReference, RenderError, SsaoPass, ssaoReference, type SsaoOptions } from '../src/index.ts';

import { edgeScene } from './fixtures/ssao/scene.ts';

const WIDTH = 24, HEIGHT = 16;

function storage(device: GPUDevice, format: GPUTextureFormat, width = WIDTH, height = HEIGHT, usage: GPUTextureUsageFlags = GPUTextureUsage.STORAGE_BINDING): GPUTexture {
  return device.createTexture({ size: [width, height], format, usage });
}

function withNaN(m: ArrayLike<number>, index: number): Float32Array {
  const copy = Float32Array.from(m);
  copy[index] = NaN;
  return copy;
}

describe('SSAO validation', () => {
  test('bad options throw RenderError naming the option', () => {
    const device = { createComputePipeline: () => undefined } as unknown as GPUDevice;
    const bad: [Partial<SsaoOptions>, RegExp][] = [
      [{ normals: 'fancy' as never }, /normals must be 'improved' or 'naive'/],
      [{ normals: 'improved', radius: 0 }, /radius must be a finite number > 0/],
      [{ normals: 'improved', radius: NaN }, /radius/],
      [{ normals: 'improved', samples: 0 }, /samples must be an integer in 1..64/],
      [{ normals: 'improved', samples: 65 }, /samples/],
      [{ normals: 'improved', samples: 2.5 }, /samples/],
      [{ normals: 'improved', strength: 0 }, /strength must be a finite number > 0/],
      [{ normals: 'improved', bias: -0.1 }, /bias must be a finite number >= 0/],
      [{ normals: 'improved', blur: 'yes' as never }, /blur must be true or false/],
    ];
    for (const [options, message] of bad) expect(() => new SsaoPass(device, options as SsaoOptions), JSON.stringify(options)).toThrow(message);
    expect(() => new SsaoPass(undefined as never, { normals: 'improved' })).toThrow(RenderError);
    expect(() => new SsaoPass(device, undefined as never)).toThrow(/normals/);
    expect(() => new NormalReconstructionPass(device, { method: 'smooth' as never })).toThrow(/method must be 'improved' or 'naive'/);
  });

  test('the references check their input', () => {
    const scene = edgeScene(WIDTH, HEIGHT);
    expect(() => reconstructNormalsReference(scene.depth, WIDTH + 1, HEIGHT, scene.camera, 'improved')).toThrow(/holds 384 values; a 25x16 buffer needs 400/);
    expect(() => reconstructNormalsReference(scene.depth, 0, HEIGHT, scene.camera, 'improved')).toThrow(/positive integers/);
    expect(() => reconstructNormalsReference(scene.depth, WIDTH, HEIGHT, { view: scene.camera.view, projection: withNaN(scene.camera.projection, 5) }, 'improved')).toThrow(/camera.projection must be 16 finite numbers/);
    expect(() => ssaoReference({ depth: scene.depth, width: WIDTH, height: HEIGHT, camera: scene.camera, options: { normals: 'improved', samples: 100 } })).toThrow(RenderError);
  });

  gpuTest('bad textures, cameras and timestamps throw before anything is recorded', async ({ device, hasTimestamps }) => {
    const scene = edgeScene(WIDTH, HEIGHT);
    const depth = depthTexture(device, scene.depth, WIDTH, HEIGHT);
    const output = storage(device, 'r32float');
    const normalsOut = storage(device, 'rgba16float');
    const ssao = new SsaoPass(device, { normals: 'improved' });
    const normals = new NormalReconstructionPass(device);
    const camera = scene.camera;
    const cases: [string, Partial<{ depth: unknown; output: unknown; camera: unknown; timestamps: unknown }>, RegExp][] = [
      ['depth is not a texture', { depth: {} }, /depth must be a GPUTexture/],
      ['colour texture as depth', { depth: device.createTexture({ size: [WIDTH, HEIGHT], format: 'rgba8unorm', usage: GPUTextureUsage.TEXTURE_BINDING }) }, /depth has format 'rgba8unorm'; give one of depth16unorm/],
      ['multisampled depth', { depth: device.createTexture({ size: [WIDTH, HEIGHT], format: 'depth32float', sampleCount: 4, usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING }) }, /multisampled \(4 samples\)/],
      ['depth without TEXTURE_BINDING', { depth: device.createTexture({ size: [WIDTH, HEIGHT], format: 'depth32float', usage: GPUTextureUsage.RENDER_ATTACHMENT }) }, /TEXTURE_BINDING/],
      ['output of the wrong size', { output: storage(device, 'r32float', WIDTH, HEIGHT + 1) }, /output is 24x17 but the depth buffer is 24x16/],
      ['output without STORAGE_BINDING', { output: storage(device, 'r32float', WIDTH, HEIGHT, GPUTextureUsage.TEXTURE_BINDING) }, /STORAGE_BINDING/],
      ['NaN in the view', { camera: { view: withNaN(camera.view, 12), projection: camera.projection } }, /camera.view must be 16 finite numbers/],
      ['NaN in the projection', { camera: { view: camera.view, projection: withNaN(camera.projection, 10) } }, /camera.projection must be 16 finite numbers/],
      ['a 15-number projection', { camera: { view: camera.view, projection: new Float32Array(15) } }, /camera.projection must be 16 finite numbers/],
      ['singular projection', { camera: { view: camera.view, projection: new Float32Array(16) } }, /singular/],
      ['no camera', { camera: undefined }, /camera must be \{ view, projection \}/],
      ['timestamps without a query set', { timestamps: { beginIndex: 0 } }, /timestamps.querySet must be a GPUQuerySet/],
    ];
    if (hasTimestamps) {
      const querySet = device.createQuerySet({ type: 'timestamp', count: 2 });
      cases.push(['timestamp index past the set', { timestamps: { querySet, endIndex: 2 } }, /timestamps.endIndex 2 is not an index of the query set \(0..1\)/]);
    }
    for (const [name, change, message] of cases) {
      const encoder = device.createCommandEncoder();
      expect(() => { ssao.run(encoder, { depth, camera, output, ...change } as never); }, `SsaoPass: ${name}`).toThrow(message);
      const normalsChange = 'output' in change ? { output: change.output === output ? normalsOut : storage(device, 'rgba16float', WIDTH, HEIGHT + 1) } : change;
      if (name !== 'output without STORAGE_BINDING') expect(() => { normals.run(encoder, { depth, camera, output: normalsOut, ...normalsChange } as never); }, `NormalReconstructionPass: ${name}`).toThrow(RenderError);
      // Nothing was begun: the encoder finishes and submits cleanly (gpuTest fails on any WebGPU error).
      device.queue.submit([encoder.finish()]);
    }
    // Output formats the passes do not write.
    const encoder = device.createCommandEncoder();
    expect(() => { ssao.run(encoder, { depth, camera, output: storage(device, 'rgba32float') }); }).toThrow(/output has format 'rgba32float'; give one of r32float, rgba16float, rgba8unorm/);
    expect(() => { normals.run(encoder, { depth, camera, output: storage(device, 'r32float') }); }).toThrow(/output has format 'r32float'; give one of rgba16float, rgba32float/);
    expect(() => { normals.run(encoder, { depth, camera, output: normalsOut, space: 'screen' as never }); }).toThrow(/space must be 'view' or 'world'/);
    device.queue.submit([encoder.finish()]);
    expect(ssao.normalsTexture, 'no internal texture was created').toBeUndefined();

    // Failed changes leave the pass as it was.
    expect(() => {
      ssao.normals = 'fancy' as never;
    }).toThrow(RenderError);
    expect(() => { ssao.configure({ radius: 2, samples: 0 }); }).toThrow(/samples/);
    expect(ssao.normals).toBe('improved');
    expect(ssao.options.radius).toBe(0.5);
    // The (empty) command buffers submitted above ran.
    await device.queue.onSubmittedWorkDone();
    ssao.destroy();
    normals.destroy();
  });
});
