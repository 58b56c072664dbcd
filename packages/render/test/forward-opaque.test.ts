// opaqueShading 'forward' (a depth prepass, then forward+) against the default deferred path:
// the same frame within the G-buffer's quantization, with characters rasterized either way,
// masked and glowing materials, motion vectors, and its passes timed.
import { expect } from 'vitest';
import { gpuTest, readTexture } from '@cuttle/test-utils';
import { buildSkinnedVertices, computePalette, createPose, createProceduralCharacter, GpuSkinning, sampleClip } from '@cuttle/gpu-skinning';
import { boxMesh, planeMesh, RenderError, RenderScene, sphereMesh } from '../src/index.ts';
import { camera, HEIGHT, newRenderer, renderFrame, translation, WIDTH } from './helpers.ts';

interface Showcase {
  scene: RenderScene;
  skinning: GpuSkinning;
  /** Moves the box and poses the character at `time`. */
  step: (time: number) => void;
}

function showcase(device: GPUDevice): Showcase {
  const scene = new RenderScene(device);
  const grey = scene.addMaterial({ baseColor: [0.6, 0.6, 0.6, 1], roughness: 0.9 });
  scene.addInstance(scene.addMesh(planeMesh(20, 4)), grey);
  const box = scene.addInstance(scene.addMesh(boxMesh(0.5, 1, 0.5)), grey, translation(0, 1, 0));
  scene.addInstance(scene.addMesh(sphereMesh(0.7)), scene.addMaterial({ baseColor: [1, 0.8, 0.3, 1], metallic: 1, roughness: 0.3 }), translation(2, 0.7, 1));
  scene.addInstance(scene.addMesh(boxMesh(0.4, 0.4, 0.4)), scene.addMaterial({ baseColor: [0.2, 0.2, 0.2, 1], emissive: [0, 0.9, 0.3] }), translation(-2.5, 0.4, 2));
  const pixels = new Uint8Array(4 * 4 * 4);
  for (let i = 0; i < 16; i++) pixels.set([200, 220, 255, i % 2 === 0 ? 255 : 0], i * 4);
  const holes = scene.addMaterial({ baseColor: [1, 1, 1, 1], baseColorTexture: scene.addTexture({ width: 4, height: 4, data: pixels }), alphaMode: 'mask', doubleSided: true });
  scene.addInstance(scene.addMesh(boxMesh(1, 1, 0.05)), holes, translation(-1.5, 1.2, -0.5));
  scene.addInstance(scene.addMesh(boxMesh(1, 1, 0.05)), scene.addMaterial({ baseColor: [1, 0.1, 0.1, 0.5], alphaMode: 'blend' }), translation(1.2, 1.5, 2.2));
  scene.setSun({ direction: [-0.4, -1, -0.3], color: [1, 0.95, 0.9], intensity: 3 });
  scene.addShadowSpot({ position: [3, 4, -2], direction: [-0.6, -1, 0.4], range: 12, outerAngle: 0.5, color: [0.3, 0.5, 1], intensity: 30 });
  for (let i = 0; i < 40; i++) scene.lights.addPointLight({ position: [Math.sin(i) * 6, 0.5, Math.cos(i * 1.3) * 6], range: 3, color: [0.5 + 0.5 * Math.sin(i), 0.5 + 0.5 * Math.cos(i), 0.6], intensity: 4 });
  const character = createProceduralCharacter();
  const joints = character.skeleton.jointCount;
  const { vertices } = buildSkinnedVertices(character.vertices, { format: 'packed', paletteSize: joints });
  const skinning = new GpuSkinning(device, { maxVertices: vertices.vertexCount, maxOutputVertices: vertices.vertexCount, maxBones: joints, maxInstances: 1 });
  const walker = skinning.addInstance({ mesh: skinning.addMesh(vertices), palette: skinning.createPalette(joints) });
  scene.addSkinned({ skinning, instances: [walker], indices: character.indices, material: scene.addMaterial({ baseColor: [0.9, 0.3, 0.2, 1], roughness: 0.6 }) });
  const pose = createPose(character.skeleton);
  const bones = new Float32Array(joints * 12);
  return {
    scene,
    skinning,
    step: (time) => {
      scene.setTransform(box, translation(time, 1, 0));
      sampleClip(character.walk, time, pose);
      skinning.writePalette(walker.palette, computePalette(character.skeleton, pose, bones, { rootTransform: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0.8, 0, 2, 1] }));
    },
  };
}

function half(h: number): number {
  return (h & 0x7fff) === 0 ? 0 : (h & 0x8000 ? -1 : 1) * 2 ** (((h >> 10) & 31) - 15) * (1 + (h & 1023) / 1024);
}

for (const skinnedRaster of ['compute', 'hardware'] as const) {
  gpuTest(`forward+ with a depth prepass draws the frame the deferred path does (characters: ${skinnedRaster})`, async ({ device }) => {
    const frames: { pixels: Uint8Array; motion: Uint16Array }[] = [];
    for (const opaqueShading of ['deferred', 'forward'] as const) {
      const { scene, skinning, step } = showcase(device);
      const renderer = newRenderer(device, { opaqueShading, skinnedRaster });
      const view = camera([4, 5, 9], [0, 0.5, 0]);
      step(0);
      await renderFrame(device, renderer, scene, view);
      step(0.2);
      const { pixels } = await renderFrame(device, renderer, scene, view);
      frames.push({ pixels, motion: new Uint16Array((await readTexture(device, renderer.targets!.motion, 8)).buffer) });
      renderer.destroy();
      skinning.destroy();
      scene.destroy();
    }
    const [deferred, forward] = frames as [(typeof frames)[0], (typeof frames)[0]];
    let total = 0, far = 0, motionOff = 0, moving = 0, lit = 0;
    for (let i = 0; i < WIDTH * HEIGHT; i++) {
      for (let c = 0; c < 3; c++) {
        const d = Math.abs(deferred.pixels[i * 4 + c]! - forward.pixels[i * 4 + c]!);
        total += d;
        if (d > 12) far++;
      }
      if (deferred.pixels[i * 4]! + deferred.pixels[i * 4 + 1]! > 60) lit++;
      const [dx, dy, fx, fy] = [deferred.motion[i * 4]!, deferred.motion[i * 4 + 1]!, forward.motion[i * 4]!, forward.motion[i * 4 + 1]!].map(half) as [number, number, number, number];
      if (Math.hypot(dx, dy) > 1e-3) moving++;
      if (Math.hypot(dx - fx, dy - fy) > 1e-3) motionOff++;
    }
    // The G-buffer rounds the normal, colour and roughness; forward lighting does not.
    expect(lit).toBeGreaterThan(WIDTH * HEIGHT * 0.4);
    expect(total / (WIDTH * HEIGHT * 3), 'mean difference per channel').toBeLessThan(0.5);
    expect(far, 'channels more than 12 levels off').toBeLessThan(WIDTH * HEIGHT * 3 * 0.002);
    expect(moving).toBeGreaterThan(200);
    expect(motionOff).toBeLessThan(WIDTH * HEIGHT * 0.002);
  });
}

gpuTest('forward+ times its prepass as depth and its shading as opaque, and runs no lighting pass', async ({ device, hasTimestamps }) => {
  const { scene, skinning, step } = showcase(device);
  step(0);
  const renderer = newRenderer(device, { opaqueShading: 'forward' });
  expect(renderer.opaqueShading).toBe('forward');
  await renderFrame(device, renderer, scene);
  const timings = await renderer.readTimings();
  if (hasTimestamps) {
    expect(timings.depth).toBeGreaterThan(0);
    expect(timings.opaque).toBeGreaterThan(0);
    expect(timings.lighting).toBe(0);
  }
  // Switched between frames: the deferred path runs its lighting pass again.
  renderer.opaqueShading = 'deferred';
  await renderFrame(device, renderer, scene);
  if (hasTimestamps) expect((await renderer.readTimings()).lighting).toBeGreaterThan(0);
  expect(() => newRenderer(device, { opaqueShading: 'tiled' as 'forward' })).toThrow(RenderError);
  expect(() => newRenderer(device, { opaqueShading: 'tiled' as 'forward' })).toThrow(/opaqueShading must be 'deferred' or 'forward'/);
  renderer.destroy();
  skinning.destroy();
  scene.destroy();
});
