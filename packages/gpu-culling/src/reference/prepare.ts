// Reference of the entity pass: each entity in cull space as the culling tests see it: a
// bounding sphere, the depth range the 2.5D test uses, the rectangle of tiles the sphere can
// cover on screen, and the shape data of spot lights (cone) and boxes (decals, probes).
import { ENTITY_KIND, ENTITY_WORDS, type EntityCounts } from '../api.ts';
import type { CullCamera } from '../camera.ts';
import type { TileGrid } from '../tile-grid.ts';
import { floorRange } from './tri-state.ts';

/** cos(45 degrees): below it a spot's bounding sphere is centred on its cap, above on its axis. */
export const SPOT_WIDE_COS = Math.SQRT1_2;

/** One entity as the reference prepares it: bounding sphere, depth range and tile rectangles in cull space, plus its spot cone or box. */
export interface PreparedEntity {
  /** The entity kind (see {@link ENTITY_KIND}). */
  kind: number;
  /** Bounding sphere in cull space. */
  center: [number, number, number];
  /** Bounding sphere radius in cull space. */
  radius: number;
  /** Depth range for the 2.5D test. */
  zMin: number;
  /** Far end of the depth range. */
  zMax: number;
  /** Tile rectangles [x0, y0, x1, y1] certainly and possibly covered (x0 above x1: none). */
  rectDefinite: [number, number, number, number];
  /** Tile rectangle possibly covered, as `rectDefinite`. */
  rectPossible: [number, number, number, number];
  /** Spot: apex, unit direction, cos and sin of the half-angle, range. */
  apex: [number, number, number];
  /** Spot: unit direction of the cone. */
  direction: [number, number, number];
  /** Spot: cosine of the half-angle. */
  cos: number;
  /** Spot: sine of the half-angle. */
  sin: number;
  /** Spot: range. */
  range: number;
  /** Box: rows of box-from-cull (3 x 4) and the half-axes in cull space. */
  boxFromCull: Float64Array;
  /** Box: the half-axes in cull space (3 x 3). */
  axes: Float64Array;
  /** Slack of comparisons involving this entity (0 for an exact reference). */
  slack: number;
}

function applyAffine(m: ArrayLike<number>, x: number, y: number, z: number): [number, number, number] {
  return [m[0]! * x + m[4]! * y + m[8]! * z + m[12]!, m[1]! * x + m[5]! * y + m[9]! * z + m[13]!, m[2]! * x + m[6]! * y + m[10]! * z + m[14]!];
}

function applyLinear(m: ArrayLike<number>, x: number, y: number, z: number): [number, number, number] {
  return [m[0]! * x + m[4]! * y + m[8]! * z, m[1]! * x + m[5]! * y + m[9]! * z, m[2]! * x + m[6]! * y + m[10]! * z];
}

const NO_RECT: [number, number, number, number] = [1, 1, 0, 0];

/**
 * The tiles a sphere's cull-space bounding box covers once projected: certainly and possibly
 * (within `tolerance` of a tile border). Every box corner must be in front of the camera
 * (clip w > 0), else the sphere may cover the whole screen; with every corner behind, none.
 */
export function sphereTileRect(grid: TileGrid, camera: CullCamera, center: readonly number[], radius: number, magnitude: number, tolerance: number): { definite: [number, number, number, number]; possible: [number, number, number, number] } {
  const m = camera.clipFromCull;
  const full: [number, number, number, number] = [0, 0, grid.tilesX - 1, grid.tilesY - 1];
  let minW = Infinity, maxW = -Infinity;
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity, slackX = 0, slackY = 0;
  for (let corner = 0; corner < 8; corner++) {
    const x = center[0]! + (corner & 1 ? radius : -radius);
    const y = center[1]! + (corner & 2 ? radius : -radius);
    const z = center[2]! + (corner & 4 ? radius : -radius);
    const cx = m[0]! * x + m[4]! * y + m[8]! * z + m[12]!;
    const cy = m[1]! * x + m[5]! * y + m[9]! * z + m[13]!;
    const cw = m[3]! * x + m[7]! * y + m[11]! * z + m[15]!;
    minW = Math.min(minW, cw);
    maxW = Math.max(maxW, cw);
    if (cw <= 0) continue;
    const tx = (cx / cw * 0.5 + 0.5) * grid.width / grid.tileSize;
    const ty = (0.5 - cy / cw * 0.5) * grid.height / grid.tileSize;
    const spread = tolerance * (1 + (magnitude + Math.abs(x) + Math.abs(y) + Math.abs(z)) / cw) * (1 + Math.abs(cx / cw) + Math.abs(cy / cw));
    slackX = Math.max(slackX, spread * grid.width / grid.tileSize);
    slackY = Math.max(slackY, spread * grid.height / grid.tileSize);
    minX = Math.min(minX, tx);
    maxX = Math.max(maxX, tx);
    minY = Math.min(minY, ty);
    maxY = Math.max(maxY, ty);
  }
  const wSlack = tolerance * (magnitude + radius);
  const rect = (inner: boolean): [number, number, number, number] => {
    const s = inner ? -1 : 1;
    const x0 = minX - s * slackX, x1 = maxX + s * slackX, y0 = minY - s * slackY, y1 = maxY + s * slackY;
    if (x1 < 0 || y1 < 0 || x0 >= grid.tilesX || y0 >= grid.tilesY || x0 > x1 || y0 > y1) return NO_RECT;
    return [floorRange(x0, 0, 0, grid.tilesX - 1)[0], floorRange(y0, 0, 0, grid.tilesY - 1)[0], floorRange(x1, 0, 0, grid.tilesX - 1)[0], floorRange(y1, 0, 0, grid.tilesY - 1)[0]];
  };
  // Entirely behind the camera: nothing to cover.
  if (maxW <= -wSlack || (wSlack === 0 && maxW <= 0)) return { definite: NO_RECT, possible: NO_RECT };
  if (maxW <= wSlack) return { definite: NO_RECT, possible: full };
  if (minW <= -wSlack || (wSlack === 0 && minW <= 0)) return { definite: full, possible: full };
  if (minW <= wSlack) return { definite: minW > 0 ? rect(true) : NO_RECT, possible: full };
  return { definite: rect(true), possible: rect(false) };
}

/** Every entity of `entities` (the GPU layout, decals then probes then lights) in cull space. */
export function referencePrepare(entities: Uint32Array, counts: EntityCounts, grid: TileGrid, camera: CullCamera, tolerance: number): PreparedEntity[] {
  const floats = new Float32Array(entities.buffer, entities.byteOffset, entities.length);
  const total = counts.decals + counts.probes + counts.lights;
  const c = camera.cullFromWorld;
  const w = camera.worldFromCull;
  const cameraMagnitude = Math.abs(c[12]!) + Math.abs(c[13]!) + Math.abs(c[14]!);
  const prepared: PreparedEntity[] = [];
  for (let e = 0; e < total; e++) {
    const o = e * ENTITY_WORDS;
    const kind = entities[o + 12]!;
    const entity: PreparedEntity = {
      kind, center: [0, 0, 0], radius: 0, zMin: 0, zMax: 0, rectDefinite: NO_RECT, rectPossible: NO_RECT,
      apex: [0, 0, 0], direction: [0, 0, 0], cos: 0, sin: 0, range: 0, boxFromCull: new Float64Array(12), axes: new Float64Array(9), slack: 0,
    };
    let magnitude: number;
    if (kind === ENTITY_KIND.pointLight || kind === ENTITY_KIND.spotLight) {
      const px = floats[o]!, py = floats[o + 1]!, pz = floats[o + 2]!, range = floats[o + 3]!;
      const apex = applyAffine(c, px, py, pz);
      entity.center = apex;
      entity.radius = range;
      entity.range = range;
      magnitude = Math.abs(px) + Math.abs(py) + Math.abs(pz) + cameraMagnitude + range;
      if (kind === ENTITY_KIND.spotLight) {
        const d = applyLinear(c, floats[o + 4]!, floats[o + 5]!, floats[o + 6]!);
        const length = Math.hypot(d[0], d[1], d[2]);
        const dir: [number, number, number] = [d[0] / length, d[1] / length, d[2] / length];
        const cos = floats[o + 7]!;
        const sin = Math.sqrt(Math.max(0, 1 - cos * cos));
        Object.assign(entity, { apex, direction: dir, cos, sin });
        // The lit volume is the cone's sector of the range sphere; its tightest bounding sphere.
        const along = cos < SPOT_WIDE_COS ? range * cos : range / (2 * cos);
        entity.radius = cos < SPOT_WIDE_COS ? range * sin : along;
        entity.center = [apex[0] + dir[0] * along, apex[1] + dir[1] * along, apex[2] + dir[2] * along];
      }
      entity.zMin = entity.center[2] - entity.radius;
      entity.zMax = entity.center[2] + entity.radius;
    } else {
      // Rows of world-to-box; the box's world matrix is their inverse.
      const r = Array.from({ length: 12 }, (_, i) => floats[o + i]!);
      const world = invertAffineRows(r);
      entity.center = applyAffine(c, world[9]!, world[10]!, world[11]!);
      for (let k = 0; k < 3; k++) entity.axes.set(applyLinear(c, world[k * 3]!, world[k * 3 + 1]!, world[k * 3 + 2]!), k * 3);
      const a = entity.axes;
      let radius = 0;
      for (const [sy, sz] of [[1, 1], [1, -1], [-1, 1], [-1, -1]] as const) {
        radius = Math.max(radius, Math.hypot(a[0]! + sy * a[3]! + sz * a[6]!, a[1]! + sy * a[4]! + sz * a[7]!, a[2]! + sy * a[5]! + sz * a[8]!));
      }
      entity.radius = radius;
      const rz = Math.abs(a[2]!) + Math.abs(a[5]!) + Math.abs(a[8]!);
      entity.zMin = entity.center[2] - rz;
      entity.zMax = entity.center[2] + rz;
      // box-from-cull = (world-to-box rows) * world-from-cull.
      for (let row = 0; row < 3; row++) {
        for (let col = 0; col < 4; col++) {
          entity.boxFromCull[row * 4 + col] = r[row * 4]! * w[col * 4]! + r[row * 4 + 1]! * w[col * 4 + 1]! + r[row * 4 + 2]! * w[col * 4 + 2]! + (col === 3 ? r[row * 4 + 3]! : 0);
        }
      }
      magnitude = Math.abs(world[9]!) + Math.abs(world[10]!) + Math.abs(world[11]!) + cameraMagnitude + radius;
    }
    entity.slack = tolerance * magnitude;
    const rect = sphereTileRect(grid, camera, entity.center, entity.radius, magnitude, tolerance);
    entity.rectDefinite = rect.definite;
    entity.rectPossible = rect.possible;
    prepared.push(entity);
  }
  return prepared;
}

/**
 * The world matrix of a box from the rows of its world-to-box matrix, as 3 axis columns then
 * the translation (12 numbers): the inverse of an affine 3 x 4, by cofactors.
 */
export function invertAffineRows(r: readonly number[]): number[] {
  const [a, b, c, tx, d, e, f, ty, g, h, i, tz] = r as [number, number, number, number, number, number, number, number, number, number, number, number];
  const A = e * i - f * h, B = f * g - d * i, C = d * h - e * g;
  const det = a * A + b * B + c * C;
  const s = 1 / det;
  // Inverse of the 3x3 [[a b c][d e f][g h i]]; column k of it is world axis k.
  const m00 = A * s, m01 = (c * h - b * i) * s, m02 = (b * f - c * e) * s;
  const m10 = B * s, m11 = (a * i - c * g) * s, m12 = (c * d - a * f) * s;
  const m20 = C * s, m21 = (b * g - a * h) * s, m22 = (a * e - b * d) * s;
  return [
    m00, m10, m20,
    m01, m11, m21,
    m02, m12, m22,
    -(m00 * tx + m01 * ty + m02 * tz), -(m10 * tx + m11 * ty + m12 * tz), -(m20 * tx + m21 * ty + m22 * tz),
  ];
}
