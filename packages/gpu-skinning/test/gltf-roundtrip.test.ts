// A skinned, animated glTF document (the shared column from @cuttle/test-utils), read back,
// and taken through the loader, the sampler and both skinning paths. gltf-transform's own node
// world matrices are the independent check of the palette.
import { NodeIO, type Accessor, type Node as GltfNode } from '@gltf-transform/core';
import { describe, expect, test } from 'vitest';
import { gpuTest } from '@cuttle/test-utils';
import { buildSkinnedColumnGlb, invertAffine } from '@cuttle/test-utils/skinned-glb';
import {
  clipFromGltf,
  computePalette,
  createPose,
  createSkinnedOutput,
  GpuSkinning,
  sampleClip,
  skeletonFromGltf,
  skinInstanceReference,
  skinnedVerticesFromGltf,
  type GltfAnimationInput,
  type GltfNodeInput,
  type VertexFormat,
} from '../src/index.ts';
import { bitsFloat } from '../src/codec.ts';
import { expectMatches } from './helpers.ts';

/** An accessor's array. (gltf-transform's TypedArray union names Float16Array, which the ES2022 lib lacks.) */
function arrayOf(accessor: Accessor | null): Float32Array | Uint16Array | Uint8Array {
  const array: unknown = accessor!.getArray();
  return array as Float32Array | Uint16Array | Uint8Array;
}

function multiply(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const out = new Array<number>(16).fill(0);
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) out[c * 4 + r]! += a[k * 4 + r]! * b[c * 4 + k]!;
  return out;
}

/** Reads the GLB back with gltf-transform and hands plain arrays to our loader, as an app would. */
async function load(format: VertexFormat) {
  const doc = await new NodeIO().readBinary(await buildSkinnedColumnGlb());
  const root = doc.getRoot();
  const nodes = root.listNodes();
  const index = (node: GltfNode | null): number => nodes.indexOf(node!);
  const nodeInputs: GltfNodeInput[] = nodes.map((node) => ({
    children: node.listChildren().map(index),
    translation: node.getTranslation(),
    rotation: node.getRotation(),
    scale: node.getScale(),
    name: node.getName(),
  }));
  const skin = root.listSkins()[0]!;
  const gltfSkeleton = skeletonFromGltf(nodeInputs, { joints: skin.listJoints().map(index), inverseBindMatrices: arrayOf(skin.getInverseBindMatrices()) });
  const animation = root.listAnimations()[0]!;
  const samplers = animation.listSamplers();
  const animationInput: GltfAnimationInput = {
    name: animation.getName(),
    samplers: samplers.map((s) => ({ input: arrayOf(s.getInput()), output: arrayOf(s.getOutput()), interpolation: s.getInterpolation() })),
    channels: animation.listChannels().map((c) => ({ node: index(c.getTargetNode()), path: c.getTargetPath()!, sampler: samplers.indexOf(c.getSampler()!) })),
  };
  const { clip, ignored } = clipFromGltf(animationInput, gltfSkeleton);
  const primitive = root.listMeshes()[0]!.listPrimitives()[0]!;
  const attribute = (name: string) => arrayOf(primitive.getAttribute(name));
  const { vertices, report } = skinnedVerticesFromGltf(
    { POSITION: attribute('POSITION'), NORMAL: attribute('NORMAL'), JOINTS_0: attribute('JOINTS_0'), WEIGHTS_0: attribute('WEIGHTS_0') },
    { format, paletteSize: gltfSkeleton.skeleton.jointCount },
  );
  return { doc, nodes, skinJoints: skin.listJoints(), gltfSkeleton, clip, ignored, vertices, report, positions: attribute('POSITION'), weights: attribute('WEIGHTS_0'), jointIds: attribute('JOINTS_0'), inverseBinds: arrayOf(skin.getInverseBindMatrices()) };
}

const TIMES = [0, 0.3, 0.5, 1.2, 1.7, 2];


describe('glTF round trip through @gltf-transform/core', () => {
  test('the loader keeps the armature above the joints and leaves out the unrelated channel', async () => {
    const { gltfSkeleton, clip, ignored, report } = await load('packed');
    expect(gltfSkeleton.skeleton.nodeCount).toBe(4);
    expect(gltfSkeleton.skeleton.jointCount).toBe(3);
    expect(gltfSkeleton.skeleton.names).toEqual(['armature', 'hip', 'spine', 'head']);
    expect(clip.channels).toHaveLength(3);
    expect(clip.name).toBe('walk');
    expect(ignored).toEqual([expect.stringContaining('not part of the skin')]);
    // Normalized Uint8 weights summing to 255 need no renormalizing; ring 2 lists the head joint
    // twice (its neighbour above is itself), which the builder merges and reports.
    expect(report.fixed).toEqual([expect.objectContaining({ kind: 'merged-duplicate-joints', vertices: 6, firstVertex: 12 })]);
  });

  test('sampled palettes equal gltf-transform world matrices x inverse binds', async () => {
    const { nodes, skinJoints, gltfSkeleton, clip, inverseBinds } = await load('f32');
    const { skeleton, nodeMap } = gltfSkeleton;
    const pose = createPose(skeleton);
    const palette = new Float32Array(skeleton.jointCount * 12);
    for (const time of TIMES) {
      sampleClip(clip, time, pose, { loop: false });
      computePalette(skeleton, pose, palette);
      // Put our sampled TRS on gltf-transform's nodes and let it compose the hierarchy.
      nodes.forEach((node, gltfIndex) => {
        const s = nodeMap[gltfIndex]!;
        if (s < 0) return;
        node.setTranslation(Array.from(pose.translations.subarray(s * 3, s * 3 + 3)) as [number, number, number]);
        node.setRotation(Array.from(pose.rotations.subarray(s * 4, s * 4 + 4)) as [number, number, number, number]);
        node.setScale(Array.from(pose.scales.subarray(s * 3, s * 3 + 3)) as [number, number, number]);
      });
      skinJoints.forEach((joint, j) => {
        const expected = multiply(joint.getWorldMatrix(), inverseBinds.subarray(j * 16, j * 16 + 16));
        for (let r = 0; r < 3; r++) for (let c = 0; c < 4; c++) expect(palette[j * 12 + r * 4 + c]).toBeCloseTo(expected[c * 4 + r]!, 5);
      });
    }
    // Keys are hit exactly: the spine at t = 1 is rotated 0.8 about z, the hip stepped at 1.5.
    sampleClip(clip, 1, pose);
    expect(2 * Math.atan2(pose.rotations[2 * 4 + 2]!, pose.rotations[2 * 4 + 3]!)).toBeCloseTo(0.8, 6);
    sampleClip(clip, 1.6, pose);
    expect(pose.translations[1 * 3]).toBeCloseTo(0.5, 6);
  });

  test('README: skinned positions are in glTF world space; under a scene graph that applies the mesh node, pass its inverse', async () => {
    const { doc, gltfSkeleton, clip } = await load('f32');
    const { skeleton } = gltfSkeleton;
    // Move the mesh node (glTF ignores its transform for skinning; three.js draws with it).
    const meshNode = doc.getRoot().listNodes().find((node) => node.getMesh())!;
    meshNode.setTranslation([3, -1, 2]).setRotation([0, Math.sin(0.4), 0, Math.cos(0.4)]).setScale([2, 2, 2]);
    const pose = createPose(skeleton);
    sampleClip(clip, 0.5, pose);
    const world = computePalette(skeleton, pose, new Float32Array(skeleton.jointCount * 12));
    const bones = new Float32Array(skeleton.jointCount * 12);
    const meshNodeWorld = meshNode.getWorldMatrix();
    computePalette(skeleton, pose, bones, { rootTransform: invertAffine(meshNodeWorld) }); // the README's line
    // The scene graph applies meshNodeWorld on top: the same as the world-space palette, once.
    for (let j = 0; j < skeleton.jointCount; j++) {
      const bone = [0, 1, 2, 3].flatMap((c) => [bones[j * 12 + c]!, bones[j * 12 + 4 + c]!, bones[j * 12 + 8 + c]!, c === 3 ? 1 : 0]);
      const drawn = multiply(meshNodeWorld, bone);
      for (let r = 0; r < 3; r++) for (let c = 0; c < 4; c++) expect(drawn[c * 4 + r]).toBeCloseTo(world[j * 12 + r * 4 + c]!, 4);
    }
  });
});

describe.each(['packed', 'f32'] as const)('glTF round trip, %s vertices', (format) => {
  gpuTest('GPU skinning of the loaded mesh matches the reference and the glTF-side skinning', async ({ device }) => {
    const { gltfSkeleton, clip, vertices, positions, weights, jointIds, skinJoints, inverseBinds, nodes } = await load(format);
    const { skeleton, nodeMap } = gltfSkeleton;
    const count = vertices.vertexCount;
    for (const kernel of ['lds', 'global'] as const) {
      const skinning = new GpuSkinning(device, { format, kernel, maxVertices: count, maxOutputVertices: count, maxBones: skeleton.jointCount });
      const mesh = skinning.addMesh(vertices);
      const paletteHandle = skinning.createPalette(skeleton.jointCount);
      skinning.addInstance({ mesh, palette: paletteHandle });
      const pose = createPose(skeleton);
      const palette = new Float32Array(skeleton.jointCount * 12);
      const reference = createSkinnedOutput(format, count);
      for (const [frame, time] of TIMES.entries()) {
        sampleClip(clip, time, pose);
        computePalette(skeleton, pose, palette);
        skinning.writePalette(paletteHandle, palette);
        const encoder = device.createCommandEncoder();
        skinning.skin(encoder);
        device.queue.submit([encoder.finish()]);
        skinInstanceReference(vertices, palette, { sourceVertex: 0, vertexCount: count, paletteOffset: 0, outputVertex: 0 }, reference, frame === 0 ? 'reset' : 'skin');
        const gpu = await skinning.read();
        expectMatches(gpu, reference, count, `${kernel} at t = ${time}`);
        // Independent: skin the glTF accessors with gltf-transform's world matrices.
        nodes.forEach((node, gltfIndex) => {
          const s = nodeMap[gltfIndex]!;
          if (s < 0) return;
          node.setTranslation(Array.from(pose.translations.subarray(s * 3, s * 3 + 3)) as [number, number, number]);
          node.setRotation(Array.from(pose.rotations.subarray(s * 4, s * 4 + 4)) as [number, number, number, number]);
          node.setScale(Array.from(pose.scales.subarray(s * 3, s * 3 + 3)) as [number, number, number]);
        });
        const bones = skinJoints.map((joint, j) => multiply(joint.getWorldMatrix(), inverseBinds.subarray(j * 16, j * 16 + 16)));
        for (let v = 0; v < count; v++) {
          const expected = [0, 0, 0];
          for (let i = 0; i < 4; i++) {
            const w = weights[v * 4 + i]! / 255;
            const m = bones[jointIds[v * 4 + i]!]!;
            for (let r = 0; r < 3; r++) expected[r]! += w * (m[r]! * positions[v * 3]! + m[4 + r]! * positions[v * 3 + 1]! + m[8 + r]! * positions[v * 3 + 2]! + m[12 + r]!);
          }
          const got = gpu.format === 'packed' ? [0, 1, 2].map((c) => bitsFloat(gpu.positionNormal[v * 4 + c]!)) : Array.from(gpu.vertices.subarray(v * 12, v * 12 + 3));
          for (let r = 0; r < 3; r++) expect(got[r]).toBeCloseTo(expected[r]!, 4);
        }
      }
      skinning.destroy();
    }
  });
});
