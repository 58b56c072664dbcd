// The skinning scene's glTF path without a browser: dropped bytes to a crowd character, every
// refusal with a message that says what to do, and the fit that stands any model at crowd size.
import { NodeIO } from '@gltf-transform/core';
import { describe, expect, test } from 'vitest';
import { buildSkinnedColumnGlb, buildSkinnedColumnGltf } from '@cuttle/test-utils/skinned-glb';
import { buildSkinnedVertices, computePalette, createPose, createSkinnedOutput, sampleClip, skinInstanceReference } from '@cuttle/gpu-skinning';
import type { CrowdCharacter } from '../src/scenes/gpu-skinning/crowd-character.ts';
import { CharacterLoadError } from '../src/scenes/gpu-skinning/errors.ts';
import { CROWD_FIGURE_SIZE } from '../src/scenes/gpu-skinning/fit-character.ts';
import { characterFromGltf } from '../src/scenes/gpu-skinning/gltf-character.ts';
import { readGltf } from '../src/scenes/gpu-skinning/read-gltf.ts';

async function load(bytes: Uint8Array, name = 'column.glb'): Promise<CrowdCharacter> {
  return characterFromGltf(await readGltf(bytes, name), name);
}

/** The column's GLB after `edit` changed its document. */
async function editedColumn(edit: (document: Awaited<ReturnType<NodeIO['readBinary']>>) => void): Promise<Uint8Array> {
  const io = new NodeIO();
  const document = await io.readBinary(await buildSkinnedColumnGlb());
  edit(document);
  return io.writeBinary(document);
}

async function refusal(bytes: Uint8Array, name: string): Promise<string> {
  const error: unknown = await load(bytes, name).then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(CharacterLoadError);
  return (error as CharacterLoadError).message;
}

describe('a dropped glTF character', () => {
  test('a GLB gives the skin, the walk clip, the merged indexed mesh and what was fixed', async () => {
    const character = await load(await buildSkinnedColumnGlb());
    expect(character.source).toBe('glTF');
    expect(character.skeleton.jointCount).toBe(3);
    expect(character.vertexCount).toBe(24);
    expect(character.indices).toHaveLength(3 * 6 * 2 * 3);
    expect(Math.max(...character.indices)).toBe(23);
    expect(character.clip.name).toBe('walk');
    expect(character.clip.duration).toBeCloseTo(2, 6);
    expect(character.notes).toEqual([expect.stringContaining('merged-duplicate-joints')]);
  });

  test('the fit stands the posed model on the origin at crowd size, centred', async () => {
    const character = await load(await buildSkinnedColumnGlb());
    const { skeleton, clip } = character;
    const { vertices } = buildSkinnedVertices(character.vertices, { format: 'f32', paletteSize: skeleton.jointCount });
    const pose = createPose(skeleton);
    sampleClip(clip, 0, pose);
    const palette = computePalette(skeleton, pose, new Float32Array(skeleton.jointCount * 12), { rootTransform: character.fit });
    const output = createSkinnedOutput('f32', vertices.vertexCount);
    skinInstanceReference(vertices, palette, { sourceVertex: 0, vertexCount: vertices.vertexCount, paletteOffset: 0, outputVertex: 0 }, output, 'reset');
    const axis = (k: number): number[] => Array.from({ length: vertices.vertexCount }, (_, v) => output.vertices[v * 12 + k]!);
    const [xs, ys, zs] = [axis(0), axis(1), axis(2)];
    const extent = (values: number[]): number => Math.max(...values) - Math.min(...values);
    expect(Math.min(...ys)).toBeCloseTo(0, 5);
    expect(Math.max(extent(xs), extent(ys), extent(zs))).toBeCloseTo(CROWD_FIGURE_SIZE, 5);
    expect(Math.min(...xs) + Math.max(...xs)).toBeCloseTo(0, 5);
    expect(Math.min(...zs) + Math.max(...zs)).toBeCloseTo(0, 5);
  });

  test('a .gltf with its buffer in a data: URI loads the same character', async () => {
    const fromJson = await load(await buildSkinnedColumnGltf(), 'column.gltf');
    const fromGlb = await load(await buildSkinnedColumnGlb());
    expect(fromJson.vertexCount).toBe(fromGlb.vertexCount);
    expect(Array.from(fromJson.fit)).toEqual(Array.from(fromGlb.fit));
  });

  test('refusals say what to drop instead', async () => {
    expect(await refusal(await buildSkinnedColumnGltf({ externalBuffer: 'column.bin' }), 'column.gltf')).toMatch(/external file "column\.bin".*Drop a binary glTF/);
    expect(await refusal(new TextEncoder().encode('hello, not a model'), 'notes.txt')).toMatch(/notes\.txt is neither binary glTF nor glTF JSON/);
    expect(await refusal(new TextEncoder().encode('{"scenes": []}'), 'other.json')).toMatch(/JSON but not glTF/);
    const truncated = (await buildSkinnedColumnGlb()).slice(0, 40);
    expect(await refusal(truncated, 'cut.glb')).toMatch(/cut\.glb could not be read as binary glTF/);
    expect(await refusal(await buildSkinnedColumnGlb({ animation: false }), 'still.glb')).toMatch(/still\.glb has no animation for its skeleton.*export the character with at least one animation/);
    const unskinned = await editedColumn((document) => { for (const node of document.getRoot().listNodes()) node.setSkin(null); });
    expect(await refusal(unskinned, 'static.glb')).toMatch(/static\.glb has no skinned mesh/);
    const propOnly = await editedColumn((document) => {
      const animation = document.getRoot().listAnimations()[0]!;
      for (const channel of animation.listChannels()) if (channel.getTargetNode()?.getName() !== 'unrelated prop') channel.dispose();
    });
    expect(await refusal(propOnly, 'prop.glb')).toMatch(/"walk" does not move the skin's joints/);
    const badJoints = await editedColumn((document) => {
      const joints = document.getRoot().listMeshes()[0]!.listPrimitives()[0]!.getAttribute('JOINTS_0')!;
      joints.setArray(new Uint16Array(joints.getCount() * 4).fill(7));
    });
    expect(await refusal(badJoints, 'joints.glb')).toMatch(/joints\.glb's skinned vertices were refused/);
  });
});
