// One character's frame: where it is on its circle, its pose from the walk clip, and its bone
// palette. The one-thread frame and the frame workers both call this, so they agree bit for bit.
import { computePalette, sampleClip, type AnimationClip, type PaletteScratch, type Pose, type Skeleton } from '@cuttle/gpu-skinning';

/** Floats per character in a paths array: centre x, z, radius, speed, phase. */
export const PATH_FLOATS = 5;

export interface WalkCycle {
  skeleton: Skeleton;
  clip: AnimationClip;
  pose: Pose;
  scratch: PaletteScratch;
}

const root = new Float64Array(16);

/**
 * Character `k`'s root at `time`: a turn about y by its heading, then where it stands on its
 * circle (column-major, into `out`).
 */
export function walkerRoot(paths: Float32Array, k: number, time: number, walkScale: number, out: Float64Array): void {
  const cx = paths[k * PATH_FLOATS]!, cz = paths[k * PATH_FLOATS + 1]!, radius = paths[k * PATH_FLOATS + 2]!, speed = paths[k * PATH_FLOATS + 3]!, phase = paths[k * PATH_FLOATS + 4]!;
  const angle = phase + (time * speed * walkScale) / radius;
  const heading = -angle;
  const s = Math.sin(heading), c = Math.cos(heading);
  out[0] = c; out[1] = 0; out[2] = -s; out[3] = 0;
  out[4] = 0; out[5] = 1; out[6] = 0; out[7] = 0;
  out[8] = s; out[9] = 0; out[10] = c; out[11] = 0;
  out[12] = cx + Math.cos(angle) * radius; out[13] = 0; out[14] = cz + Math.sin(angle) * radius; out[15] = 1;
}

/** Writes character `k`'s palette (12 floats per joint) into `out`. */
export function walkCharacter(cycle: WalkCycle, paths: Float32Array, k: number, time: number, walkScale: number, out: Float32Array): void {
  sampleClip(cycle.clip, time * walkScale + paths[k * PATH_FLOATS + 4]!, cycle.pose);
  walkerRoot(paths, k, time, walkScale, root);
  computePalette(cycle.skeleton, cycle.pose, out, { scratch: cycle.scratch, rootTransform: root });
}
