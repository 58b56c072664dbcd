// The skinning scene's crowd on the GPU (Dawn in Node): built whole or not at all, and refused
// with a message that says what to change.
import { describe, expect } from 'vitest';
import { gpuTest } from '@cuttle/test-utils';
import { createAnimationClip, createSkeleton } from '@cuttle/gpu-skinning';
import { Crowd } from '../src/scenes/gpu-skinning/crowd.ts';
import { proceduralCrowdCharacter, type CrowdCharacter } from '../src/scenes/gpu-skinning/crowd-character.ts';
import { CharacterLoadError } from '../src/scenes/gpu-skinning/errors.ts';

/** A triangle skinned to the first of `joints` joints in a chain, with a clip moving the root. */
function manyJoints(joints: number): CrowdCharacter {
  const skeleton = createSkeleton({ parents: Array.from({ length: joints }, (_, i) => i - 1) });
  const clip = createAnimationClip(skeleton, [{ node: 0, path: 'translation', times: [0, 1], values: [0, 0, 0, 0, 1, 0] }], 'bob');
  return {
    name: 'chain.glb', source: 'glTF', skeleton, clip, clipRate: 1, vertexCount: 3,
    vertices: { positions: [0, 0, 0, 1, 0, 0, 0, 1, 0], joints: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], weights: [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0] },
    indices: new Uint32Array([0, 1, 2]),
    fit: new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]),
    notes: [],
  };
}

describe('the crowd', () => {
  gpuTest('walkers of the procedural character are posed and skinned', async ({ device }) => {
    const crowd = Crowd.create(device, proceduralCrowdCharacter(1.2), { count: 4, format: 'packed', kernel: 'lds', lodInterval: 4 });
    expect(crowd.instances).toHaveLength(4);
    for (let i = 0; i < 4; i++) crowd.pose(i, 0.25 * i, i, 0);
    const encoder = device.createCommandEncoder();
    crowd.skin(encoder);
    device.queue.submit([encoder.finish()]);
    expect(crowd.skinning.lastFrame.skinned).toBe(4);
    crowd.destroy();
    await device.queue.onSubmittedWorkDone();
  });

  gpuTest('more joints than the LDS kernel holds: refused on lds, built on global', ({ device }) => {
    const character = manyJoints(300);
    expect(() => Crowd.create(device, character, { count: 2, format: 'f32', kernel: 'lds', lodInterval: 4 })).toThrow(CharacterLoadError);
    expect(() => Crowd.create(device, character, { count: 2, format: 'f32', kernel: 'lds', lodInterval: 4 })).toThrow(/300 joints; the LDS kernel holds at most 256.*Set "bones from" to global/);
    const crowd = Crowd.create(device, character, { count: 2, format: 'f32', kernel: 'global', lodInterval: 4 });
    expect(crowd.skinning.palettes[0]!.boneCount).toBe(300);
    expect(() => { crowd.skinning.kernel = 'lds'; }).toThrow(/at most 256/);
    crowd.destroy();
    return Promise.resolve();
  });

  gpuTest('a crowd too big for the device is refused with what to change', ({ device }) => {
    // Output positions take 16 bytes per vertex per walker in the packed format.
    const vertexCount = 65_536;
    const count = Math.ceil(device.limits.maxStorageBufferBindingSize / (vertexCount * 16)) + 1;
    const character = { ...manyJoints(2), vertexCount, vertices: { positions: new Float32Array(vertexCount * 3), joints: new Uint16Array(vertexCount * 4), weights: Float32Array.from({ length: vertexCount * 4 }, (_, i) => (i % 4 === 0 ? 1 : 0)) } };
    expect(() => Crowd.create(device, character, { count, format: 'packed', kernel: 'lds', lodInterval: 4 })).toThrow(/walkers of chain\.glb \(65,536 vertices, 2 joints each\) do not fit:.*Choose fewer characters/);
    return Promise.resolve();
  });
});
