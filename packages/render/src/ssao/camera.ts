// What the passes derive from the camera: how a depth value and a pixel become a view-space
// position (precisely, in f32, even far from the camera), which way is forward, which winding
// faces the camera, and how normals go to world space.
import { RenderError } from '../errors.ts';
import type { SsaoCamera } from './api.ts';
import { allFinite, invert4, transform4 } from './matrix.ts';

export interface ResolvedSsaoCamera {
  /**
   * h = unproject * (ndc.x, ndc.y, u, 1), position = h.xyz / h.w, where u = |depth - farDepth| is
   * the depth value's distance from the far value. Written around the far end because 1 - d is
   * exact in f32 for d >= 0.5, where a formula in d itself cancels catastrophically.
   */
  unproject: Float64Array;
  /** The projection as given (view to clip). */
  projection: Float64Array;
  /** Normal matrix from view to world space in a 4x4 (the transpose of the view's 3x3). */
  worldFromViewNormals: Float64Array;
  /** The depth value of "no surface" (what the depth buffer is cleared to): 1, or 0 with reversed Z. */
  farDepth: 0 | 1;
  reversedZ: boolean;
  orthographic: boolean;
  /** Sign of view-space z in front of the camera: -1 for right-handed views. */
  forward: 1 | -1;
  /** Sign that turns cross(right - centre, up - centre) into a normal facing the camera. */
  winding: 1 | -1;
}

function requireMatrix(name: string, m: ArrayLike<number> | undefined): void {
  if (!m || typeof m.length !== 'number' || m.length !== 16 || !allFinite(m)) {
    throw new RenderError(`camera.${name} must be 16 finite numbers (a column-major 4x4 matrix).`);
  }
}

/** View-space z for depth value d through the plain inverse (f64: precise enough here), Infinity at a point at infinity. */
function viewZ(inverseProjection: Float64Array, d: number): number {
  const h = transform4(inverseProjection, 0, 0, d, 1, new Float64Array(4));
  return Math.abs(h[3]!) < 1e-300 ? Math.sign(h[2]!) * Infinity : h[2]! / h[3]!;
}

/** Checks the camera and derives what the passes need. Throws RenderError before anything else happens. */
export function resolveSsaoCamera(camera: SsaoCamera | undefined): ResolvedSsaoCamera {
  if (!camera || typeof camera !== 'object') throw new RenderError('camera must be { view, projection } (column-major 4x4 matrices).');
  requireMatrix('view', camera.view);
  requireMatrix('projection', camera.projection);
  const projection = Float64Array.from(camera.projection);
  const view = camera.view;
  const inverseProjection = invert4(projection);
  if (!inverseProjection) throw new RenderError('camera.projection is singular; give a perspective or orthographic projection.');
  if (!invert4(view)) throw new RenderError('camera.view is singular; give a world-to-view matrix (rotation and translation).');

  const orthographic = projection[3] === 0 && projection[7] === 0 && projection[11] === 0;
  // Perspective: in front is where clip w is positive. Orthographic: -z (right-handed, as glTF and WebGPU).
  const forward: 1 | -1 = orthographic ? -1 : projection[11]! > 0 ? 1 : -1;
  if (!orthographic && projection[11] === 0) throw new RenderError('camera.projection is neither perspective (w from z) nor orthographic (w = 1).');
  const distance0 = forward * viewZ(inverseProjection, 0);
  const distance1 = forward * viewZ(inverseProjection, 1);
  if (Number.isNaN(distance0) || Number.isNaN(distance1) || distance0 === distance1) {
    throw new RenderError('camera.projection maps depth 0 and 1 to the same distance; it cannot have rendered a depth buffer.');
  }
  const reversedZ = distance0 > distance1;
  const farDepth: 0 | 1 = reversedZ ? 0 : 1;
  if (!orthographic && Math.min(distance0, distance1) <= 0) throw new RenderError('camera.projection puts its near plane behind the camera; give near > 0.');

  // Columns of the inverse around the far value: d = farDepth - sign * u.
  const sign = reversedZ ? -1 : 1;
  const unproject = new Float64Array(16);
  for (let row = 0; row < 4; row++) {
    unproject[row] = inverseProjection[row]!;
    unproject[4 + row] = inverseProjection[4 + row]!;
    unproject[8 + row] = -sign * inverseProjection[8 + row]!;
    unproject[12 + row] = inverseProjection[12 + row]! + farDepth * inverseProjection[8 + row]!;
  }

  // A plane of constant depth faces the camera: its cross(right, up) tells the winding.
  const p = (x: number, y: number): Float64Array => {
    const h = transform4(inverseProjection, x, y, 0.5, 1, new Float64Array(4));
    return new Float64Array([h[0]! / h[3]!, h[1]! / h[3]!, h[2]! / h[3]!]);
  };
  const c = p(0, 0), r = p(0.01, 0), u = p(0, 0.01);
  const nz = (r[0]! - c[0]!) * (u[1]! - c[1]!) - (r[1]! - c[1]!) * (u[0]! - c[0]!);
  const winding: 1 | -1 = nz * -forward > 0 ? 1 : -1;

  const worldFromViewNormals = new Float64Array(16);
  for (let row = 0; row < 3; row++) for (let col = 0; col < 3; col++) worldFromViewNormals[col * 4 + row] = view[row * 4 + col]!;
  worldFromViewNormals[15] = 1;
  return { unproject, projection, worldFromViewNormals, farDepth, reversedZ, orthographic, forward, winding };
}

/** View-space position of pixel (x, y) at depth value d, written into out[0..2]; f64 (the reference). */
export function viewPosition(camera: ResolvedSsaoCamera, x: number, y: number, d: number, width: number, height: number, out: Float64Array): Float64Array {
  const nx = ((x + 0.5) / width) * 2 - 1;
  const ny = 1 - ((y + 0.5) / height) * 2;
  const u = Math.abs(d - camera.farDepth);
  const m = camera.unproject;
  const hx = m[0]! * nx + m[4]! * ny + m[8]! * u + m[12]!;
  const hy = m[1]! * nx + m[5]! * ny + m[9]! * u + m[13]!;
  const hz = m[2]! * nx + m[6]! * ny + m[10]! * u + m[14]!;
  const hw = m[3]! * nx + m[7]! * ny + m[11]! * u + m[15]!;
  out[0] = hx / hw;
  out[1] = hy / hw;
  out[2] = hz / hw;
  return out;
}
