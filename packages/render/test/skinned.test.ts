// Skinned characters from @cuttle/gpu-skinning in the frame: drawn lit, casting a shadow, and
// writing motion vectors from the previous positions the skinning pass kept.
import { expect } from 'vitest';
import { gpuTest, readTexture } from '@cuttle/test-utils';
import { buildSkinnedVertices, computePalette, createPose, createProceduralCharacter, GpuSkinning, sampleClip } from '@cuttle/gpu-skinning';
import { brightness, camera, floorAndBox, HEIGHT, newRenderer, project, renderFrame, WIDTH } from './helpers.ts';

gpuTest('a walking character is drawn, shadowed and moving', async ({ device }) => {
  const { scene } = floorAndBox(device);
  scene.setSun({ direction: [0.3, -1, 0.2], color: [1, 1, 1], intensity: 3 });
  const character = createProceduralCharacter();
  const { vertices } = buildSkinnedVertices(character.vertices, { format: 'packed', paletteSize: character.skeleton.jointCount });
  const skinning = new GpuSkinning(device, { maxVertices: vertices.vertexCount, maxOutputVertices: vertices.vertexCount, maxBones: character.skeleton.jointCount, maxInstances: 1 });
  const instance = skinning.addInstance({ mesh: skinning.addMesh(vertices), palette: skinning.createPalette(character.skeleton.jointCount) });
  const red = scene.addMaterial({ baseColor: [0.9, 0.15, 0.1, 1], roughness: 0.6 });
  scene.addSkinned({ skinning, instances: [instance], indices: character.indices, material: red });
  const pose = createPose(character.skeleton);
  const bones = new Float32Array(character.skeleton.jointCount * 12);
  const place = (time: number): void => {
    sampleClip(character.walk, time, pose);
    skinning.writePalette(instance.palette, computePalette(character.skeleton, pose, bones, { rootTransform: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 2.5, 0, 1, 1] }));
  };
  const renderer = newRenderer(device);
  const view = camera([2.5, 1.5, 5], [2.5, 0.9, 1]);
  place(0);
  const still = await renderFrame(device, renderer, scene, view);
  place(0.25);
  const moved = await renderFrame(device, renderer, scene, view);
  // Somewhere on the character the pixel is red.
  let reddest = 0;
  for (let y = 0; y < HEIGHT; y++) for (let x = 0; x < WIDTH; x++) {
    const o = (y * WIDTH + x) * 4;
    reddest = Math.max(reddest, moved.pixels[o]! - Math.max(moved.pixels[o + 1]!, moved.pixels[o + 2]!));
  }
  expect(reddest).toBeGreaterThan(60);
  // Its shadow darkens the floor beside its feet (the sun leans towards +x, +z).
  const [sx, sy] = project(view, [2.5 + 0.45, 0, 1 + 0.3]);
  const shadow = moved.pixels.subarray((sy * WIDTH + sx) * 4, (sy * WIDTH + sx) * 4 + 3);
  expect(brightness(Array.from(shadow))).toBeLessThan(brightness(moved.at([3.5, 0, 2.5])) * 0.8);
  expect(still.pixels).not.toEqual(moved.pixels);
  // Motion vectors: the walk moved some pixels of the character.
  const motion = new Uint16Array((await readTexture(device, renderer.targets!.motion, 8)).buffer);
  let moving = 0;
  for (let i = 0; i < WIDTH * HEIGHT; i++) if ((motion[i * 4]! & 0x7fff) > 0x1400 || (motion[i * 4 + 1]! & 0x7fff) > 0x1400) moving++;
  expect(moving).toBeGreaterThan(20);
  renderer.destroy();
  skinning.destroy();
  scene.destroy();
});

gpuTest('the characters of one skinned draw each stand where their palette puts them (one draw for the group)', async ({ device }) => {
  const { scene } = floorAndBox(device);
  // The sun behind the camera, so the characters' fronts are lit.
  scene.setSun({ direction: [0.3, -1, -0.6], color: [1, 1, 1], intensity: 3 });
  const character = createProceduralCharacter();
  const { vertices } = buildSkinnedVertices(character.vertices, { format: 'packed', paletteSize: character.skeleton.jointCount });
  const joints = character.skeleton.jointCount;
  const skinning = new GpuSkinning(device, { maxVertices: vertices.vertexCount, maxOutputVertices: vertices.vertexCount * 3, maxBones: joints * 3, maxInstances: 3 });
  const mesh = skinning.addMesh(vertices);
  const instances = [0, 1, 2].map(() => skinning.addInstance({ mesh, palette: skinning.createPalette(joints) }));
  const red = scene.addMaterial({ baseColor: [0.9, 0.15, 0.1, 1], roughness: 0.6 });
  scene.addSkinned({ skinning, instances, indices: character.indices, material: red });
  const pose = createPose(character.skeleton);
  const bones = new Float32Array(joints * 12);
  sampleClip(character.walk, 0, pose);
  const xs = [-2.5, 0, 2.5];
  instances.forEach((instance, k) => {
    skinning.writePalette(instance.palette, computePalette(character.skeleton, pose, bones, { rootTransform: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, xs[k]!, 0, 1.5, 1] }));
  });
  const renderer = newRenderer(device);
  const frame = await renderFrame(device, renderer, scene, camera([0, 1.5, 7], [0, 1, 1.5]));
  // Each character's chest is red, and the floor between them is not.
  for (const x of xs) {
    const [r, g, b] = frame.at([x, 1.3, 1.5]);
    expect(r - Math.max(g, b), `character at x ${x}`).toBeGreaterThan(40);
  }
  const [r, g, b] = frame.at([-1.25, 0.02, 1.5]);
  expect(r - Math.max(g, b)).toBeLessThan(30);
  renderer.destroy();
  skinning.destroy();
  scene.destroy();
});

gpuTest('a single-sided character culls its back faces and looks the same as a double-sided one', async ({ device }) => {
  const frames: Uint8Array[] = [];
  for (const doubleSided of [false, true]) {
    const { scene } = floorAndBox(device);
    scene.setSun({ direction: [0.3, -1, 0.2], color: [1, 1, 1], intensity: 3 });
    const character = createProceduralCharacter();
    const joints = character.skeleton.jointCount;
    const { vertices } = buildSkinnedVertices(character.vertices, { format: 'packed', paletteSize: joints });
    const skinning = new GpuSkinning(device, { maxVertices: vertices.vertexCount, maxOutputVertices: vertices.vertexCount, maxBones: joints, maxInstances: 1 });
    const instance = skinning.addInstance({ mesh: skinning.addMesh(vertices), palette: skinning.createPalette(joints) });
    const red = scene.addMaterial({ baseColor: [0.9, 0.15, 0.1, 1], roughness: 0.6, doubleSided });
    scene.addSkinned({ skinning, instances: [instance], indices: character.indices, material: red });
    const pose = createPose(character.skeleton);
    sampleClip(character.walk, 0.3, pose);
    skinning.writePalette(instance.palette, computePalette(character.skeleton, pose, new Float32Array(joints * 12), { rootTransform: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0.8, 0, 1, 1] }));
    const renderer = newRenderer(device);
    frames.push((await renderFrame(device, renderer, scene, camera([1.5, 1.5, 4], [0.8, 0.9, 1]))).pixels);
    renderer.destroy();
    skinning.destroy();
    scene.destroy();
  }
  // Wound the wrong way, the near faces would be culled and the inside shown: thousands of pixels off.
  let differing = 0;
  for (let i = 0; i < WIDTH * HEIGHT; i++) {
    if (Math.max(...[0, 1, 2].map((c) => Math.abs(frames[0]![i * 4 + c]! - frames[1]![i * 4 + c]!))) > 10) differing++;
  }
  expect(differing).toBeLessThan(5);
});
