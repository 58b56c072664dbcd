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

/** Writes character `k`'s palette (12 floats per joint) into `out`. */
export function walkCharacter(cycle: WalkCycle, paths: Float32Array, k: number, time: number, walkScale: number, out: Float32Array): void {
  const cx = paths[k * PATH_FLOATS]!, cz = paths[k * PATH_FLOATS + 1]!, radius = paths[k * PATH_FLOATS + 2]!, speed = paths[k * PATH_FLOATS + 3]!, phase = paths[k * PATH_FLOATS + 4]!;
  const angle = phase + (time * speed * walkScale) / radius;
  const heading = -angle;
  sampleClip(cycle.clip, time * walkScale + phase, cycle.pose);
  const s = Math.sin(heading), c = Math.cos(heading);
  root[0] = c; root[1] = 0; root[2] = -s; root[3] = 0;
  root[4] = 0; root[5] = 1; root[6] = 0; root[7] = 0;
  root[8] = s; root[9] = 0; root[10] = c; root[11] = 0;
  root[12] = cx + Math.cos(angle) * radius; root[13] = 0; root[14] = cz + Math.sin(angle) * radius; root[15] = 1;
  computePalette(cycle.skeleton, cycle.pose, out, { scratch: cycle.scratch, rootTransform: root });
}
