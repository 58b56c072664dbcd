// Levels of detail of skinned characters: each instance draws, per frame, the coarsest level
// whose error covers at most `lodErrorPixels` at the nearest point of the bounding sphere it was
// given, in every pass (G-buffer, forward, shadows, the compute raster); without bounds, or at
// 0 px, the full mesh. Bad levels and bad bounds are refused and change nothing.
import { describe, expect } from 'vitest';
import { gpuTest } from '@cuttle/test-utils';
import { buildSkinnedVertices, computePalette, createPose, createProceduralCharacter, GpuSkinning, sampleClip, type SkinnedInstance } from '@cuttle/gpu-skinning';
import { RenderError, type MeshLodInput, type RenderCamera, type RenderScene } from '../src/index.ts';
import { brightness, camera, floorAndBox, HEIGHT, newRenderer, project, renderFrame, WIDTH } from './helpers.ts';

const RINGS = 17;
const SIDES = 32;
/** The widest tube of the procedural character (its chest). */
const WIDEST = 0.19;

/**
 * The character's tubes over every `step`-th ring and side (and the caps fanned to those), over
 * the same vertices; its error: how far the full tubes' vertices lie from the coarser polygons
 * (the chord's sagitta of the widest tube), with half again for the posed blend between rings.
 */
function coarser(step: number): MeshLodInput {
  const perTube = RINGS * SIDES + 2;
  const out: number[] = [];
  for (let tube = 0; tube < 11; tube++) {
    const first = tube * perTube;
    const sides: number[] = [];
    for (let s = 0; s < SIDES; s += step) sides.push(s);
    for (let r = step; r < RINGS; r += step) {
      sides.forEach((s, k) => {
        const next = sides[(k + 1) % sides.length]!;
        const a0 = first + (r - step) * SIDES + s, a1 = first + (r - step) * SIDES + next;
        const b0 = first + r * SIDES + s, b1 = first + r * SIDES + next;
        out.push(a0, a1, b0, a1, b1, b0);
      });
    }
    const caps = [first + RINGS * SIDES, first + RINGS * SIDES + 1];
    sides.forEach((s, k) => {
      const next = sides[(k + 1) % sides.length]!;
      out.push(caps[0]!, first + next, first + s);
      out.push(caps[1]!, first + (RINGS - 1) * SIDES + s, first + (RINGS - 1) * SIDES + next);
    });
  }
  return { indices: Uint32Array.from(out), error: 1.5 * WIDEST * (1 - Math.cos((Math.PI * step) / SIDES)) };
}

interface Crowd {
  skinning: GpuSkinning;
  instances: SkinnedInstance[];
  indices: Uint32Array;
  lods: MeshLodInput[];
  /** Places instance k standing at (x, 0, z), mid-stride. */
  place(k: number, x: number, z: number): void;
}

function crowd(device: GPUDevice, count: number): Crowd {
  const character = createProceduralCharacter({ rings: RINGS, sides: SIDES });
  const joints = character.skeleton.jointCount;
  const { vertices } = buildSkinnedVertices(character.vertices, { format: 'packed', paletteSize: joints });
  const skinning = new GpuSkinning(device, { maxVertices: vertices.vertexCount, maxOutputVertices: vertices.vertexCount * count, maxBones: joints * count, maxInstances: count });
  const mesh = skinning.addMesh(vertices);
  const instances = Array.from({ length: count }, () => skinning.addInstance({ mesh, palette: skinning.createPalette(joints) }));
  const pose = createPose(character.skeleton);
  sampleClip(character.walk, 0.3, pose);
  const bones = new Float32Array(joints * 12);
  return {
    skinning, instances, indices: character.indices, lods: [coarser(2), coarser(4)],
    place(k, x, z) {
      skinning.writePalette(instances[k]!.palette, computePalette(character.skeleton, pose, bones, { rootTransform: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, 0, z, 1] }));
    },
  };
}

/** The bounding sphere of a character standing at (x, 0, z): around its 1.9-unit height and 1.44-unit arm span. */
const sphereAt = (x: number, z: number): Float32Array => Float32Array.of(x, 0.97, z, 1.05);
/** Pixels per unit at distance 1 (the helpers' camera: fovY 0.9). */
const PIXELS_PER_UNIT = HEIGHT / 2 / Math.tan(0.45);

describe('skinned levels of detail', () => {
  for (const skinnedRaster of ['hardware', 'compute'] as const) {
    gpuTest(`each instance draws the coarsest level its distance allows (${skinnedRaster} raster)`, async ({ device }) => {
      const { scene } = floorAndBox(device);
      scene.setSun({ direction: [0.3, -1, 0.2], color: [1, 1, 1], intensity: 3 });
      const c = crowd(device, 1);
      c.place(0, 0, 0);
      const red = scene.addMaterial({ baseColor: [0.9, 0.15, 0.1, 1], roughness: 0.6 });
      const draw = scene.addSkinned({ skinning: c.skinning, instances: c.instances, indices: c.indices, material: red, lods: c.lods });
      const renderer = newRenderer(device, { skinnedRaster });
      const [full, half, quarter] = [c.indices.length, c.lods[0]!.indices.length, c.lods[1]!.indices.length];
      const drawnFrom = async (eyeZ: number): Promise<number> => {
        await renderFrame(device, renderer, scene, camera([0, 0.97, eyeZ], [0, 0.97, 0]));
        return renderer.drawnSkinnedIndices;
      };
      // No bounds given: the full mesh at any distance.
      expect(await drawnFrom(20)).toBe(full);
      scene.setSkinnedBounds(draw, sphereAt(0, 0));
      // Level 1 shows 1 px at 0.68 units, level 2 at 2.7 (beyond the sphere's 1.05).
      expect((c.lods[0]!.error * PIXELS_PER_UNIT) / 0.68).toBeLessThan(1.01);
      expect(await drawnFrom(1.5)).toBe(full);
      expect(await drawnFrom(3)).toBe(half);
      expect(await drawnFrom(20)).toBe(quarter);
      renderer.lodErrorPixels = 0;
      expect(await drawnFrom(20)).toBe(full);
      renderer.lodErrorPixels = 1;
      // Orthographic: the error's size on screen does not change with distance.
      // Reversed Z: view depth 0 at 1, 100 at 0.
      const ortho = (scale: number): RenderCamera => ({
        view: camera([0, 0.97, 20], [0, 0.97, 0]).view,
        projection: Float32Array.of(scale / (WIDTH / HEIGHT), 0, 0, 0, 0, scale, 0, 0, 0, 0, 1 / 100, 0, 0, 0, 1, 1),
      });
      // HEIGHT / 2 * scale pixels a unit: scale 2 shows level 2's 0.022 units as 2.6 px and level
      // 1's 0.0055 as 0.66 px; scale 0.25 shows level 2's as 0.33 px.
      await renderFrame(device, renderer, scene, ortho(2));
      expect(renderer.drawnSkinnedIndices).toBe(half);
      await renderFrame(device, renderer, scene, ortho(0.25));
      expect(renderer.drawnSkinnedIndices).toBe(quarter);
      renderer.destroy();
      c.skinning.destroy();
      scene.destroy();
    });
  }

  gpuTest('two instances of one draw each take their own level; the drawn count adds them', async ({ device }) => {
    const { scene } = floorAndBox(device);
    const c = crowd(device, 2);
    c.place(0, 0, 0);
    c.place(1, 0, -30);
    const red = scene.addMaterial({ baseColor: [0.9, 0.15, 0.1, 1] });
    const bounds = new Float32Array(8);
    bounds.set(sphereAt(0, 0), 0);
    bounds.set(sphereAt(0, -30), 4);
    scene.addSkinned({ skinning: c.skinning, instances: c.instances, indices: c.indices, material: red, lods: c.lods, bounds });
    const renderer = newRenderer(device);
    await renderFrame(device, renderer, scene, camera([0, 0.97, 1.5], [0, 0.97, -10]));
    expect(renderer.drawnSkinnedIndices).toBe(c.indices.length + c.lods[1]!.indices.length);
    expect(Array.from(scene.skinned[0]!.levels)).toEqual([0, 2]);
    // Skinned 20x its mesh's size (meshRadius 0.0525 against bounds of 1.05), its errors show 20x larger.
    const scaled = scene.addSkinned({ skinning: c.skinning, instances: [c.instances[1]!], indices: c.indices, material: red, lods: c.lods, bounds: sphereAt(0, -30), meshRadius: 0.0525 });
    await renderFrame(device, renderer, scene, camera([0, 0.97, 1.5], [0, 0.97, -10]));
    expect(scene.skinned[scaled]!.levels[0]).toBe(1);
    renderer.destroy();
    c.skinning.destroy();
    scene.destroy();
  });

  for (const [skinnedRaster, opaqueShading] of [['hardware', 'deferred'], ['compute', 'deferred'], ['hardware', 'forward'], ['compute', 'forward']] as const) {
    gpuTest(`every pass draws the instance's level: a level of the head alone leaves no body, nor its shadow (${skinnedRaster} raster, ${opaqueShading})`, async ({ device }) => {
      const frames = [];
      for (const headOnly of [false, true]) {
        const { scene } = floorAndBox(device);
        scene.setSun({ direction: [0.3, -1, 0.2], color: [1, 1, 1], intensity: 3 });
        const c = crowd(device, 1);
        c.place(0, 2.5, 1);
        // Tube 2 is the head: its triangles, as a "level" of tiny error, drawn wherever bounds are given.
        const perTube = RINGS * SIDES + 2;
        const head = c.indices.filter((_, i) => Math.floor(c.indices[i - (i % 3)]! / perTube) === 2);
        const red = scene.addMaterial({ baseColor: [0.9, 0.15, 0.1, 1], roughness: 0.6 });
        scene.addSkinned({ skinning: c.skinning, instances: c.instances, indices: c.indices, material: red, ...(headOnly ? { lods: [{ indices: head, error: 1e-6 }], bounds: sphereAt(2.5, 1) } : {}) });
        const renderer = newRenderer(device, { skinnedRaster, opaqueShading });
        const view = camera([2.5, 1.5, 5], [2.5, 0.9, 1]);
        frames.push(await renderFrame(device, renderer, scene, view));
        expect(renderer.drawnSkinnedIndices).toBe(headOnly ? head.length : c.indices.length);
        renderer.destroy();
        c.skinning.destroy();
        scene.destroy();
      }
      const [whole, head] = frames as [Awaited<ReturnType<typeof renderFrame>>, Awaited<ReturnType<typeof renderFrame>>];
      const redness = (rgb: readonly number[]): number => rgb[0]! - Math.max(rgb[1]!, rgb[2]!);
      // The chest is red in the whole figure, the floor behind it in the head-only one.
      expect(redness(whole.at([2.5, 1.3, 1]))).toBeGreaterThan(20);
      expect(redness(head.at([2.5, 1.3, 1]))).toBeLessThan(10);
      expect(redness(head.at([2.5, 1.75, 1]))).toBeGreaterThan(20);
      // The legs' shadow beside the feet (the sun leans to +x, +z) is gone with them.
      const view = camera([2.5, 1.5, 5], [2.5, 0.9, 1]);
      const [sx, sy] = project(view, [2.5 + 0.45, 0, 1 + 0.3]);
      const at = (frame: { pixels: Uint8Array }): number => brightness(Array.from(frame.pixels.subarray((sy * WIDTH + sx) * 4, (sy * WIDTH + sx) * 4 + 3)));
      expect(at(whole)).toBeLessThan(at(head) * 0.8);
    });
  }

  gpuTest('at its switch distance a far character looks as the full mesh does', async ({ device }) => {
    // Level 2 (a quarter of the triangles) shows 1 px where the nearest point of the sphere lies this far.
    const distance = (coarser(4).error * PIXELS_PER_UNIT) / 1 + 0.05;
    const pictures: Uint8Array[] = [];
    for (const lodErrorPixels of [1, 0]) {
      const { scene } = floorAndBox(device);
      scene.setSun({ direction: [0.3, -1, -0.6], color: [1, 1, 1], intensity: 3 });
      const c = crowd(device, 1);
      c.place(0, 0, 3);
      const red = scene.addMaterial({ baseColor: [0.9, 0.15, 0.1, 1], roughness: 0.6 });
      scene.addSkinned({ skinning: c.skinning, instances: c.instances, indices: c.indices, material: red, lods: c.lods, bounds: sphereAt(0, 3) });
      const renderer = newRenderer(device, { lodErrorPixels });
      pictures.push((await renderFrame(device, renderer, scene, camera([0, 0.97, 3 + 1.05 + distance], [0, 0.97, 3]))).pixels);
      expect(renderer.drawnSkinnedIndices).toBe(lodErrorPixels === 0 ? c.indices.length : c.lods[1]!.indices.length);
      renderer.destroy();
      c.skinning.destroy();
      scene.destroy();
    }
    let differing = 0, covered = 0, total = 0;
    for (let i = 0; i < WIDTH * HEIGHT; i++) {
      const d = Math.max(...[0, 1, 2].map((k) => Math.abs(pictures[0]![i * 4 + k]! - pictures[1]![i * 4 + k]!)));
      total += d;
      if (d > 64) differing++;
      if (pictures[1]![i * 4]! - Math.max(pictures[1]![i * 4 + 1]!, pictures[1]![i * 4 + 2]!) > 40) covered++;
    }
    // The character covers some 570 pixels; the level moves pixels on its outline and its shadow's
    // edge by about one (measured on lavapipe: 43 by more than a quarter of the range, 0.62 of
    // 255 on average over the picture).
    expect(covered).toBeGreaterThan(400);
    expect(differing / covered).toBeLessThan(0.12);
    expect(total / (WIDTH * HEIGHT)).toBeLessThan(1);
  });

  gpuTest('bad levels and bad bounds are refused with the reason, and change nothing', ({ device }) => {
    const { scene } = floorAndBox(device);
    const c = crowd(device, 2);
    const red = scene.addMaterial({ baseColor: [0.9, 0.15, 0.1, 1] });
    const input = { skinning: c.skinning, instances: c.instances, indices: c.indices, material: red };
    const [fine, coarse] = c.lods as [MeshLodInput, MeshLodInput];
    const refused = (extra: object, reason: RegExp): void => {
      expect(() => scene.addSkinned({ ...input, ...extra })).toThrow(RenderError);
      expect(() => scene.addSkinned({ ...input, ...extra })).toThrow(reason);
      expect(scene.skinned.length).toBe(0);
    };
    const vertices = c.instances[0]!.vertexCount;
    refused({ lods: [{ indices: Uint32Array.of(0, 1, vertices), error: 0.01 }] }, new RegExp(`lods\\[0\\]: index ${vertices} at 2 is past the last vertex`));
    refused({ lods: [{ indices: fine.indices, error: 0.05 }, { indices: coarse.indices, error: 0.01 }] }, /lods\[1\]\.error must be a finite number at least the level before's/);
    refused({ lods: [{ indices: Uint32Array.of(0, 1), error: 0.01 }] }, /lods\[0\]\.indices must describe whole triangles/);
    refused({ lods: [coarse, fine] }, /lods\[1\] has \d+ triangles, not fewer than the level before/);
    refused({ lods: [{ indices: fine.indices, error: NaN }] }, /finite/);
    refused({ bounds: new Float32Array(4) }, /bounds must hold 4 floats per instance \(8\), got 4/);
    refused({ bounds: Float32Array.of(0, 0, 0, 1, 0, NaN, 0, 1) }, /bounds of instance 1: the centre must be finite/);
    refused({ bounds: Float32Array.of(0, 0, 0, -1, 0, 0, 0, 1) }, /bounds of instance 0: the radius must be a finite number of at least 0/);
    refused({ bounds: [0, 0, 0, 1, 0, 0, 0, 1] }, /bounds must be a Float32Array/);
    refused({ meshRadius: 0 }, /meshRadius must be a positive finite number/);

    const draw = scene.addSkinned({ ...input, lods: c.lods });
    const before = Float32Array.from(scene.skinned[draw]!.bounds);
    const bad = (call: (s: RenderScene) => void, reason: RegExp): void => {
      expect(() => { call(scene); }).toThrow(RenderError);
      expect(() => { call(scene); }).toThrow(reason);
      expect(scene.skinned[draw]!.bounds).toEqual(before);
    };
    bad((s) => { s.setSkinnedBounds(draw, Float32Array.of(1, 2, 3, 4, 5, 6, 7, -2)); }, /bounds of instance 1: the radius/);
    bad((s) => { s.setSkinnedBounds(draw, Float32Array.of(1, 2, 3)); }, /4 floats per instance/);
    bad((s) => { s.setSkinnedBounds(draw, Float32Array.of(1, 2, 3, 4), 2); }, /bounds for instances 2 to 2 do not fit the draw's 2 instances/);
    bad((s) => { s.setSkinnedBounds(draw, Float32Array.of(1, 2, 3, 4), 0.5); }, /do not fit/);
    bad((s) => { s.setSkinnedBounds(1, Float32Array.of(1, 2, 3, 4)); }, /skinned draw 1 does not exist \(there are 1\)/);
    bad((s) => { s.setSkinnedBounds(draw, Float32Array.of(Infinity, 2, 3, 4)); }, /centre must be finite/);
    // One instance's sphere alone, from a 4-float scratch: the other keeps its own.
    scene.setSkinnedBounds(draw, Float32Array.of(1, 2, 3, 4), 1);
    expect(Array.from(scene.skinned[draw]!.bounds)).toEqual([0, 0, 0, -1, 1, 2, 3, 4]);
    c.skinning.destroy();
    scene.destroy();
    return Promise.resolve();
  });
});
