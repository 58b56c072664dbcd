// The view camera of slave mode, checked where it comes in (a tool's `camera` message, a slave
// script's setCamera, the level's own camera), so that a frame never fails on it: a camera that
// would make the view matrix throw or overflow is refused with a reason, and a camera looking
// straight along the world's up axis gets another up vector instead of a degenerate basis.
import { lookAt } from '@cuttle/gpu-culling';
import { EngineError } from '../errors.ts';

export type Vec3 = [number, number, number];

export interface CameraInput {
  position: Vec3;
  target: Vec3;
  /** Vertical field of view in radians (default 0.85). */
  fovY?: number;
}

/** Largest coordinate a camera may have: float32 view matrices stay precise and finite well past it. */
export const CAMERA_EXTENT = 1e6;
/** Smallest distance between a camera's position and its target. */
export const MIN_CAMERA_DISTANCE = 1e-3;
const MIN_FOV_Y = 0.05;
const MAX_FOV_Y = 3;
const WORLD_UP: Vec3 = [0, 1, 0];
const SIDE_UP: Vec3 = [0, 0, 1];
/** |cos| of the angle between view direction and world up past which the side up is used. */
const PARALLEL_COS = 0.999;

function checkPoint(name: string, point: readonly number[]): void {
  for (const value of point) {
    if (!Number.isFinite(value)) throw new EngineError(`camera ${name} ${JSON.stringify(point)} is not finite; send three finite numbers.`);
    if (Math.abs(value) > CAMERA_EXTENT) throw new EngineError(`camera ${name} ${JSON.stringify(point)} is outside ±${CAMERA_EXTENT}; move it closer to the level.`);
  }
}

/** Checks a camera; returns a copy the renderer can use or throws an EngineError naming the problem. */
export function checkCamera(camera: CameraInput): CameraInput {
  checkPoint('position', camera.position);
  checkPoint('target', camera.target);
  const distance = Math.hypot(camera.position[0] - camera.target[0], camera.position[1] - camera.target[1], camera.position[2] - camera.target[2]);
  if (distance < MIN_CAMERA_DISTANCE) throw new EngineError(`camera position and target are ${distance} apart; they must be at least ${MIN_CAMERA_DISTANCE} apart.`);
  const { fovY } = camera;
  if (fovY !== undefined && !(fovY > MIN_FOV_Y && fovY < MAX_FOV_Y)) throw new EngineError(`camera fovY ${fovY} must be between ${MIN_FOV_Y} and ${MAX_FOV_Y} radians.`);
  return { position: [...camera.position], target: [...camera.target], ...(fovY === undefined ? {} : { fovY }) };
}

/** The up vector for a view direction: world up, unless the camera looks (almost) along it. */
export function upFor(camera: CameraInput): Vec3 {
  const dx = camera.target[0] - camera.position[0], dy = camera.target[1] - camera.position[1], dz = camera.target[2] - camera.position[2];
  const cos = dy / Math.hypot(dx, dy, dz);
  return Math.abs(cos) > PARALLEL_COS ? SIDE_UP : WORLD_UP;
}

/** The view matrix of a checked camera. */
export function viewMatrix(camera: CameraInput): Float32Array<ArrayBuffer> {
  return lookAt(camera.position, camera.target, upFor(camera));
}
