// Reference of the depth pass: per tile, the depth range of its surface pixels in cull space,
// the tile's AABB, and Harada's 2.5D mask (32 depth slices between the nearest and farthest
// surface, a bit set for each slice holding a surface pixel). Pixels at the far depth (what the
// depth buffer was cleared to) hold no surface and take no part.
import { DEPTH_MASK_CELLS } from '../api.ts';
import type { CullCamera } from '../camera.ts';
import { CORNER_FLOATS, type TileGrid } from '../tile-grid.ts';
import { floorRange } from './tri-state.ts';

/** Per-tile depth bounds, boxes and 2.5D masks, as the reference computes them from the depth buffer. */
export interface ReferenceTiles {
  /** Nearest and farthest surface per tile (cull-space z); +Infinity / -Infinity where the tile has none. */
  minDepth: Float64Array;
  /** Farthest surface per tile (cull-space z); -Infinity where the tile has none. */
  maxDepth: Float64Array;
  /** AABB per tile: center xyz, then extents xyz (3 + 3 per tile). */
  aabb: Float64Array;
  /** Slices that certainly hold a surface pixel, and slices that may (a pixel within rounding of a slice border). */
  maskDefinite: Uint32Array;
  /** Slices that may hold a surface pixel (within rounding of a slice border), one u32 per tile. */
  maskPossible: Uint32Array;
  /** Surface pixels per tile (pixels not at the far depth). */
  surfacePixels: Uint32Array;
  /** How far the GPU's f32 min and max depth may stray from the reference's (cull-space units). */
  minDepthSlack: Float64Array;
  /** How far the GPU's f32 max depth may stray from the reference's (cull-space units). */
  maxDepthSlack: Float64Array;
  /** Slack of comparisons against the tile's AABB (cull-space units). */
  slack: Float64Array;
}

/** Cull-space depth of a depth-buffer value. */
export function linearDepth(camera: CullCamera, d: number): number {
  const [a, b, c, e] = camera.depthCoefficients;
  const u = Math.abs(d - camera.farDepth);
  return (a * u + b) / (c * u + e);
}

/** How far an f32 evaluation of linearDepth(d) may stray: the magnitudes of its terms over the divisor. */
export function linearDepthSlack(camera: CullCamera, d: number, tolerance: number): number {
  const [a, b, c, e] = camera.depthCoefficients;
  const u = Math.abs(d - camera.farDepth);
  const w = c * u + e;
  return (tolerance * (Math.abs(a * u) + Math.abs(b) + Math.abs((a * u + b) / w) * (Math.abs(c * u) + Math.abs(e)))) / Math.abs(w);
}

/** The 32 / (max - min) factor of the 2.5D mask; 0 when the tile is flat (every pixel in slice 0). */
export function maskScale(minDepth: number, maxDepth: number): number {
  return maxDepth > minDepth ? DEPTH_MASK_CELLS / (maxDepth - minDepth) : 0;
}

/** The reference's per-tile depth bounds, boxes and masks from `depth` (width x height values, top row first); `tolerance` is the relative rounding error allowed (0 for exact). */
export function referenceDepthTiles(grid: TileGrid, camera: CullCamera, depth: ArrayLike<number>, tolerance: number): ReferenceTiles {
  const { tilesX, tilesY, tileSize, width, height, corners } = grid;
  const tiles = tilesX * tilesY;
  const minDepth = new Float64Array(tiles).fill(Infinity);
  const maxDepth = new Float64Array(tiles).fill(-Infinity);
  const maskDefinite = new Uint32Array(tiles);
  const maskPossible = new Uint32Array(tiles);
  const surfacePixels = new Uint32Array(tiles);
  const aabb = new Float64Array(tiles * 6);
  const slack = new Float64Array(tiles);
  const minDepthSlack = new Float64Array(tiles);
  const maxDepthSlack = new Float64Array(tiles);
  const linear = new Float64Array(width * height);
  const linearSlack = new Float64Array(width * height);
  for (let i = 0; i < width * height; i++) {
    const d = depth[i]!;
    linear[i] = d === camera.farDepth ? NaN : linearDepth(camera, d);
    linearSlack[i] = d === camera.farDepth ? 0 : linearDepthSlack(camera, d, tolerance);
  }

  for (let ty = 0; ty < tilesY; ty++) {
    for (let tx = 0; tx < tilesX; tx++) {
      const t = ty * tilesX + tx;
      const x0 = tx * tileSize, x1 = Math.min(width, x0 + tileSize);
      const y0 = ty * tileSize, y1 = Math.min(height, y0 + tileSize);
      let lo = Infinity, hi = -Infinity, count = 0, loSlack = 0, hiSlack = 0;
      for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) {
          const z = linear[y * width + x]!;
          if (Number.isNaN(z)) continue;
          count++;
          if (z < lo) {
            lo = z;
            loSlack = linearSlack[y * width + x]!;
          }
          if (z > hi) {
            hi = z;
            hiSlack = linearSlack[y * width + x]!;
          }
        }
      }
      surfacePixels[t] = count;
      if (count === 0) continue;
      minDepth[t] = lo;
      maxDepth[t] = hi;
      minDepthSlack[t] = loSlack;
      maxDepthSlack[t] = hiSlack;
      const scale = maskScale(lo, hi);
      let definite = 0, possible = 0;
      for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) {
          const z = linear[y * width + x]!;
          if (Number.isNaN(z)) continue;
          const cellSlack = tolerance + scale * (tolerance * (Math.abs(z) + Math.abs(lo) + Math.abs(hi)) + linearSlack[y * width + x]! + 2 * loSlack + hiSlack);
          const [first, last] = floorRange((z - lo) * scale, cellSlack, 0, DEPTH_MASK_CELLS - 1);
          if (first === last) definite |= 1 << first;
          for (let c = first; c <= last; c++) possible |= 1 << c;
        }
      }
      maskDefinite[t] = definite >>> 0;
      maskPossible[t] = possible >>> 0;
      tileAabb(corners, tilesX + 1, tx, ty, lo, hi, aabb, t * 6);
      // Corner lines move sideways by at most ~2 units per unit of depth (a 127-degree field of view).
      slack[t] = tolerance * (Math.abs(aabb[t * 6]!) + Math.abs(aabb[t * 6 + 1]!) + Math.abs(aabb[t * 6 + 2]!) + aabb[t * 6 + 3]! + aabb[t * 6 + 4]! + aabb[t * 6 + 5]!) + 3 * (loSlack + hiSlack);
    }
  }
  return { minDepth, maxDepth, aabb, maskDefinite, maskPossible, surfacePixels, minDepthSlack, maxDepthSlack, slack };
}

/**
 * The AABB of the part of a tile's frustum between depths lo and hi: its four corner lines at
 * both depths. Shared with the coarse tiles of scatter culling (span > 1 tile).
 */
export function tileAabb(corners: Float32Array, cornersX: number, tx: number, ty: number, lo: number, hi: number, out: Float64Array, offset: number, span = 1, limitX = Infinity, limitY = Infinity): void {
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
  const cx1 = Math.min(tx + span, limitX), cy1 = Math.min(ty + span, limitY);
  for (const gy of [ty, cy1]) {
    for (const gx of [tx, cx1]) {
      const o = (gy * cornersX + gx) * CORNER_FLOATS;
      for (const z of [lo, hi]) {
        const x = corners[o]! + corners[o + 2]! * z;
        const y = corners[o + 1]! + corners[o + 3]! * z;
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
      }
    }
  }
  out[offset] = (minX + maxX) / 2;
  out[offset + 1] = (minY + maxY) / 2;
  out[offset + 2] = (lo + hi) / 2;
  out[offset + 3] = (maxX - minX) / 2;
  out[offset + 4] = (maxY - minY) / 2;
  out[offset + 5] = (hi - lo) / 2;
}
