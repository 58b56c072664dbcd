// What levels of detail save on skinned characters: N walkers (@cuttle/gpu-skinning's procedural
// character, the sample's by default: 2,112 triangles; --rings 24 --sides 32 for the large
// project's densest, 16,896) with the levels the engine's compiler makes for them
// (buildSkinnedMeshLods), standing in a crowd at several distances from the camera, rendered by
// @cuttle/render with levels of detail (1 px of error allowed) and with the full mesh, one
// renderer, alternating. Reports the skinned indices drawn per frame (Renderer.drawnSkinnedIndices:
// vertex shader or compute raster work before any cache) and, where the GPU has timestamps, the
// median GPU time of the passes that draw characters (shadows + opaque) and of the whole frame,
// with the estimate `skinnedRaster: 'auto'` decides by (skinnedTrianglePixels: the draw's mean
// screen pixels per triangle) and the raster the draw took, to pick auto's threshold from.
// Needs a GPU (Dawn); headless, for the GPU machine (device tool, carry [".device"]):
//   bash ../shared/device/pack.sh && pnpm -s bundle:node apps/engine/bench/skinned-lods.ts .device/skinned-lods.mjs
//   there: source .device/env.sh && $NODE .device/skinned-lods.mjs [--walkers 1000] [--width 3840 --height 2160]
//     [--frames 20] [--rings 24 --sides 32] [--raster compute|hardware|auto] [--auto-pixels N]
//     [--distances 5,10,15,20,30,40,60,100] [--quick]
// --auto-pixels sets auto's threshold (RendererOptions.skinnedRasterAutoPixels; default
// SKINNED_RASTER_AUTO_PIXELS); --distances the crowd's distances in metres (default 5,15,40,100).
// --pictures DIR also writes, per distance, the middle of the frame with levels, with the full
// mesh and their difference times 8 side by side (DIR/skinned-lods-<distance>m.png), and prints
// how many pixels differ, to look at what the levels change where they switch.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { median } from '@cuttle/bench';
import { encodePng } from '@cuttle/gui';
import { buildSkinnedVertices, computePalette, createPose, createProceduralCharacter, GpuSkinning, sampleClip } from '@cuttle/gpu-skinning';
import { lookAt, perspective } from '@cuttle/gpu-culling';
import { planeMesh, Renderer, RenderScene, SKINNED_RASTER_AUTO_PIXELS, skinnedTrianglePixels, type PassName, type RenderCamera } from '@cuttle/render';
import { readTexture } from '@cuttle/test-utils/gpu-buffers';
import { requestNodeGpu } from '@cuttle/test-utils/node-gpu';
import { buildSkinnedMeshLods } from '../src/compiler/mesh-lods.ts';

const { values } = parseArgs({ options: { walkers: { type: 'string' }, width: { type: 'string' }, height: { type: 'string' }, frames: { type: 'string' }, rings: { type: 'string' }, sides: { type: 'string' }, raster: { type: 'string' }, 'auto-pixels': { type: 'string' }, distances: { type: 'string' }, quick: { type: 'boolean' }, pictures: { type: 'string' } } });
const quick = values.quick ?? Boolean(process.env.CUTTLE_BENCH_QUICK);
const walkers = Number(values.walkers ?? (quick ? 64 : 1000));
const width = Number(values.width ?? (quick ? 320 : 3840));
const height = Number(values.height ?? (quick ? 180 : 2160));
const frames = Number(values.frames ?? (quick ? 2 : 20));
const RASTERS = ['compute', 'hardware', 'auto'] as const;
const raster = (values.raster ?? 'compute') as (typeof RASTERS)[number];
if (!RASTERS.includes(raster)) throw new Error(`--raster must be ${RASTERS.join(', ')}; got ${raster}.`);
const autoPixels = Number(values['auto-pixels'] ?? SKINNED_RASTER_AUTO_PIXELS);
/** How far the crowd's middle row stands from the camera. */
const DISTANCES = (values.distances ?? '5,15,40,100').split(',').map(Number);
if (DISTANCES.some((d) => !(d > 0 && Number.isFinite(d)))) throw new Error(`--distances must be positive numbers of metres, comma-separated; got ${values.distances}.`);
const FOV = 0.9;

const gpu = await requestNodeGpu();
const device = gpu.device;
const character = createProceduralCharacter({ rings: Number(values.rings ?? 8), sides: Number(values.sides ?? 12) });
const { positions, normals, joints, weights } = character.vertices;
const jointCount = character.skeleton.jointCount;
const levels = await buildSkinnedMeshLods(character.indices, Float32Array.from(positions), Float32Array.from(normals!), Float32Array.from(joints), Float32Array.from(weights), 4, jointCount);
const { vertices } = buildSkinnedVertices(character.vertices, { format: 'packed', paletteSize: jointCount });
console.log(`adapter: ${gpu.info.summary}; ${width}x${height}; ${walkers} walkers of ${character.indices.length / 3} triangles, levels ${levels.map((l) => `${l.indices.length / 3} (error ${l.error.toFixed(4)})`).join(', ')}; ${raster} raster${raster === 'auto' ? ` (hardware above ${autoPixels} px a triangle)` : ''}`);

const skinning = new GpuSkinning(device, { maxVertices: vertices.vertexCount, maxOutputVertices: vertices.vertexCount * walkers, maxBones: jointCount * walkers, maxInstances: walkers });
const mesh = skinning.addMesh(vertices);
const instances = Array.from({ length: walkers }, () => skinning.addInstance({ mesh, palette: skinning.createPalette(jointCount) }));
const scene = new RenderScene(device);
scene.addInstance(scene.addMesh(planeMesh(800, 8)), scene.addMaterial({ baseColor: [0.6, 0.6, 0.6, 1], roughness: 0.9 }));
scene.setSun({ direction: [0.3, -1, -0.4], color: [1, 1, 1], intensity: 3 });
const draw = scene.addSkinned({ skinning, instances, indices: character.indices, material: scene.addMaterial({ baseColor: [0.8, 0.3, 0.2, 1], roughness: 0.6 }), lods: levels.map((l) => ({ indices: l.indices, error: l.error })) });

const pose = createPose(character.skeleton);
const bones = new Float32Array(jointCount * 12);
const bounds = new Float32Array(walkers * 4);
const columns = Math.ceil(Math.sqrt(walkers * 2));
/** The crowd in rows across the view, its middle row `distance` from the camera (at the origin, looking down -z). */
function placeCrowd(distance: number): void {
  const spacing = Math.max(1.2, (distance * Math.tan(FOV / 2) * 2 * (width / height) * 0.8) / columns);
  const rows = Math.ceil(walkers / columns);
  for (let k = 0; k < walkers; k++) {
    const x = ((k % columns) - (columns - 1) / 2) * spacing;
    const z = -distance + (Math.floor(k / columns) - (rows - 1) / 2) * 1.5;
    sampleClip(character.walk, k * 0.37, pose);
    skinning.writePalette(instances[k]!.palette, computePalette(character.skeleton, pose, bones, { rootTransform: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, 0, z, 1] }));
    bounds.set([x, 0.98, z, 1.26], k * 4);
  }
  scene.setSkinnedBounds(draw, bounds);
  scene.setShadowBounds([0, 1, -distance], Math.max(columns * spacing, rows * 1.5));
}

const camera: RenderCamera = { view: lookAt([0, 1.6, 0], [0, 1.2, -10]), projection: perspective({ fovY: FOV, aspect: width / height, near: 0.1, far: Infinity, reversedZ: true }) };
const renderer = new Renderer(device, { format: 'rgba8unorm', skinnedRaster: raster, skinnedRasterAutoPixels: autoPixels });
const target = device.createTexture({ size: [width, height], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });

/** Writes the middle third of both frames and their difference x8 side by side; returns the share of pixels off by more than 8 and by more than 64 of 255. */
async function writePictures(dir: string, distance: number, levels: Uint8Array, full: Uint8Array): Promise<{ over8: number; over64: number }> {
  const cw = Math.floor(width / 3), ch = Math.floor(height / 3), x0 = cw, y0 = ch;
  const picture = new Uint8Array(cw * 3 * ch * 4);
  let over8 = 0, over64 = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const off = Math.max(Math.abs(levels[i]! - full[i]!), Math.abs(levels[i + 1]! - full[i + 1]!), Math.abs(levels[i + 2]! - full[i + 2]!));
      if (off > 8) over8++;
      if (off > 64) over64++;
      if (x < x0 || x >= x0 + cw || y < y0 || y >= y0 + ch) continue;
      const o = ((y - y0) * cw * 3 + (x - x0)) * 4;
      picture.set(levels.subarray(i, i + 4), o);
      picture.set(full.subarray(i, i + 4), o + cw * 4);
      for (let c = 0; c < 3; c++) picture[o + cw * 8 + c] = Math.min(255, Math.abs(levels[i + c]! - full[i + c]!) * 8);
      picture[o + cw * 8 + 3] = 255;
    }
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `skinned-lods-${distance}m.png`), await encodePng({ width: cw * 3, height: ch, channels: 4, data: picture }));
  return { over8: over8 / (width * height), over64: over64 / (width * height) };
}
const CHARACTER_PASSES: PassName[] = ['skinning', 'shadows', 'opaque'];

async function frame(): Promise<Readonly<Partial<Record<PassName, number>>>> {
  const encoder = device.createCommandEncoder();
  renderer.render(encoder, scene, camera, { view: target.createView(), width, height });
  device.queue.submit([encoder.finish()]);
  await device.queue.onSubmittedWorkDone();
  return await renderer.readTimings();
}

console.log('| crowd at | setting | skinned indices drawn per frame | px a triangle (estimate auto reads) | raster drawn | GPU: skinning + shadows + opaque (median) | GPU: whole frame (median) |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const distance of DISTANCES) {
  placeCrowd(distance);
  const settings = [{ name: 'levels of detail (1 px)', pixels: 1 }, { name: 'full mesh', pixels: 0 }];
  const runs = settings.map(() => ({ indices: 0, pixels: 0, chosen: '', characters: [] as number[], whole: [] as number[] }));
  // Warm-up frames first (one alone with --frames 0: the counts without timings).
  for (let f = frames > 0 ? -3 : -1; f < frames; f++) {
    for (let s = 0; s < settings.length; s++) {
      renderer.lodErrorPixels = settings[s]!.pixels;
      await frame();
      const timings = await frame();
      const run = runs[s]!;
      run.indices = renderer.drawnSkinnedIndices;
      // The levels the frame chose are the draw's now: the estimate as auto made it.
      run.pixels = skinnedTrianglePixels(scene.skinned[draw]!, camera, width, height);
      run.chosen = renderer.skinnedRasterChosen[draw] ?? '';
      if (f < 0 || !gpu.hasTimestamps) continue;
      const passes = Object.entries(timings) as [PassName, number][];
      run.characters.push(passes.filter(([pass]) => CHARACTER_PASSES.includes(pass)).reduce((sum, [, ms]) => sum + ms, 0));
      run.whole.push(passes.reduce((sum, [, ms]) => sum + ms, 0));
    }
  }
  if (values.pictures) {
    renderer.lodErrorPixels = 1;
    await frame();
    const levels = await readTexture(device, target, 4);
    renderer.lodErrorPixels = 0;
    await frame();
    const full = await readTexture(device, target, 4);
    const { over8, over64 } = await writePictures(values.pictures, distance, levels, full);
    console.log(`  ${distance} m: ${(over8 * 100).toFixed(3)}% of the pixels differ by more than 8 of 255, ${(over64 * 100).toFixed(3)}% by more than 64`);
  }
  settings.forEach((setting, s) => {
    const run = runs[s]!;
    const ms = (list: number[]): string => (list.length > 0 ? `${median(list).toFixed(2)} ms` : 'no timestamps');
    console.log(`| ${distance} m | ${setting.name} | ${run.indices.toLocaleString('en-US')} | ${run.pixels.toFixed(2)} | ${run.chosen} | ${ms(run.characters)} | ${ms(run.whole)} |`);
  });
}
renderer.destroy();
skinning.destroy();
scene.destroy();
device.destroy();
process.exit(0);
