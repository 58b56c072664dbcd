// The TypeScript reference of normal reconstruction from depth (ssao-normals.wgsl), in f64.
// The improved method's choice of neighbour compares two view-space depth differences; where
// they are so close that f32 rounding could swap the choice, the pixel is marked borderline and
// every triangle the GPU might pick is kept as a candidate (see compareNormals).
import { RenderError } from '../../errors.ts';
import type { NormalMethod, NormalSpace, SsaoCamera } from '../api.ts';
import { resolveSsaoCamera, type ResolvedSsaoCamera } from '../camera.ts';
import { requireNormalMethod } from '../normal-method.ts';
import { depthPositions } from './positions.ts';

/** Relative error of the GPU's f32 view-space z, as a fraction of the depths compared (a few ulps, with margin). */
export const GPU_DEPTH_TOLERANCE = 4e-6;

/** Options of {@link reconstructNormalsReference}. */
export interface NormalsReferenceOptions {
  /** Default 'view'. */
  space?: NormalSpace;
  /** Decisions closer than this relative margin are borderline (default GPU_DEPTH_TOLERANCE; 0 for plain f64). */
  tolerance?: number;
}

/** Normals rebuilt from depth by the TypeScript reference (f64), with the pixels where f32 could choose differently. */
export interface NormalsReference {
  /** Width in pixels. */
  width: number;
  /** Height in pixels. */
  height: number;
  /** Unit normal xyz per pixel (0, 0, 0 where there is no surface). */
  normals: Float32Array;
  /** 1 where the pixel holds a surface. */
  surface: Uint8Array;
  /** Pixels whose neighbour choice f32 rounding could swap, with every normal the GPU may produce there (xyz each). */
  candidates: Map<number, Float32Array>;
}

/** Picks per axis: 1 = first (right / up), -1 = second (left / down), 0 = none. */
const NONE = 0;

interface AxisChoice {
  pick: number;
  /** The other pick f32 could make (0 when the decision is clear). */
  alternative: number;
}

function chooseAxis(method: NormalMethod, zc: number, firstValid: boolean, zFirst: number, secondValid: boolean, zSecond: number, tolerance: number, out: AxisChoice): AxisChoice {
  out.alternative = NONE;
  if (!firstValid) {
    out.pick = secondValid ? -1 : NONE;
    return out;
  }
  if (method === 'naive' || !secondValid) {
    out.pick = 1;
    return out;
  }
  const margin = Math.abs(zSecond - zc) - Math.abs(zFirst - zc);
  out.pick = margin >= 0 ? 1 : -1;
  if (Math.abs(margin) <= tolerance * (Math.abs(zFirst) + Math.abs(zSecond) + 2 * Math.abs(zc))) out.alternative = -out.pick;
  return out;
}

function triangleNormal(positions: Float64Array, camera: ResolvedSsaoCamera, c: number, h: number, hPick: number, v: number, vPick: number, world: boolean, out: Float32Array, o: number): void {
  let nx = 0, ny = 0, nz = -camera.forward;
  if (hPick !== NONE && vPick !== NONE) {
    const ax = hPick * (positions[h * 3]! - positions[c * 3]!), ay = hPick * (positions[h * 3 + 1]! - positions[c * 3 + 1]!), az = hPick * (positions[h * 3 + 2]! - positions[c * 3 + 2]!);
    const bx = vPick * (positions[v * 3]! - positions[c * 3]!), by = vPick * (positions[v * 3 + 1]! - positions[c * 3 + 1]!), bz = vPick * (positions[v * 3 + 2]! - positions[c * 3 + 2]!);
    const cx = (ay * bz - az * by) * camera.winding, cy = (az * bx - ax * bz) * camera.winding, cz = (ax * by - ay * bx) * camera.winding;
    const length = Math.hypot(cx, cy, cz);
    if (length > 0) {
      nx = cx / length;
      ny = cy / length;
      nz = cz / length;
    }
  }
  if (world) {
    const m = camera.worldFromViewNormals;
    const wx = m[0]! * nx + m[4]! * ny + m[8]! * nz, wy = m[1]! * nx + m[5]! * ny + m[9]! * nz, wz = m[2]! * nx + m[6]! * ny + m[10]! * nz;
    const length = Math.hypot(wx, wy, wz);
    nx = wx / length;
    ny = wy / length;
    nz = wz / length;
  }
  out[o] = nx;
  out[o + 1] = ny;
  out[o + 2] = nz;
}

/**
 * Normals of a depth buffer (row-major float depth values, row 0 at the top) as the GPU pass
 * reconstructs them, for `method`. Same conventions as NormalReconstructionPass.
 */
export function reconstructNormalsReference(depth: ArrayLike<number>, width: number, height: number, camera: SsaoCamera, method: NormalMethod, options: NormalsReferenceOptions = {}): NormalsReference {
  if (!(Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0)) throw new RenderError(`width and height must be positive integers, got ${width}x${height}.`);
  if (depth.length !== width * height) throw new RenderError(`depth holds ${depth.length} values; a ${width}x${height} buffer needs ${width * height}.`);
  requireNormalMethod(method, 'method');
  const resolved = resolveSsaoCamera(camera);
  const world = (options.space ?? 'view') === 'world';
  const tolerance = options.tolerance ?? GPU_DEPTH_TOLERANCE;
  const { positions, surface } = depthPositions(depth, width, height, resolved);
  const normals = new Float32Array(width * height * 3);
  const candidates = new Map<number, Float32Array>();
  const horizontal: AxisChoice = { pick: NONE, alternative: NONE };
  const vertical: AxisChoice = { pick: NONE, alternative: NONE };
  const valid = (x: number, y: number): boolean => x >= 0 && y >= 0 && x < width && y < height && surface[y * width + x] === 1;
  const z = (x: number, y: number): number => (valid(x, y) ? positions[(y * width + x) * 3 + 2]! : 0);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const c = y * width + x;
      if (surface[c] === 0) continue;
      const zc = positions[c * 3 + 2]!;
      chooseAxis(method, zc, valid(x + 1, y), z(x + 1, y), valid(x - 1, y), z(x - 1, y), tolerance, horizontal);
      chooseAxis(method, zc, valid(x, y - 1), z(x, y - 1), valid(x, y + 1), z(x, y + 1), tolerance, vertical);
      const h = (pick: number): number => c + pick;
      const v = (pick: number): number => c - pick * width;
      triangleNormal(positions, resolved, c, h(horizontal.pick), horizontal.pick, v(vertical.pick), vertical.pick, world, normals, c * 3);
      if (horizontal.alternative === NONE && vertical.alternative === NONE) continue;
      const hPicks = horizontal.alternative === NONE ? [horizontal.pick] : [horizontal.pick, horizontal.alternative];
      const vPicks = vertical.alternative === NONE ? [vertical.pick] : [vertical.pick, vertical.alternative];
      const choices = new Float32Array(hPicks.length * vPicks.length * 3);
      let k = 0;
      for (const hp of hPicks) for (const vp of vPicks) triangleNormal(positions, resolved, c, h(hp), hp, v(vp), vp, world, choices, 3 * k++);
      candidates.set(c, choices);
    }
  }
  return { width, height, normals, surface, candidates };
}
