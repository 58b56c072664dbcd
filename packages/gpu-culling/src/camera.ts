// The camera as culling sees it. All culling happens in "cull space": view space with z
// flipped where needed so that +z points away from the camera and a surface's z is its
// distance along the view axis. The projection decides the flip (perspective: where clip w
// is positive; orthographic: the right-handed convention of glTF and WebGPU tutorials), so
// right- and left-handed perspective cameras both work.
import type { CameraInput, Mat4 } from './api.ts';
import { GpuCullingError } from './errors.ts';
import { allFinite, invert, multiply } from './math.ts';

/** A camera prepared for culling: the matrices between world, cull and clip space and how depth-buffer values map to cull-space depth. Made by `resolveCamera`. */
export interface CullCamera {
  /** World to cull space. */
  cullFromWorld: Float64Array;
  /** Cull space to world (the inverse of `cullFromWorld`). */
  worldFromCull: Float64Array;
  /** Cull space to clip space (the projection with the flip folded in). */
  clipFromCull: Float64Array;
  /** Clip (NDC) to cull space. */
  cullFromClip: Float64Array;
  /**
   * A depth-buffer value d maps to cull-space z = (a u + b) / (c u + e) with u = |d - farDepth|,
   * its distance from the far value: written around the far end so that f32 does not cancel
   * catastrophically there (1 - d is exact for d at least 0.5), which a formula in d itself would.
   */
  depthCoefficients: readonly [number, number, number, number];
  /** The depth value that means "no surface" (what the depth buffer is cleared to): 1, or 0 with reversed Z. */
  farDepth: 0 | 1;
  /** Whether the projection maps near to depth 1 and far to 0. */
  reversedZ: boolean;
  /** Whether the projection is orthographic (else perspective). */
  orthographic: boolean;
  /** The camera's world position (for shading). */
  position: readonly [number, number, number];
  /** world-from-clip: the inverse view-projection (for shading: world positions from depth). */
  worldFromClip: Float64Array;
}

const RIGID_TOLERANCE = 1e-3;

function requireMatrix(name: string, m: Mat4): void {
  if (m.length < 16 || !allFinite(m, 16)) throw new GpuCullingError(`camera.${name} must be 16 finite numbers (a column-major 4x4 matrix).`);
}

/** Checks the camera and derives everything culling needs from it. */
export function resolveCamera(camera: CameraInput): CullCamera {
  const { view, projection } = camera;
  requireMatrix('view', view);
  requireMatrix('projection', projection);
  for (let c = 0; c < 3; c++) {
    const length = Math.hypot(view[c * 4]!, view[c * 4 + 1]!, view[c * 4 + 2]!);
    if (Math.abs(length - 1) > RIGID_TOLERANCE || Math.abs(view[c * 4 + 3]!) > RIGID_TOLERANCE) {
      throw new GpuCullingError('camera.view must be rigid (rotation and translation only): scale the scene, not the view matrix.');
    }
  }
  if (Math.abs(view[15]! - 1) > RIGID_TOLERANCE) throw new GpuCullingError('camera.view must be an affine matrix (last row 0, 0, 0, 1).');

  const orthographic = projection[3] === 0 && projection[7] === 0 && projection[11] === 0;
  // Perspective: forward is where clip w grows with view z. Orthographic: -z (right-handed).
  const forward = orthographic ? -1 : Math.sign(projection[11]!);
  if (forward === 0) throw new GpuCullingError('camera.projection is neither perspective (w from z) nor orthographic (w = 1).');
  const flip = new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, forward, 0, 0, 0, 0, 1]);
  const inverseProjection = invert(projection);
  if (!inverseProjection) throw new GpuCullingError('camera.projection is singular; give a perspective or orthographic projection.');
  const cullFromWorld = multiply(flip, view);
  const worldFromCull = invert(cullFromWorld)!;
  const clipFromCull = multiply(projection, flip);
  const cullFromClip = multiply(flip, inverseProjection);
  // z = (a d + b) / (c d + e) in the depth value d itself.
  const [a, b, c, e] = [cullFromClip[10]!, cullFromClip[14]!, cullFromClip[11]!, cullFromClip[15]!];
  const depthAt = (d: number): number => {
    const w = c * d + e;
    return w === 0 ? Infinity : (a * d + b) / w;
  };
  const near = depthAt(0);
  const far = depthAt(1);
  if (Number.isNaN(near) || Number.isNaN(far) || near === far) throw new GpuCullingError('camera.projection maps depth 0 and 1 to the same distance; it cannot be culled against.');
  const reversedZ = near > far;
  // In u = |d - farDepth|: reversed Z already has its far value at 0; standard Z substitutes d = 1 - u.
  const depthCoefficients = reversedZ ? ([a, b, c, e] as const) : ([-a, a + b, -c, c + e] as const);
  const worldFromView = invert(view)!;
  const worldFromClip = multiply(worldFromView, inverseProjection);
  return {
    cullFromWorld,
    worldFromCull,
    clipFromCull,
    cullFromClip,
    depthCoefficients,
    farDepth: reversedZ ? 0 : 1,
    reversedZ,
    orthographic,
    position: [worldFromView[12]!, worldFromView[13]!, worldFromView[14]!],
    worldFromClip,
  };
}
