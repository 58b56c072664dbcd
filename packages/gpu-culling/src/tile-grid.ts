// The per-resolution part of culling, precomputed on the host as "Don't be greedy" advises:
// each tile's four side planes and, for every tile corner, the line through cull space that
// the corner pixel sees. The depth pass turns the lines into each tile's AABB once it knows
// the tile's depth range; the culling pass reads the planes. Rebuilt only when the resolution,
// tile size or projection changes.
import { COARSE_FACTOR, type TileSize } from './api.ts';
import type { CullCamera } from './camera.ts';
import { transform4 } from './math.ts';

/** The screen's tiles for one size and camera: counts and the planes and corners culling tests against. */
export interface TileGrid {
  /** Target width in pixels. */
  width: number;
  /** Target height in pixels. */
  height: number;
  /** Pixels per tile side. */
  tileSize: TileSize;
  /** Tile columns: ceil(width / tileSize). */
  tilesX: number;
  /** Tile rows: ceil(height / tileSize). */
  tilesY: number;
  /** Coarse tiles (COARSE_FACTOR x COARSE_FACTOR fine tiles) for scatter culling. */
  coarseX: number;
  /** Coarse tile rows. */
  coarseY: number;
  /** Per tile: left, right, top, bottom planes (nx, ny, nz, d), inside where n.p + d is at least 0. */
  planes: Float32Array<ArrayBuffer>;
  /**
   * Per tile corner ((tilesX + 1) * (tilesY + 1), row-major): (ax, ay, bx, by) such that the
   * corner's cull-space point at depth z is (ax + bx z, ay + by z, z).
   */
  corners: Float32Array<ArrayBuffer>;
}

export const PLANE_FLOATS = 16;
export const CORNER_FLOATS = 4;

type Point = [number, number, number];

function cornerLine(cullFromClip: Float64Array, nx: number, ny: number): [number, number, number, number] {
  // Two depths that are finite for every projection (infinite far planes sit at 0 or 1).
  const p = transform4(cullFromClip, nx, ny, 0.25, 1);
  const q = transform4(cullFromClip, nx, ny, 0.75, 1);
  const p0: Point = [p[0] / p[3], p[1] / p[3], p[2] / p[3]];
  const p1: Point = [q[0] / q[3], q[1] / q[3], q[2] / q[3]];
  const dz = p1[2] - p0[2];
  const bx = (p1[0] - p0[0]) / dz;
  const by = (p1[1] - p0[1]) / dz;
  return [p0[0] - bx * p0[2], p0[1] - by * p0[2], bx, by];
}

function pointOn(corners: Float32Array, corner: number, z: number): Point {
  const o = corner * CORNER_FLOATS;
  return [corners[o]! + corners[o + 2]! * z, corners[o + 1]! + corners[o + 3]! * z, z];
}

/** The plane through the corner lines `c0` and `c1`, facing `inside`. */
function planeThrough(corners: Float32Array, c0: number, c1: number, inside: Point, out: Float32Array, offset: number): void {
  const p0 = pointOn(corners, c0, 1);
  const p1 = pointOn(corners, c0, 2);
  const p2 = pointOn(corners, c1, 1);
  const u = [p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]];
  const v = [p2[0] - p0[0], p2[1] - p0[1], p2[2] - p0[2]];
  let nx = u[1]! * v[2]! - u[2]! * v[1]!;
  let ny = u[2]! * v[0]! - u[0]! * v[2]!;
  let nz = u[0]! * v[1]! - u[1]! * v[0]!;
  const length = Math.hypot(nx, ny, nz);
  const facing = (inside[0] - p0[0]) * nx + (inside[1] - p0[1]) * ny + (inside[2] - p0[2]) * nz;
  const s = (facing < 0 ? -1 : 1) / length;
  nx *= s;
  ny *= s;
  nz *= s;
  out[offset] = nx;
  out[offset + 1] = ny;
  out[offset + 2] = nz;
  out[offset + 3] = -(nx * p0[0] + ny * p0[1] + nz * p0[2]);
}

/** The tile grid of a `width` x `height` pixel target for `camera`. */
export function buildTileGrid(width: number, height: number, tileSize: TileSize, camera: CullCamera): TileGrid {
  const tilesX = Math.ceil(width / tileSize);
  const tilesY = Math.ceil(height / tileSize);
  const cornersX = tilesX + 1;
  const corners = new Float32Array(cornersX * (tilesY + 1) * CORNER_FLOATS);
  for (let gy = 0; gy <= tilesY; gy++) {
    const ny = 1 - (2 * Math.min(gy * tileSize, height)) / height;
    for (let gx = 0; gx <= tilesX; gx++) {
      const nx = (2 * Math.min(gx * tileSize, width)) / width - 1;
      corners.set(cornerLine(camera.cullFromClip, nx, ny), (gy * cornersX + gx) * CORNER_FLOATS);
    }
  }
  const planes = new Float32Array(tilesX * tilesY * PLANE_FLOATS);
  for (let ty = 0; ty < tilesY; ty++) {
    for (let tx = 0; tx < tilesX; tx++) {
      const topLeft = ty * cornersX + tx;
      const topRight = topLeft + 1;
      const bottomLeft = topLeft + cornersX;
      const bottomRight = bottomLeft + 1;
      const a = pointOn(corners, topLeft, 1);
      const b = pointOn(corners, bottomRight, 1);
      const inside: Point = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, 1];
      const o = (ty * tilesX + tx) * PLANE_FLOATS;
      planeThrough(corners, topLeft, bottomLeft, inside, planes, o);
      planeThrough(corners, topRight, bottomRight, inside, planes, o + 4);
      planeThrough(corners, topLeft, topRight, inside, planes, o + 8);
      planeThrough(corners, bottomLeft, bottomRight, inside, planes, o + 12);
    }
  }
  return {
    width,
    height,
    tileSize,
    tilesX,
    tilesY,
    coarseX: Math.ceil(tilesX / COARSE_FACTOR),
    coarseY: Math.ceil(tilesY / COARSE_FACTOR),
    planes,
    corners,
  };
}
