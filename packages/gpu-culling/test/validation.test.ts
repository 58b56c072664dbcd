// Bad input gets a GpuCullingError that says what to do, before any GPU work, and changes nothing.
import { describe, expect, test } from 'vitest';
import { gpuTest, depthTexture } from '@cuttle/test-utils';
import { boxMatrix, EntityList, GpuCullingError, lookAt, perspective, TileCuller } from '../src/index.ts';

import { makeScene, sceneCamera } from './scenes.ts';

describe('EntityList', () => {
  test('NaN positions, non-positive ranges and bad angles are refused', () => {
    const list = new EntityList();
    expect(() => list.addPointLight({ position: [0, NaN, 0], range: 1, color: [1, 1, 1] })).toThrow(/position must be three finite numbers/);
    expect(() => list.addPointLight({ position: [0, 0, 0], range: 0, color: [1, 1, 1] })).toThrow(/range must be a positive/);
    expect(() => list.addSpotLight({ position: [0, 0, 0], direction: [0, 0, 0], range: 1, outerAngle: 0.5, color: [1, 1, 1] })).toThrow(/direction/);
    expect(() => list.addSpotLight({ position: [0, 0, 0], direction: [0, -1, 0], range: 1, outerAngle: Math.PI / 2, color: [1, 1, 1] })).toThrow(/outerAngle/);
    expect(() => list.addPointLight({ position: [0, 0, 0], range: 1, color: [1, 1, 1], userData: -1 })).toThrow(/userData/);
    expect(list.count).toBe(0);
  });

  test('zero-size and non-affine boxes are refused', () => {
    const list = new EntityList();
    expect(() => list.addDecal({ matrix: boxMatrix([0, 0, 0], [1, 0, 1]) })).toThrow(/non-zero size/);
    const projective = boxMatrix([0, 0, 0], [1, 1, 1]);
    projective[3] = 0.5;
    expect(() => list.addProbe({ matrix: projective })).toThrow(/affine/);
    expect(() => list.addDecal({ matrix: [1, 2, 3] })).toThrow(/16 finite numbers/);
    expect(list.counts).toEqual({ decals: 0, probes: 0, lights: 0 });
  });

  test('packs decals, then probes, then lights, whatever the order they were added in', () => {
    const list = new EntityList();
    list.addPointLight({ position: [1, 2, 3], range: 4, color: [1, 0, 0] });
    list.addProbe({ matrix: boxMatrix([0, 0, 0], [1, 1, 1]) });
    list.addDecal({ matrix: boxMatrix([5, 0, 0], [1, 1, 1]) });
    list.addSpotLight({ position: [0, 5, 0], direction: [0, -2, 0], range: 3, outerAngle: 0.4, color: [0, 1, 0] });
    const words = list.pack();
    const floats = new Float32Array(words.buffer);
    expect(Array.from({ length: 4 }, (_, e) => words[e * 16 + 12])).toEqual([0, 1, 2, 3]);
    expect(Array.from(floats.subarray(32, 36))).toEqual([1, 2, 3, 4]);
    expect(floats[48 + 5]).toBe(-1); // the spot's direction, normalised
    expect(list.lightEntityIndex(1)).toBe(3);
    // The decal stores world-to-box: its centre (5, 0, 0) maps to the box's origin.
    expect(floats[3]).toBeCloseTo(-5);
  });

  test('sortLightsSpatially puts near lights next to each other and returns the order; reorderLights checks it', () => {
    const list = new EntityList();
    const xs = [9, 0, 5, 1, 8];
    for (const x of xs) list.addPointLight({ position: [x, 0, 0], range: 1, color: [1, 1, 1] });
    const order = list.sortLightsSpatially();
    expect(Array.from(order).map((i) => xs[i])).toEqual([0, 1, 5, 8, 9]);
    const floats = new Float32Array(list.pack().buffer);
    expect(Array.from({ length: 5 }, (_, k) => floats[k * 16])).toEqual([0, 1, 5, 8, 9]);
    expect(() => { list.reorderLights([0, 1, 2, 3, 3]); }).toThrow(/permutation/);
    expect(() => { list.reorderLights([0, 1]); }).toThrow(/5 light indices/);
  });

  test('setLightPosition moves a light and refuses lights that do not exist', () => {
    const list = new EntityList();
    list.addPointLight({ position: [0, 0, 0], range: 1, color: [1, 1, 1] });
    list.setLightPosition(0, 4, 5, 6);
    expect(Array.from(new Float32Array(list.pack().buffer).subarray(0, 3))).toEqual([4, 5, 6]);
    expect(() => { list.setLightPosition(1, 0, 0, 0); }).toThrow(/does not exist/);
    expect(() => { list.setLightPosition(0, Infinity, 0, 0); }).toThrow(/finite/);
  });
});

describe('TileCuller', () => {
  gpuTest('options out of range are refused', async ({ device }) => {
    expect(() => new TileCuller(device, { tileSize: 12 as 16 })).toThrow(GpuCullingError);
    await device.queue.onSubmittedWorkDone();
    expect(() => new TileCuller(device, { maxEntities: 0 })).toThrow(/maxEntities/);
    expect(() => new TileCuller(device, { maxEntities: 1 << 24 })).toThrow(/workgroup memory/);
    expect(() => new TileCuller(device, { technique: 'compaction', maxPerTile: 5000 })).toThrow(/maxPerTile/);
    expect(() => new TileCuller(device, { method: 'both' as 'gather' })).toThrow(/method/);
  });

  gpuTest('more entities than maxEntities: an error, and the old entities stay', async ({ device }) => {
    const culler = new TileCuller(device, { maxEntities: 32 });
    const few = new EntityList();
    few.addPointLight({ position: [0, 0, 0], range: 1, color: [1, 1, 1] });
    culler.setEntities(few);
    const many = new EntityList();
    for (let i = 0; i < 33; i++) many.addPointLight({ position: [i, 0, 0], range: 1, color: [1, 1, 1] });
    expect(() => { culler.setEntities(many); }).toThrow(/33 entities are more than maxEntities \(32\)/);
    expect(culler.entityCount).toBe(1);
    culler.destroy();
    await device.queue.onSubmittedWorkDone();
  });

  gpuTest('packed words with NaN, or kinds in the wrong order, are refused', async ({ device }) => {
    const culler = new TileCuller(device);
    const list = new EntityList();
    list.addPointLight({ position: [0, 0, 0], range: 1, color: [1, 1, 1] });
    const words = list.pack();
    new Float32Array(words.buffer)[1] = NaN;
    expect(() => { culler.setEntities({ words, counts: list.counts }); }).toThrow(/non-finite/);
    expect(() => { culler.setEntities({ words: list.pack(), counts: { decals: 1, probes: 0, lights: 0 } }); }).toThrow(/decals, then probes, then lights/);
    culler.destroy();
    await device.queue.onSubmittedWorkDone();
  });

  gpuTest('depth textures of the wrong format, usage or sample count are refused before any GPU work', async ({ device }) => {
    const culler = new TileCuller(device);
    culler.setCamera(sceneCamera(64, 64));
    const encoder = device.createCommandEncoder();
    const color = device.createTexture({ size: [64, 64], format: 'r32float', usage: GPUTextureUsage.TEXTURE_BINDING });
    expect(() => { culler.cull(encoder, color); }).toThrow(/not a depth format/);
    const noBinding = device.createTexture({ size: [64, 64], format: 'depth32float', usage: GPUTextureUsage.RENDER_ATTACHMENT });
    expect(() => { culler.cull(encoder, noBinding); }).toThrow(/TEXTURE_BINDING/);
    const multisampled = device.createTexture({ size: [64, 64], format: 'depth32float', sampleCount: 4, usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING });
    expect(() => { culler.cull(encoder, multisampled); }).toThrow(/resolve it/);
    device.queue.submit([encoder.finish()]);
    await device.queue.onSubmittedWorkDone();
    culler.destroy();
  });

  gpuTest('cull before setCamera, and a camera that is not rigid or not finite, are refused', async ({ device }) => {
    const culler = new TileCuller(device);
    const scene = makeScene({ width: 32, height: 32, seed: 1 });
    const depth = depthTexture(device, scene.depth, 32, 32);
    expect(() => { culler.cull(device.createCommandEncoder(), depth); }).toThrow(/setCamera/);
    const scaled = lookAt([0, 0, 5], [0, 0, 0]);
    for (let i = 0; i < 3; i++) scaled[i] = scaled[i]! * 2;
    expect(() => { culler.setCamera({ view: scaled, projection: perspective({ fovY: 1, aspect: 1, near: 0.1, far: 10 }) }); }).toThrow(/rigid/);
    expect(() => { culler.setCamera({ view: lookAt([0, 0, 5], [0, 0, 0]), projection: new Float32Array(16).fill(NaN) }); }).toThrow(/finite/);
    expect(culler.camera).toBeUndefined();
    culler.destroy();
    await device.queue.onSubmittedWorkDone();
  });

  gpuTest('a destroyed culler says so', async ({ device }) => {
    const culler = new TileCuller(device);
    culler.destroy();
    expect(() => { culler.setCamera(sceneCamera(8, 8)); }).toThrow(/destroyed/);
    await device.queue.onSubmittedWorkDone();
  });
});
