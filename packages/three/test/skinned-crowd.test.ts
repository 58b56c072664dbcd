// A compute-skinned crowd drawn by three from the skinning's own output, against the same
// skinned vertices read back and drawn by three as a plain mesh: the same pixels.
import { buildSkinnedVertices, computePalette, createPose, createProceduralCharacter, GpuSkinning, sampleClip } from '@cuttle/gpu-skinning';
import { gpuTest } from '@cuttle/test-utils';
import { expect } from 'vitest';
import { BufferAttribute, BufferGeometry, Mesh, MeshStandardNodeMaterial } from 'three/webgpu';
import { deviceOf, gpuBufferOf, SkinnedCrowd, ThreeError } from '../src/index.ts';
import { litScene, nodeThree } from './three-node.ts';

const COUNT = 3;

gpuTest('three draws the crowd from the skinning\'s output: the pixels of the same vertices read back and drawn as a mesh', async ({ device }) => {
  const three = await nodeThree(device, 96, 72);
  const { skeleton, walk, vertices: arrays, indices } = createProceduralCharacter();
  const { vertices } = buildSkinnedVertices(arrays, { format: 'f32', paletteSize: skeleton.jointCount });
  const skinning = new GpuSkinning(deviceOf(three.renderer), { format: 'f32', maxVertices: vertices.vertexCount, maxOutputVertices: COUNT * vertices.vertexCount, maxBones: COUNT * skeleton.jointCount, maxInstances: COUNT });
  const mesh = skinning.addMesh(vertices);
  const crowd = Array.from({ length: COUNT }, () => skinning.addInstance({ mesh, palette: skinning.createPalette(skeleton.jointCount) }));
  const pose = createPose(skeleton);
  const bones = new Float32Array(skeleton.jointCount * 12);
  crowd.forEach((instance, i) => {
    sampleClip(walk, 0.3 + i * 0.25, pose);
    skinning.writePalette(instance.palette, computePalette(skeleton, pose, bones, { rootTransform: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, (i - 1) * 1.2, 0, 0, 1] }));
  });
  const encoder = device.createCommandEncoder();
  skinning.skin(encoder);
  device.queue.submit([encoder.finish()]);

  const scene = (): ReturnType<typeof litScene> => litScene({ fov: 45, aspect: 4 / 3, eye: [0, 1, 5], target: [0, 0.9, 0] });
  const material = (): MeshStandardNodeMaterial => new MeshStandardNodeMaterial({ color: 0xb0805a, roughness: 0.7 });
  const frames: Uint8Array[] = [];
  {
    const { scene: s, camera } = scene();
    const drawn = new SkinnedCrowd(three.renderer, skinning, crowd, indices, { material: material() });
    s.add(drawn);
    three.render(s, camera);
    frames.push(await three.read());
    expect(gpuBufferOf(three.renderer, drawn.skinned)).toBe(skinning.vertexBuffers[0]);
  }
  {
    const { scene: s, camera } = scene();
    const output = await skinning.read();
    if (output.format !== 'f32') throw new Error('the crowd was skinned in f32');
    const n = vertices.vertexCount * COUNT;
    const positions = new Float32Array(n * 3), normals = new Float32Array(n * 3);
    for (let v = 0; v < n; v++) {
      positions.set(output.vertices.subarray(v * 12, v * 12 + 3), v * 3);
      normals.set(output.vertices.subarray(v * 12 + 4, v * 12 + 7), v * 3);
    }
    const all = new Uint32Array(indices.length * COUNT);
    for (let i = 0; i < COUNT; i++) for (let k = 0; k < indices.length; k++) all[i * indices.length + k] = indices[k]! + i * vertices.vertexCount;
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(positions, 3));
    geometry.setAttribute('normal', new BufferAttribute(normals, 3));
    geometry.setIndex(new BufferAttribute(all, 1));
    s.add(new Mesh(geometry, material()));
    three.render(s, camera);
    frames.push(await three.read());
  }
  let covered = 0, differing = 0;
  for (let i = 0; i < frames[0]!.length; i += 4) {
    if (frames[1]![i]! > 30) covered++;
    if ([0, 1, 2].some((c) => Math.abs(frames[0]![i + c]! - frames[1]![i + c]!) > 2)) differing++;
  }
  expect(covered).toBeGreaterThan(300);
  expect(differing).toBeLessThanOrEqual(covered * 0.01);
  expect(() => new SkinnedCrowd(three.renderer, skinning, [crowd[0]!, crowd[2]!], indices)).toThrow(ThreeError);
  skinning.destroy();
  await three.dispose();
});
