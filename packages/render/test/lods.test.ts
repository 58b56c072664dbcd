// Levels of detail: each instance draws the coarsest level whose error covers at most
// `lodErrorPixels` on screen at its nearest point; the levels' index ranges draw the right
// triangles (a flat grid's levels cover the same pixels); bad levels are refused whole.
import { describe, expect } from 'vitest';
import { gpuTest } from '@cuttle/test-utils';
import { RenderError, RenderScene, type MeshInput } from '../src/index.ts';
import { camera, HEIGHT, newRenderer, renderFrame, translation } from './helpers.ts';

const SIDE = 32;

/** A flat SIDE x SIDE-quad grid on the xz plane, 4 units across, and its levels over every 2nd and every 4th vertex. */
function grid(): MeshInput & { lods: NonNullable<MeshInput['lods']> } {
  const n = SIDE + 1;
  const positions = new Float32Array(n * n * 3);
  const normals = new Float32Array(n * n * 3);
  const uvs = new Float32Array(n * n * 2);
  for (let z = 0; z < n; z++) {
    for (let x = 0; x < n; x++) {
      const v = z * n + x;
      positions.set([(x / SIDE) * 4 - 2, 0, (z / SIDE) * 4 - 2], v * 3);
      normals.set([0, 1, 0], v * 3);
      uvs.set([x / SIDE, z / SIDE], v * 2);
    }
  }
  const quads = (step: number): Uint32Array => {
    const out: number[] = [];
    for (let z = 0; z < SIDE; z += step) {
      for (let x = 0; x < SIDE; x += step) {
        const a = z * n + x, b = a + step, c = a + step * n, d = c + step;
        out.push(a, c, b, b, c, d);
      }
    }
    return Uint32Array.from(out);
  };
  return { positions, normals, uvs, indices: quads(1), lods: [{ indices: quads(2), error: 0.01 }, { indices: quads(4), error: 0.04 }] };
}

/** Pixels that a 0.01 / 0.04 unit error covers at distance d: HEIGHT / 2 / tan(0.45) per unit at distance 1. */
const pixelsAt = (error: number, distance: number): number => (error * HEIGHT) / 2 / Math.tan(0.45) / distance;

describe('levels of detail', () => {
  gpuTest('each instance draws the coarsest level its distance allows; 0 px draws the full mesh', async ({ device }) => {
    const scene = new RenderScene(device);
    const mesh = scene.addMesh(grid());
    const material = scene.addMaterial({ baseColor: [0.8, 0.8, 0.8, 1] });
    scene.setSun({ direction: [0, -1, 0], color: [1, 1, 1], intensity: 2 });
    const instance = scene.addInstance(mesh, material, translation(0, 0, 0));
    const renderer = newRenderer(device);
    const full = SIDE * SIDE * 6;
    const drawnAt = async (height: number): Promise<number> => {
      await renderFrame(device, renderer, scene, camera([0, height, 0.001], [0, 0, 0]));
      return renderer.drawnIndices;
    };
    // Distances are to the grid's nearest point: its bounding sphere (radius 2.83) around the centre.
    // 5 units above: 2.17 away, where level 1's error covers 0.57 px and level 2's 2.3 px.
    expect(pixelsAt(0.01, 5 - 2.83)).toBeLessThan(1);
    expect(pixelsAt(0.04, 5 - 2.83)).toBeGreaterThan(1);
    // 1 unit above (inside the sphere): the full grid.
    expect(await drawnAt(1)).toBe(full);
    expect(await drawnAt(5)).toBe(full / 4);
    // 20 units above: level 2's error covers 0.3 px.
    expect(await drawnAt(20)).toBe(full / 16);
    renderer.lodErrorPixels = 0;
    expect(await drawnAt(20)).toBe(full);
    renderer.lodErrorPixels = 100;
    expect(await drawnAt(5)).toBe(full / 16);
    expect(() => { renderer.lodErrorPixels = -1; }).toThrow(RenderError);
    expect(renderer.lodErrorPixels).toBe(100);
    // Two instances, one near and one far, in one group: each draws its own level.
    renderer.lodErrorPixels = 1;
    scene.addInstance(mesh, material, translation(0, -40, 0));
    expect(await drawnAt(1)).toBe(full + full / 16);
    expect(instance).toBe(0);
    renderer.destroy();
    scene.destroy();
  });

  gpuTest('a flat grid looks the same through every level', async ({ device }) => {
    const pixels: Uint8Array[] = [];
    for (const lodErrorPixels of [0, 1000]) {
      const scene = new RenderScene(device);
      const data = new Uint8Array(16 * 16 * 4);
      for (let i = 0; i < 256; i++) data.set(((i % 16) + (i >> 4)) % 2 ? [230, 230, 230, 255] : [40, 40, 40, 255], i * 4);
      const material = scene.addMaterial({ baseColor: [1, 1, 1, 1], baseColorTexture: scene.addTexture({ width: 16, height: 16, data }, { srgb: true }), roughness: 1 });
      scene.addInstance(scene.addMesh(grid()), material, translation(0, 0, 0));
      scene.setSun({ direction: [0.3, -1, 0.2], color: [1, 1, 1], intensity: 2 });
      const renderer = newRenderer(device, { lodErrorPixels });
      pixels.push((await renderFrame(device, renderer, scene, camera([0, 3, 2.5], [0, 0, 0]))).pixels);
      expect(renderer.drawnIndices).toBe(lodErrorPixels === 0 ? SIDE * SIDE * 6 : (SIDE * SIDE * 6) / 16);
      renderer.destroy();
      scene.destroy();
    }
    let worst = 0;
    for (let i = 0; i < pixels[0]!.length; i++) worst = Math.max(worst, Math.abs(pixels[0]![i]! - pixels[1]![i]!));
    // The same surface: only where rasterization rounds triangle edges differently.
    expect(worst).toBeLessThanOrEqual(3);
  });

  gpuTest('bad levels are refused with the reason and no mesh is added', ({ device }) => {
    const scene = new RenderScene(device);
    const good = grid();
    const [fine, coarse] = good.lods;
    const refused = (lods: MeshInput['lods'], reason: RegExp): void => {
      expect(() => scene.addMesh({ ...good, lods })).toThrow(RenderError);
      expect(() => scene.addMesh({ ...good, lods })).toThrow(reason);
    };
    refused([coarse!, fine!], /lods\[1\] has 512 triangles, not fewer than the level before \(128\)/);
    refused([{ indices: fine!.indices, error: 0.05 }, { indices: coarse!.indices, error: 0.01 }], /lods\[1\]\.error must be a finite number at least the level before's \(0\.05\)/);
    refused([{ indices: Uint32Array.of(0, 1), error: 0.01 }], /lods\[0\]\.indices must describe whole triangles/);
    refused([{ indices: Uint32Array.of(0, 1, 5000), error: 0.01 }], /lods\[0\]: index 5000 at 2 is past the last vertex/);
    refused([{ indices: fine!.indices, error: NaN }], /finite/);
    expect(scene.addMesh(good)).toBe(0);
    scene.destroy();
    return Promise.resolve();
  });
});
