// Where the shadow maps look from: the sun's orthographic view fitted around the scene's
// bounding sphere, and each shadow spot's perspective view down its cone.
import { lookAt, orthographic, perspective } from '@cuttle/gpu-culling';
import { multiplyMatrices } from '@cuttle/ecs';
import type { Vec3 } from './api.ts';

function multiply(a: ArrayLike<number>, b: ArrayLike<number>): Float32Array<ArrayBuffer> {
  const out = new Float32Array(16);
  multiplyMatrices(out, 0, Float32Array.from(a), 0, Float32Array.from(b), 0);
  return out;
}

/** An up vector not parallel to `direction`. */
function upFor(direction: Vec3): Vec3 {
  return Math.abs(direction[1]) > 0.99 ? [1, 0, 0] : [0, 1, 0];
}

/** clip-from-world of an orthographic sun view holding the sphere (center, radius). */
export function sunClipFromWorld(direction: Vec3, center: Vec3, radius: number): Float32Array<ArrayBuffer> {
  const r = Math.max(radius, 1e-3);
  const eye: Vec3 = [center[0] - direction[0] * 2 * r, center[1] - direction[1] * 2 * r, center[2] - direction[2] * 2 * r];
  return multiply(orthographic({ left: -r, right: r, bottom: -r, top: r, near: r * 0.5, far: r * 3.5 }), lookAt(eye, center, upFor(direction)));
}

export function spotClipFromWorld(position: Vec3, direction: Vec3, range: number, outerAngle: number): Float32Array<ArrayBuffer> {
  const target: Vec3 = [position[0] + direction[0], position[1] + direction[1], position[2] + direction[2]];
  const fovY = Math.min(Math.PI * 0.95, 2 * outerAngle + 0.05);
  return multiply(perspective({ fovY, aspect: 1, near: Math.max(0.02, range * 0.01), far: range }), lookAt(position, target, upFor(direction)));
}

export { multiply as multiplyMat4 };
