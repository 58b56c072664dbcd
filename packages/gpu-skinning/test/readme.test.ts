// The README's example, run as written (with a device from Dawn), then checked against the reference.
import { expect } from 'vitest';
import { gpuTest } from '@cuttle/test-utils';
import {
  GpuSkinning,
  buildSkinnedVertices,
  computePalette,
  createPose,
  createProceduralCharacter,
  createSkinnedOutput,
  sampleClip,
  skinInstanceReference,
  skinnedVertexLayouts,
} from '../src/index.ts';
import { expectMatches } from './helpers.ts';

gpuTest('README example', async ({ device }) => {
  const time = 0.25;
  const { skeleton, walk, vertices: arrays } = createProceduralCharacter(); // or skeletonFromGltf, clipFromGltf, skinnedVerticesFromGltf
  const { vertices, report } = buildSkinnedVertices(arrays, { format: 'packed', paletteSize: skeleton.jointCount });
  console.log(report.fixed); // what was renormalized, trimmed or merged on the way in

  const skinning = new GpuSkinning(device, { maxVertices: vertices.vertexCount, maxOutputVertices: 100 * vertices.vertexCount, maxBones: 100 * skeleton.jointCount, maxInstances: 100 });
  const mesh = skinning.addMesh(vertices);
  const crowd = Array.from({ length: 100 }, (_, i) => skinning.addInstance({ mesh, palette: skinning.createPalette(skeleton.jointCount), far: i >= 20 }));

  // Every frame: sample the clip, write each palette (world placement folded in), skin once.
  const pose = createPose(skeleton);
  const bones = new Float32Array(skeleton.jointCount * 12);
  for (const [i, instance] of crowd.entries()) {
    sampleClip(walk, time + i * 0.1, pose);
    skinning.writePalette(instance.palette, computePalette(skeleton, pose, bones, { rootTransform: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 2 * (i % 10), 0, 2 * Math.floor(i / 10), 1] }));
  }
  const encoder = device.createCommandEncoder();
  skinning.skin(encoder);
  // Then every pass draws skinning.vertexBuffers (layouts: skinnedVertexLayouts('packed')) with a
  // plain vertex shader: drawIndexed(count, 1, 0, instance.outputVertex).
  device.queue.submit([encoder.finish()]);

  expect(report.fixed).toEqual([]);
  expect(skinnedVertexLayouts('packed')).toHaveLength(3);
  expect(skinning.lastFrame).toMatchObject({ skinned: 100, vertices: 100 * vertices.vertexCount });
  // The last instance, checked against the reference with the same palette.
  const last = crowd[99]!;
  const reference = createSkinnedOutput('packed', last.vertexCount);
  skinInstanceReference(vertices, bones, { sourceVertex: 0, vertexCount: last.vertexCount, paletteOffset: 0, outputVertex: 0 }, reference, 'reset');
  expectMatches(await skinning.read({ firstVertex: last.outputVertex, vertexCount: last.vertexCount }), reference, last.vertexCount, 'README crowd');
});
