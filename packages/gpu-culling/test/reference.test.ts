// What the culling promises, checked on the reference: no entity that touches a surface pixel of
// a tile is ever culled from it (conservative), the 2.5D mask removes lights floating in depth
// gaps, and the camera and tile grid set-up handle every projection.
import { describe, expect, test } from 'vitest';
import { buildTileGrid, cullReference, ENTITY_KIND, lookAt, perspective, resolveCamera, tileEntities, EntityList, type CullCamera } from '../src/index.ts';
import { linearDepth } from '../src/reference/depth-tiles.ts';
import { transformPoint } from '../src/math.ts';
import { makeScene } from './scenes.ts';

/** Cull-space position of the centre of pixel (x, y) at depth d. */
function pixelPoint(camera: CullCamera, width: number, height: number, x: number, y: number, d: number): [number, number, number] {
  return transformPoint(camera.cullFromClip, ((x + 0.5) / width) * 2 - 1, 1 - ((y + 0.5) / height) * 2, d);
}

/** Whether the entity's volume holds cull-space point p (with a small margin inwards). */
function touches(words: Uint32Array, e: number, camera: CullCamera, p: [number, number, number]): boolean {
  const f = new Float32Array(words.buffer);
  const o = e * 16;
  const kind = words[o + 12]!;
  const world = transformPoint(camera.worldFromCull, p[0], p[1], p[2]);
  if (kind === ENTITY_KIND.pointLight || kind === ENTITY_KIND.spotLight) {
    const d = [world[0] - f[o]!, world[1] - f[o + 1]!, world[2] - f[o + 2]!];
    const distance = Math.hypot(d[0]!, d[1]!, d[2]!);
    if (distance >= f[o + 3]! * 0.999) return false;
    if (kind === ENTITY_KIND.pointLight) return true;
    const cos = (d[0]! * f[o + 4]! + d[1]! * f[o + 5]! + d[2]! * f[o + 6]!) / distance;
    return cos > f[o + 7]! + 1e-3;
  }
  for (let row = 0; row < 3; row++) {
    const v = f[o + row * 4]! * world[0] + f[o + row * 4 + 1]! * world[1] + f[o + row * 4 + 2]! * world[2] + f[o + row * 4 + 3]!;
    if (Math.abs(v) >= 0.999) return false;
  }
  return true;
}

describe('the reference is conservative', () => {
  for (const projection of ['perspective', 'reversed-infinite', 'orthographic'] as const) {
    for (const depthMask of [true, false]) {
      test(`${projection}, ${depthMask ? '2.5D' : '2D'}: every entity touching a surface pixel of a tile is in the tile`, () => {
        const scene = makeScene({ width: 96, height: 64, seed: 17, projection, decals: 10, probes: 5, pointLights: 120, spotLights: 40, lightRange: [1, 5] });
        const camera = resolveCamera(scene.camera);
        const grid = buildTileGrid(scene.width, scene.height, 16, camera);
        const words = scene.entities.pack();
        const result = cullReference({ grid, camera, depth: scene.depth, entities: words, counts: scene.entities.counts, depthMask, bucketsPerTile: 32 });
        let touching = 0, kept = 0;
        for (let t = 0; t < grid.tilesX * grid.tilesY; t++) {
          const set = new Set(tileEntities(result.definite, 32, t));
          kept += set.size;
          const tx = t % grid.tilesX, ty = Math.floor(t / grid.tilesX);
          const needed = new Set<number>();
          for (let y = ty * 16; y < Math.min(scene.height, ty * 16 + 16); y++) {
            for (let x = tx * 16; x < Math.min(scene.width, tx * 16 + 16); x++) {
              const d = scene.depth[y * scene.width + x]!;
              if (d === camera.farDepth) continue;
              const p = pixelPoint(camera, scene.width, scene.height, x, y, d);
              for (let e = 0; e < scene.entities.count; e++) if (touches(words, e, camera, p)) needed.add(e);
            }
          }
          touching += needed.size;
          for (const e of needed) expect(set.has(e), `tile ${t} lost entity ${e}, which lights one of its pixels`).toBe(true);
        }
        expect(touching).toBeGreaterThan(100);
        // Culling is conservative, not wasteful: most kept pairs really touch a pixel.
        expect(kept).toBeLessThan(touching * (depthMask ? 3 : 5));
      });
    }
  }
});

describe('2.5D culling', () => {
  test('a light in the gap between a near and a far surface is culled in 2.5D, kept in 2D', () => {
    // One 16x16 tile: the left half a wall at distance 5, the right half a wall at 20.
    const view = lookAt([0, 0, 0], [0, 0, -1]);
    const projection = perspective({ fovY: Math.PI / 4, aspect: 1, near: 0.1, far: 100 });
    const camera = resolveCamera({ view, projection });
    const depthOf = (distance: number): number => Math.fround((projection[10]! * -distance + projection[14]!) / distance);
    const depth = new Float32Array(256);
    for (let i = 0; i < 256; i++) depth[i] = depthOf(i % 16 < 8 ? 5 : 20);
    const entities = new EntityList();
    entities.addPointLight({ position: [0, 0, -12], range: 1, color: [1, 1, 1] }); // floats in the gap
    entities.addPointLight({ position: [0, 0, -5], range: 1, color: [1, 1, 1] }); // touches the near wall
    const grid = buildTileGrid(16, 16, 16, camera);
    const input = { grid, camera, depth, entities: entities.pack(), counts: entities.counts, bucketsPerTile: 1 };
    expect(tileEntities(cullReference({ ...input, depthMask: false }).definite, 1, 0)).toEqual([0, 1]);
    expect(tileEntities(cullReference({ ...input, depthMask: true }).definite, 1, 0)).toEqual([1]);
  });
});

describe('camera', () => {
  test('reversed Z, infinite far planes and left-handed projections are recognised', () => {
    const view = lookAt([0, 0, 0], [0, 0, -1]);
    const standard = resolveCamera({ view, projection: perspective({ fovY: 1, aspect: 1, near: 0.5, far: 50 }) });
    expect(standard.reversedZ).toBe(false);
    expect(standard.farDepth).toBe(1);
    expect(linearDepth(standard, 0)).toBeCloseTo(0.5, 6);
    expect(linearDepth(standard, 1)).toBeCloseTo(50, 3);
    const reversed = resolveCamera({ view, projection: perspective({ fovY: 1, aspect: 1, near: 0.5, far: Infinity, reversedZ: true }) });
    expect(reversed.reversedZ).toBe(true);
    expect(reversed.farDepth).toBe(0);
    expect(linearDepth(reversed, 1)).toBeCloseTo(0.5, 6);
    expect(linearDepth(reversed, 0.01)).toBeCloseTo(50, 3);
    // Left-handed: flip z of a right-handed projection; distances stay positive.
    const leftHanded = perspective({ fovY: 1, aspect: 1, near: 0.5, far: 50 });
    leftHanded[8] = -leftHanded[8]!; leftHanded[9] = -leftHanded[9]!; leftHanded[10] = -leftHanded[10]!; leftHanded[11] = -leftHanded[11]!;
    const lh = resolveCamera({ view: lookAt([0, 0, 0], [0, 0, 1]), projection: leftHanded });
    expect(linearDepth(lh, 1)).toBeCloseTo(50, 3);
  });

  test('tile planes face inwards and hold their corner lines', () => {
    const camera = resolveCamera({ view: lookAt([1, 2, 3], [0, 0, 0]), projection: perspective({ fovY: 1.2, aspect: 1.5, near: 0.1, far: 100 }) });
    const grid = buildTileGrid(100, 70, 16, camera);
    expect([grid.tilesX, grid.tilesY, grid.coarseX, grid.coarseY]).toEqual([7, 5, 1, 1]);
    for (let t = 0; t < grid.tilesX * grid.tilesY; t++) {
      const tx = t % grid.tilesX, ty = Math.floor(t / grid.tilesX);
      // The tile's centre pixel at several depths is inside every plane.
      const cx = (tx * 16 + Math.min(100, tx * 16 + 16)) / 2, cy = (ty * 16 + Math.min(70, ty * 16 + 16)) / 2;
      for (const d of [0.2, 0.9, 0.999]) {
        const p = transformPoint(camera.cullFromClip, (cx / 100) * 2 - 1, 1 - (cy / 70) * 2, d);
        for (let k = 0; k < 4; k++) {
          const o = t * 16 + k * 4;
          expect(grid.planes[o]! * p[0] + grid.planes[o + 1]! * p[1] + grid.planes[o + 2]! * p[2] + grid.planes[o + 3]!).toBeGreaterThan(0);
        }
      }
    }
  });
});
