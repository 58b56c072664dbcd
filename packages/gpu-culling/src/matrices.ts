// Camera matrices in the convention culling expects (column-major, right-handed view space,
// WebGPU clip depth 0..1), for the examples and for users without a matrix library.
import type { Vec3 } from './api.ts';
import { GpuCullingError } from './errors.ts';

/** Options of {@link perspective}. */
export interface PerspectiveOptions {
  /** Vertical field of view in radians. */
  fovY: number;
  /** Width / height. */
  aspect: number;
  /** Distance to the near plane, in world units (positive). */
  near: number;
  /** Infinity for an infinite far plane. */
  far: number;
  /** Map near to depth 1 and far to 0 (reversed Z; clear depth to 0 and compare 'greater'). */
  reversedZ?: boolean;
}

/** A right-handed perspective projection (camera looking down -z) to WebGPU clip space (depth 0 to 1), column-major. Throws a {@link GpuCullingError} unless fovY is in (0, pi), aspect is positive and near is positive and below far. */
export function perspective({ fovY, aspect, near, far, reversedZ = false }: PerspectiveOptions): Float32Array<ArrayBuffer> {
  if (!(fovY > 0 && fovY < Math.PI) || !(aspect > 0) || !(near > 0) || !(far > near)) {
    throw new GpuCullingError(`perspective needs 0 < fovY < pi, aspect > 0 and 0 < near < far, got fovY ${fovY}, aspect ${aspect}, near ${near}, far ${far}.`);
  }
  const f = 1 / Math.tan(fovY / 2);
  const m = new Float32Array(16);
  m[0] = f / aspect;
  m[5] = f;
  m[11] = -1;
  // depth = (m10 z + m14) / -z for view z = -distance.
  if (reversedZ) {
    m[10] = far === Infinity ? 0 : near / (far - near);
    m[14] = far === Infinity ? near : (far * near) / (far - near);
  } else {
    m[10] = far === Infinity ? -1 : far / (near - far);
    m[14] = far === Infinity ? -near : (far * near) / (near - far);
  }
  return m;
}

/** Options of {@link orthographic}: the view volume's planes, in view-space units. */
export interface OrthographicOptions {
  /** x of the left plane. */
  left: number;
  /** x of the right plane (above `left`). */
  right: number;
  /** y of the bottom plane. */
  bottom: number;
  /** y of the top plane (above `bottom`). */
  top: number;
  /** Distance to the near plane. */
  near: number;
  /** Distance to the far plane (above `near`). */
  far: number;
}

/** A right-handed orthographic projection to WebGPU clip space (depth 0 to 1), column-major. Throws a {@link GpuCullingError} unless right exceeds left, top exceeds bottom and far exceeds near. */
export function orthographic({ left, right, bottom, top, near, far }: OrthographicOptions): Float32Array<ArrayBuffer> {
  if (!(right > left) || !(top > bottom) || !(far > near)) throw new GpuCullingError('orthographic needs right > left, top > bottom and far > near.');
  const m = new Float32Array(16);
  m[0] = 2 / (right - left);
  m[5] = 2 / (top - bottom);
  m[10] = 1 / (near - far);
  m[12] = (right + left) / (left - right);
  m[13] = (top + bottom) / (bottom - top);
  m[14] = near / (near - far);
  m[15] = 1;
  return m;
}

/** World-to-view for a camera at `eye` looking at `target` (right-handed: the camera looks down -z). */
export function lookAt(eye: Vec3, target: Vec3, up: Vec3 = [0, 1, 0]): Float32Array<ArrayBuffer> {
  let zx = eye[0] - target[0], zy = eye[1] - target[1], zz = eye[2] - target[2];
  const zl = Math.hypot(zx, zy, zz);
  if (zl === 0) throw new GpuCullingError('lookAt needs eye and target to differ.');
  zx /= zl; zy /= zl; zz /= zl;
  let xx = up[1] * zz - up[2] * zy, xy = up[2] * zx - up[0] * zz, xz = up[0] * zy - up[1] * zx;
  const xl = Math.hypot(xx, xy, xz);
  if (xl === 0) throw new GpuCullingError('lookAt needs an up vector that is not parallel to the view direction.');
  xx /= xl; xy /= xl; xz /= xl;
  const yx = zy * xz - zz * xy, yy = zz * xx - zx * xz, yz = zx * xy - zy * xx;
  const m = new Float32Array(16);
  m.set([xx, yx, zx, 0, xy, yy, zy, 0, xz, yz, zz, 0]);
  m[12] = -(xx * eye[0] + xy * eye[1] + xz * eye[2]);
  m[13] = -(yx * eye[0] + yy * eye[1] + yz * eye[2]);
  m[14] = -(zx * eye[0] + zy * eye[1] + zz * eye[2]);
  m[15] = 1;
  return m;
}

/** The world matrix of a box: centre, half-sizes along its local axes, and a rotation about y (radians). */
export function boxMatrix(center: Vec3, halfSize: Vec3, yaw = 0): Float32Array<ArrayBuffer> {
  const c = Math.cos(yaw), s = Math.sin(yaw);
  const m = new Float32Array(16);
  m.set([c * halfSize[0], 0, -s * halfSize[0], 0, 0, halfSize[1], 0, 0, s * halfSize[2], 0, c * halfSize[2], 0, center[0], center[1], center[2], 1]);
  return m;
}
