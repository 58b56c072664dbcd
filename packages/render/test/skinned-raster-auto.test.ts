// skinnedRaster: 'auto': the estimate (mean screen pixels per triangle of a skinned draw, from
// its instances' bounding spheres and levels) on made-up crowds, then a Renderer that draws a
// near crowd on the raster hardware and a far one in compute, each frame as that mode draws it.
import { describe, expect, test } from 'vitest';
import { gpuTest } from '@cuttle/test-utils';
import { lookAt, orthographic, perspective } from '@cuttle/gpu-culling';
import { computePalette, createPose, createProceduralCharacter, buildSkinnedVertices, GpuSkinning, sampleClip } from '@cuttle/gpu-skinning';
import { RenderError, SKINNED_RASTER_AUTO_PIXELS, skinnedTrianglePixels, type RenderCamera, type RenderScene, type SkinnedTriangleSource } from '../src/index.ts';
import { autoSkinnedRaster } from '../src/frame/skinned-raster-auto.ts';
import { camera, floorAndBox, HEIGHT, newRenderer, renderFrame, WIDTH } from './helpers.ts';

const W = 1920, H = 1080, FOV = 0.9;
/** Pixels a unit covers at distance 1. */
const SCALE = H / 2 / Math.tan(FOV / 2);
/** The camera at (0, 1, 0) looking down -z. */
const EYE: RenderCamera = { view: lookAt([0, 1, 0], [0, 1, -10]), projection: perspective({ fovY: FOV, aspect: W / H, near: 0.1, far: Infinity, reversedZ: true }) };
const FULL = 2000, COARSE = 500;

/** A made-up draw: spheres (x, y, z, radius) and the level each draws (0: 2,000 triangles, 1: 500). */
function madeUp(spheres: readonly (readonly [number, number, number, number])[], levels: readonly number[]): SkinnedTriangleSource {
  return {
    bounds: Float32Array.from(spheres.flat()),
    levels: Uint8Array.from(levels),
    lods: [{ indexCount: FULL * 3 }, { indexCount: COARSE * 3 }],
    instances: { length: spheres.length },
  };
}

/** A row of `count` characters' spheres (radius 1) across the view, `distance` ahead. */
function row(count: number, distance: number): [number, number, number, number][] {
  return Array.from({ length: count }, (_, k) => [(k - (count - 1) / 2) * 1.5, 1, -distance, 1]);
}

describe('the mean screen pixels per triangle of a skinned draw', () => {
  test('one sphere ahead: its disc over its level\'s triangles', () => {
    const disc = Math.PI * ((SCALE * 1) / Math.sqrt(20 * 20 - 1)) ** 2;
    expect(skinnedTrianglePixels(madeUp([[0, 1, -20, 1]], [0]), EYE, W, H)).toBeCloseTo(disc / FULL, 4);
    expect(skinnedTrianglePixels(madeUp([[0, 1, -20, 1]], [1]), EYE, W, H)).toBeCloseTo(disc / COARSE, 4);
  });

  test('a near crowd takes the raster hardware, a far one the compute raster', () => {
    const near = skinnedTrianglePixels(madeUp(row(8, 4), new Array<number>(8).fill(0)), EYE, W, H);
    const far = skinnedTrianglePixels(madeUp(row(40, 80), new Array<number>(40).fill(1)), EYE, W, H);
    // At 1080p: some 100 pixels a triangle at 4 m, under 2 at 80 m (even at the coarse level).
    expect(near).toBeGreaterThan(SKINNED_RASTER_AUTO_PIXELS);
    expect(far).toBeLessThan(2);
    expect(autoSkinnedRaster(madeUp(row(8, 4), new Array<number>(8).fill(0)), EYE, W, H, SKINNED_RASTER_AUTO_PIXELS)).toBe('hardware');
    expect(autoSkinnedRaster(madeUp(row(40, 80), new Array<number>(40).fill(1)), EYE, W, H, SKINNED_RASTER_AUTO_PIXELS)).toBe('compute');
    // The threshold decides: the near crowd stays in compute under a higher one.
    expect(autoSkinnedRaster(madeUp(row(8, 4), new Array<number>(8).fill(0)), EYE, W, H, near * 1.01)).toBe('compute');
  });

  test('instances off screen count neither their pixels nor their triangles', () => {
    const seen = skinnedTrianglePixels(madeUp([[0, 1, -20, 1]], [0]), EYE, W, H);
    // Behind the eye, far to the side, far above: nothing on screen.
    const hidden: [number, number, number, number][] = [[0, 1, 20, 1], [200, 1, -20, 1], [0, 300, -20, 1]];
    expect(skinnedTrianglePixels(madeUp([[0, 1, -20, 1], ...hidden], [0, 0, 0, 0]), EYE, W, H)).toBeCloseTo(seen, 6);
    expect(skinnedTrianglePixels(madeUp(hidden, [0, 0, 0]), EYE, W, H)).toBe(0);
    // Half out of the target's left edge: half its square counts.
    const x = -20 * Math.tan(FOV / 2) * (W / H);
    expect(skinnedTrianglePixels(madeUp([[x, 1, -20, 1]], [0]), EYE, W, H)).toBeCloseTo(seen / 2, 1);
  });

  test('without spheres: -1, and the compute raster; instances without one are left out', () => {
    const none = madeUp([[0, 0, 0, -1], [0, 0, 0, -1]], [0, 0]);
    expect(skinnedTrianglePixels(none, EYE, W, H)).toBe(-1);
    expect(autoSkinnedRaster(none, EYE, W, H, SKINNED_RASTER_AUTO_PIXELS)).toBe('compute');
    const one = skinnedTrianglePixels(madeUp([[0, 1, -3, 1]], [0]), EYE, W, H);
    expect(skinnedTrianglePixels(madeUp([[0, 0, 0, -1], [0, 1, -3, 1]], [0, 0]), EYE, W, H)).toBeCloseTo(one, 6);
    expect(skinnedTrianglePixels(madeUp([], []), EYE, W, H)).toBe(-1);
  });

  test('a sphere around the eye covers the target; one reaching its plane counts its whole disc', () => {
    expect(skinnedTrianglePixels(madeUp([[0, 1, -0.5, 1]], [0]), EYE, W, H)).toBeCloseTo((W * H) / FULL, 6);
    // Centre 0.5 behind the eye's plane, 1.2 to the side: radius 1 reaches 0.5 ahead of it.
    const radius = SCALE / Math.sqrt(0.5 * 0.5 + 1.2 * 1.2 - 1);
    expect(skinnedTrianglePixels(madeUp([[1.2, 1, 0.5, 1]], [0]), EYE, W, H)).toBeCloseTo(Math.min(Math.PI * radius * radius, W * H) / FULL, 6);
  });

  test('orthographic: the disc does not change with distance', () => {
    const ortho: RenderCamera = { view: EYE.view, projection: orthographic({ left: -16, right: 16, bottom: -9, top: 9, near: 0.1, far: 500 }) };
    const disc = Math.PI * (H / 18) ** 2;
    expect(skinnedTrianglePixels(madeUp([[0, 1, -5, 1]], [0]), ortho, W, H)).toBeCloseTo(disc / FULL, 6);
    expect(skinnedTrianglePixels(madeUp([[0, 1, -200, 1]], [0]), ortho, W, H)).toBeCloseTo(disc / FULL, 6);
  });
});

interface Crowd {
  skinning: GpuSkinning;
  draw: number;
}

/** `count` walkers in a row across x at z 0, with their bounding spheres (or none). */
function addCrowd(device: GPUDevice, scene: RenderScene, count: number, spheres: boolean, x0 = 0): Crowd {
  const character = createProceduralCharacter();
  const joints = character.skeleton.jointCount;
  const { vertices } = buildSkinnedVertices(character.vertices, { format: 'packed', paletteSize: joints });
  const skinning = new GpuSkinning(device, { maxVertices: vertices.vertexCount, maxOutputVertices: vertices.vertexCount * count, maxBones: joints * count, maxInstances: count });
  const mesh = skinning.addMesh(vertices);
  const pose = createPose(character.skeleton);
  const bones = new Float32Array(joints * 12);
  const bounds = new Float32Array(count * 4);
  const instances = Array.from({ length: count }, (_, k) => {
    const instance = skinning.addInstance({ mesh, palette: skinning.createPalette(joints) });
    const x = x0 + (k - (count - 1) / 2) * 1.2;
    sampleClip(character.walk, 0.3 + k * 0.2, pose);
    skinning.writePalette(instance.palette, computePalette(character.skeleton, pose, bones, { rootTransform: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, 0, 0, 1] }));
    bounds.set([x, 0.97, 0, 1.05], k * 4);
    return instance;
  });
  const material = scene.addMaterial({ baseColor: [0.9, 0.25, 0.15, 1], roughness: 0.6 });
  const draw = scene.addSkinned({ skinning, instances, indices: character.indices, material, ...(spheres ? { bounds } : {}) });
  return { skinning, draw };
}

/** Pixels whose colour differs by more than 16 of 255 (the compute-vs-hardware tests' measure). */
function differing(a: Uint8Array, b: Uint8Array): number {
  let count = 0;
  for (let i = 0; i < WIDTH * HEIGHT; i++) {
    if ([0, 1, 2].some((c) => Math.abs(a[i * 4 + c]! - b[i * 4 + c]!) > 16)) count++;
  }
  return count;
}

// At the tests' 160 x 120: some 3.8 pixels a triangle from 2.5 units, 0.18 from 12.
const THRESHOLD = 1;
const NEAR = camera([0, 1.2, 2.5], [0, 0.97, 0]);
const FAR = camera([0, 2, 12], [0, 0.97, 0]);

describe("skinnedRaster: 'auto'", () => {
  gpuTest('a near crowd draws on the raster hardware, a far one in compute, each as that mode draws it', async ({ device }) => {
    const { scene } = floorAndBox(device);
    scene.setSun({ direction: [0.4, -1, 0.3], color: [1, 1, 1], intensity: 3 });
    const crowd = addCrowd(device, scene, 3, true);
    const renderer = newRenderer(device, { skinnedRaster: 'auto', skinnedRasterAutoPixels: THRESHOLD });
    expect(renderer.skinnedRaster).toBe('auto');
    expect(renderer.skinnedRasterAutoPixels).toBe(THRESHOLD);
    for (const [name, view, expected] of [['near', NEAR, 'hardware'], ['far', FAR, 'compute']] as const) {
      renderer.skinnedRaster = 'auto';
      const auto = (await renderFrame(device, renderer, scene, view)).pixels;
      expect(renderer.skinnedRasterChosen, name).toEqual([expected]);
      const estimate = skinnedTrianglePixels(scene.skinned[crowd.draw]!, view, WIDTH, HEIGHT);
      expect(estimate > THRESHOLD, `${name}: ${estimate} px a triangle`).toBe(expected === 'hardware');
      renderer.skinnedRaster = expected;
      const same = (await renderFrame(device, renderer, scene, view)).pixels;
      expect(renderer.skinnedRasterChosen, name).toEqual([expected]);
      let reddish = 0;
      for (let i = 0; i < WIDTH * HEIGHT; i++) if (auto[i * 4]! - Math.max(auto[i * 4 + 1]!, auto[i * 4 + 2]!) > 50) reddish++;
      expect(reddish, name).toBeGreaterThan(20);
      expect(differing(auto, same), name).toBeLessThanOrEqual(WIDTH * HEIGHT * 0.005);
    }
    // The fixed modes report what they drew.
    renderer.skinnedRaster = 'compute';
    await renderFrame(device, renderer, scene, NEAR);
    expect(renderer.skinnedRasterChosen).toEqual(['compute']);
    renderer.skinnedRaster = 'hardware';
    await renderFrame(device, renderer, scene, FAR);
    expect(renderer.skinnedRasterChosen).toEqual(['hardware']);
    renderer.destroy();
    crowd.skinning.destroy();
    scene.destroy();
  });

  gpuTest('each draw is chosen on its own; a draw without spheres keeps the compute raster', async ({ device }) => {
    const { scene } = floorAndBox(device);
    const near = addCrowd(device, scene, 2, true, 0);
    const unknown = addCrowd(device, scene, 2, false, 0);
    const far = addCrowd(device, scene, 2, true, 0);
    // The third crowd's spheres say it stands 40 units away.
    scene.setSkinnedBounds(far.draw, Float32Array.of(-0.6, 0.97, -40, 1.05, 0.6, 0.97, -40, 1.05));
    const renderer = newRenderer(device, { skinnedRaster: 'auto', skinnedRasterAutoPixels: THRESHOLD });
    await renderFrame(device, renderer, scene, NEAR);
    expect(renderer.skinnedRasterChosen).toEqual(['hardware', 'compute', 'compute']);
    // A high enough threshold keeps them all in compute.
    renderer.skinnedRasterAutoPixels = 1e6;
    await renderFrame(device, renderer, scene, NEAR);
    expect(renderer.skinnedRasterChosen).toEqual(['compute', 'compute', 'compute']);
    renderer.destroy();
    for (const crowd of [near, unknown, far]) crowd.skinning.destroy();
    scene.destroy();
  });

  gpuTest('bad skinnedRaster and skinnedRasterAutoPixels are refused with the value', ({ device }) => {
    expect(() => newRenderer(device, { skinnedRaster: 'automatic' as 'auto' })).toThrow(RenderError);
    expect(() => newRenderer(device, { skinnedRaster: 'automatic' as 'auto' })).toThrow(/skinnedRaster must be 'compute', 'hardware' or 'auto', got automatic/);
    for (const pixels of [0, -1, NaN, Infinity]) {
      expect(() => newRenderer(device, { skinnedRasterAutoPixels: pixels })).toThrow(RenderError);
      expect(() => newRenderer(device, { skinnedRasterAutoPixels: pixels })).toThrow(new RegExp(`skinnedRasterAutoPixels must be a finite number of pixels above 0, got ${pixels}`));
    }
    const renderer = newRenderer(device);
    expect(renderer.skinnedRaster).toBe('auto');
    expect(renderer.skinnedRasterAutoPixels).toBe(SKINNED_RASTER_AUTO_PIXELS);
    expect(renderer.skinnedRasterChosen).toEqual([]);
    expect(() => { renderer.skinnedRasterAutoPixels = -2; }).toThrow(/skinnedRasterAutoPixels must be a finite number of pixels above 0, got -2/);
    expect(renderer.skinnedRasterAutoPixels).toBe(SKINNED_RASTER_AUTO_PIXELS);
    renderer.destroy();
    return Promise.resolve();
  });
});
