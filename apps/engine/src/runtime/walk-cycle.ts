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

/**
 * Writes character `k`'s palette (12 floats per joint) into `out`, and with `sphere` (the bind
 * pose's bounding sphere: centre xyz, radius, in the mesh's units) its sphere this frame into
 * `bounds[4k .. 4k + 4)`: the bind pose's sphere carried by the root, as @cuttle/render's
 * `setSkinnedBounds` takes them.
 */
export function walkCharacter(cycle: WalkCycle, paths: Float32Array, k: number, time: number, walkScale: number, out: Float32Array, sphere?: Float64Array, bounds?: Float32Array): void {
  sampleClip(cycle.clip, time * walkScale + paths[k * PATH_FLOATS + 4]!, cycle.pose);
  walkerRoot(paths, k, time, walkScale, root);
  computePalette(cycle.skeleton, cycle.pose, out, { scratch: cycle.scratch, rootTransform: root });
  if (sphere && bounds) {
    const x = sphere[0]!, y = sphere[1]!, z = sphere[2]!;
    bounds[k * 4] = root[0]! * x + root[4]! * y + root[8]! * z + root[12]!;
    bounds[k * 4 + 1] = root[1]! * x + root[5]! * y + root[9]! * z + root[13]!;
    bounds[k * 4 + 2] = root[2]! * x + root[6]! * y + root[10]! * z + root[14]!;
    bounds[k * 4 + 3] = sphere[3]!;
  }
}
