// The benchmark's camera, as packages/render/bench/frame.gpu.ts has it: it drifts around the
// courtyard with the clock. Kept as numbers (eye, target, field of view) so every contender
// builds its own camera from the same ones.
export type Vec3 = [number, number, number];

export interface CourtyardView {
  eye: Vec3;
  target: Vec3;
  /** Vertical field of view, radians. */
  fovY: number;
  near: number;
  /** The frame's size in pixels (its aspect is the projection's). */
  width: number;
  height: number;
}

/** frame.gpu.ts's `cameraAt(clock, aspect)`: lookAt([14 cos(0.1 clock), 9, 22], [0, 0, -2]), fovY 0.9, near 0.1. */
export function courtyardViewAt(clock: number, width: number, height: number): CourtyardView {
  return { eye: [14 * Math.cos(clock * 0.1), 9, 22], target: [0, 0, -2], fovY: 0.9, near: 0.1, width, height };
}
