// The whole culling in plain TypeScript: the depth pass, the entity pass and the per-tile tests,
// for both storage techniques, in 2D or 2.5D. Gather and scatter are two ways of running the
// same per-tile test (scatter only skips entities whose screen rectangle misses the coarse
// tile), so they share this one reference.
import { DEPTH_MASK_CELLS, ENTITY_KIND, type EntityCounts } from '../api.ts';
import type { CullCamera } from '../camera.ts';
import { PLANE_FLOATS, type TileGrid } from '../tile-grid.ts';
import { maskScale, referenceDepthTiles, type ReferenceTiles } from './depth-tiles.ts';
import { referencePrepare, type PreparedEntity } from './prepare.ts';
import { and, atLeast, atMost, BORDERLINE, FALSE, floorRange, TRUE, type Tri } from './tri-state.ts';

/** What the TypeScript reference culls: the same grid, camera, depth and entities as the GPU. */
export interface CullReferenceInput {
  /** The tile grid. */
  grid: TileGrid;
  /** The culling camera. */
  camera: CullCamera;
  /** The depth buffer's values, width * height, top row first. */
  depth: ArrayLike<number>;
  /** The GPU entity array (EntityList.pack()). */
  entities: Uint32Array;
  /** Entity counts of `entities`. */
  counts: EntityCounts;
  /** Harada's 2.5D depth mask test (default true). */
  depthMask?: boolean;
  /** Buckets per tile of the flat bit arrays (maxEntities / 32). */
  bucketsPerTile: number;
}

/** What the TypeScript reference decided, per tile and entity, with the rounding slack of each decision. */
export interface CullReferenceResult {
  /** Buckets per tile of the bit arrays. */
  bucketsPerTile: number;
  /** The reference's per-tile depth bounds and masks. */
  tiles: ReferenceTiles;
  /** Each entity as prepared for culling, in array order. */
  entities: PreparedEntity[];
  /** Flat bit arrays (tiles x bucketsPerTile): entities certainly in each tile. */
  definite: Uint32Array;
  /** Entities certainly or possibly in each tile (a superset of `definite`; equal when tolerance is 0). */
  possible: Uint32Array;
}

/** Relative slack that covers f32 rounding and fused multiply-adds on the GPU: about 8 ulps of each input. */
export const GPU_TOLERANCE = 5e-7;

function rangeMask(first: number, last: number): number {
  return first > last ? 0 : ((0xffffffff >>> (31 - (last - first))) << first) >>> 0;
}

function rectTri(e: PreparedEntity, tx: number, ty: number): Tri {
  const [dx0, dy0, dx1, dy1] = e.rectDefinite;
  if (tx >= dx0 && tx <= dx1 && ty >= dy0 && ty <= dy1) return TRUE;
  const [px0, py0, px1, py1] = e.rectPossible;
  return tx >= px0 && tx <= px1 && ty >= py0 && ty <= py1 ? BORDERLINE : FALSE;
}

/** Sphere against a center/extents AABB (distance from the center to the box, against the radius). */
export function sphereAabbTri(center: readonly number[], radius: number, aabb: ArrayLike<number>, offset: number, slack: number): Tri {
  let distanceSq = 0;
  for (let k = 0; k < 3; k++) {
    const d = Math.max(0, Math.abs(center[k]! - aabb[offset + k]!) - aabb[offset + 3 + k]!);
    distanceSq += d * d;
  }
  return atMost(Math.sqrt(distanceSq), radius, slack);
}

function planesTri(e: PreparedEntity, planes: Float32Array, tile: number, slack: number, tolerance: number): Tri {
  let result: Tri = TRUE;
  const c = e.center;
  const a = e.axes;
  const isBox = e.kind === ENTITY_KIND.decal || e.kind === ENTITY_KIND.probe;
  for (let p = 0; p < 4; p++) {
    const o = tile * PLANE_FLOATS + p * 4;
    const nx = planes[o]!, ny = planes[o + 1]!, nz = planes[o + 2]!, d = planes[o + 3]!;
    // Boxes: the box's own extent along the normal (tighter than its bounding sphere).
    const reach = isBox
      ? Math.abs(a[0]! * nx + a[1]! * ny + a[2]! * nz) + Math.abs(a[3]! * nx + a[4]! * ny + a[5]! * nz) + Math.abs(a[6]! * nx + a[7]! * ny + a[8]! * nz)
      : e.radius;
    result = and(result, atLeast(nx * c[0] + ny * c[1] + nz * c[2] + d + reach, 0, slack + tolerance * Math.abs(d)));
    if (result === FALSE) return FALSE;
  }
  return result;
}

/** The spot's cone against the tile's bounding sphere (the AABB's circumsphere). */
function coneTri(e: PreparedEntity, aabb: Float64Array, t: number, slack: number): Tri {
  const o = t * 6;
  const tileRadius = Math.hypot(aabb[o + 3]!, aabb[o + 4]!, aabb[o + 5]!);
  const vx = aabb[o]! - e.apex[0], vy = aabb[o + 1]! - e.apex[1], vz = aabb[o + 2]! - e.apex[2];
  const [dx, dy, dz] = e.direction;
  const along = vx * dx + vy * dy + vz * dz;
  const perpendicular = Math.hypot(vy * dz - vz * dy, vz * dx - vx * dz, vx * dy - vy * dx);
  let result = atMost(Math.hypot(vx, vy, vz), e.range + tileRadius, slack);
  result = and(result, atLeast(along, -tileRadius, slack));
  return and(result, atMost(e.cos * perpendicular - e.sin * along, tileRadius, slack));
}

/** The tile's AABB taken into box space (its own AABB there) against the unit cube. */
function boxSpaceTri(e: PreparedEntity, aabb: Float64Array, t: number, slack: number, tolerance: number): Tri {
  const o = t * 6;
  const m = e.boxFromCull;
  let result: Tri = TRUE;
  for (let row = 0; row < 3; row++) {
    const r0 = m[row * 4]!, r1 = m[row * 4 + 1]!, r2 = m[row * 4 + 2]!;
    const center = r0 * aabb[o]! + r1 * aabb[o + 1]! + r2 * aabb[o + 2]! + m[row * 4 + 3]!;
    const extent = Math.abs(r0) * aabb[o + 3]! + Math.abs(r1) * aabb[o + 4]! + Math.abs(r2) * aabb[o + 5]!;
    const rowSlack = (Math.abs(r0) + Math.abs(r1) + Math.abs(r2)) * slack + tolerance * (Math.abs(m[row * 4 + 3]!) + 1);
    result = and(result, atMost(Math.abs(center), 1 + extent, rowSlack));
    if (result === FALSE) return FALSE;
  }
  return result;
}

function depthMaskTri(e: PreparedEntity, tiles: ReferenceTiles, t: number, slack: number, tolerance: number): Tri {
  const lo = tiles.minDepth[t]!, hi = tiles.maxDepth[t]!;
  const scale = maskScale(lo, hi);
  let zMin = e.zMin, zMax = e.zMax, reachSlack = 0;
  if (e.kind === ENTITY_KIND.pointLight || e.kind === ENTITY_KIND.spotLight) {
    // Spheres: the depth span inside the tile's column, sqrt(r^2 - d^2) for a sideways distance d
    // to the tile's AABB (near zero a square root turns a small error into a larger one).
    const o = t * 6;
    const dx = Math.max(0, Math.abs(e.center[0] - tiles.aabb[o]!) - tiles.aabb[o + 3]!);
    const dy = Math.max(0, Math.abs(e.center[1] - tiles.aabb[o + 1]!) - tiles.aabb[o + 4]!);
    const squared = Math.max(0, e.radius * e.radius - dx * dx - dy * dy);
    const reach = Math.sqrt(squared);
    zMin = e.center[2] - reach;
    zMax = e.center[2] + reach;
    const squaredSlack = 2 * slack * (e.radius + Math.hypot(dx, dy)) + slack * slack;
    reachSlack = Math.min(Math.sqrt(squaredSlack), squaredSlack / (2 * reach)) + slack;
  }
  const cellSlack = tolerance + scale * (slack + reachSlack + tolerance * (Math.abs(lo) + Math.abs(hi)) + 2 * tiles.minDepthSlack[t]! + tiles.maxDepthSlack[t]!);
  const [firstLow, firstHigh] = floorRange((zMin - lo) * scale, cellSlack, 0, DEPTH_MASK_CELLS - 1);
  const [lastLow, lastHigh] = floorRange((zMax - lo) * scale, cellSlack, 0, DEPTH_MASK_CELLS - 1);
  const definite = rangeMask(firstHigh, lastLow);
  const possible = rangeMask(firstLow, lastHigh);
  if ((definite & tiles.maskDefinite[t]!) !== 0) return TRUE;
  if ((possible & tiles.maskPossible[t]!) === 0) return FALSE;
  return BORDERLINE;
}

/** Whether entity `e` is in tile (tx, ty): every test of the culling pass, in the GPU's order. */
export function entityInTile(e: PreparedEntity, tiles: ReferenceTiles, grid: TileGrid, tx: number, ty: number, depthMask: boolean, tolerance: number): Tri {
  const t = ty * grid.tilesX + tx;
  if (tiles.surfacePixels[t] === 0) return FALSE;
  let result = rectTri(e, tx, ty);
  if (result === FALSE) return FALSE;
  const slack = e.slack + tiles.slack[t]!;
  result = and(result, sphereAabbTri(e.center, e.radius, tiles.aabb, t * 6, slack));
  if (result === FALSE) return FALSE;
  result = and(result, planesTri(e, grid.planes, t, slack, tolerance));
  if (result === FALSE) return FALSE;
  if (depthMask) {
    result = and(result, depthMaskTri(e, tiles, t, slack, tolerance));
    if (result === FALSE) return FALSE;
  }
  if (e.kind === ENTITY_KIND.spotLight) result = and(result, coneTri(e, tiles.aabb, t, slack));
  else if (e.kind === ENTITY_KIND.decal || e.kind === ENTITY_KIND.probe) result = and(result, boxSpaceTri(e, tiles.aabb, t, slack, tolerance));
  return result;
}

/**
 * Culls every entity against every tile. `tolerance` 0 gives the exact float64 answer
 * (`definite` equals `possible`); GPU_TOLERANCE marks the decisions f32 may take either way.
 */
export function cullReference(input: CullReferenceInput, tolerance = 0): CullReferenceResult {
  const { grid, camera, counts, bucketsPerTile } = input;
  const depthMask = input.depthMask ?? true;
  const tiles = referenceDepthTiles(grid, camera, input.depth, tolerance);
  const entities = referencePrepare(input.entities, counts, grid, camera, tolerance);
  const tileCount = grid.tilesX * grid.tilesY;
  const definite = new Uint32Array(tileCount * bucketsPerTile);
  const possible = new Uint32Array(tileCount * bucketsPerTile);
  for (let ty = 0; ty < grid.tilesY; ty++) {
    for (let tx = 0; tx < grid.tilesX; tx++) {
      const base = (ty * grid.tilesX + tx) * bucketsPerTile;
      for (let e = 0; e < entities.length; e++) {
        const result = entityInTile(entities[e]!, tiles, grid, tx, ty, depthMask, tolerance);
        if (result === FALSE) continue;
        const bit = 1 << (e & 31);
        possible[base + (e >>> 5)]! |= bit;
        if (result === TRUE) definite[base + (e >>> 5)]! |= bit;
      }
    }
  }
  return { bucketsPerTile, tiles, entities, definite, possible };
}

/** The entity indices of one tile's flat bit array, ascending (the compaction list's order when sorted). */
export function tileEntities(bits: Uint32Array, bucketsPerTile: number, tile: number): number[] {
  const out: number[] = [];
  for (let b = 0; b < bucketsPerTile; b++) {
    let word = bits[tile * bucketsPerTile + b]!;
    while (word !== 0) {
      const bit = 31 - Math.clz32(word & -word);
      out.push(b * 32 + bit);
      word &= word - 1;
    }
  }
  return out;
}
