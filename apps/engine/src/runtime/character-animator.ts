// A character set's per-frame animation: every walker's position on its circle, its pose from
// the clip and its bone palette, into one palette array in shared memory. On one thread, or
// as a Dispatch on @cuttle/jobs workers (the frame's CPU work that grows with the level); both
// run walkCharacter on the same inputs, so the palettes are the same bit for bit.
import { createPaletteScratch, createPose, type AnimationClip, type Skeleton } from '@cuttle/gpu-skinning';
import type { JobSystem } from '@cuttle/jobs';
import { walkCharacter, PATH_FLOATS, type WalkCycle } from './walk-cycle.ts';

/** Characters per job group: tens of microseconds of work (enough to amortize a claim), and at least 64 groups for a big crowd. */
function groupSize(count: number): number {
  return Math.min(32, Math.max(4, Math.ceil(count / 64)));
}

export class CharacterAnimator {
  readonly count: number;
  readonly paletteFloats: number;
  /** Every character's palette, `paletteFloats` apart. */
  readonly palettes: Float32Array;
  readonly #paths: Float32Array;
  readonly #mesh: Uint8Array;
  readonly #cycle: WalkCycle;

  /** `meshBytes`: the compiled mesh container (workers read the skeleton and clip from it); `paths`: PATH_FLOATS per character. */
  constructor(skeleton: Skeleton, clip: AnimationClip, meshBytes: Uint8Array, paths: Float32Array) {
    this.count = paths.length / PATH_FLOATS;
    this.paletteFloats = skeleton.jointCount * 12;
    this.#cycle = { skeleton, clip, pose: createPose(skeleton), scratch: createPaletteScratch(skeleton) };
    this.palettes = new Float32Array(new SharedArrayBuffer(Math.max(1, this.count * this.paletteFloats) * 4));
    this.#paths = new Float32Array(new SharedArrayBuffer(Math.max(1, paths.length) * 4));
    this.#paths.set(paths);
    this.#mesh = new Uint8Array(new SharedArrayBuffer(meshBytes.byteLength));
    this.#mesh.set(meshBytes);
  }

  /** The palette of character `k` (a view of `palettes`). */
  palette(k: number): Float32Array {
    return this.palettes.subarray(k * this.paletteFloats, (k + 1) * this.paletteFloats);
  }

  /** Animates every character at `time`; with `jobs`, as a Dispatch the calling thread helps with. */
  animate(time: number, walkScale: number, jobs?: JobSystem): void {
    if (jobs) {
      jobs.dispatch(this.count, groupSize(this.count), 'walkCharacters', this.#mesh, this.#paths, this.palettes, this.paletteFloats, time, walkScale);
      jobs.wait();
      return;
    }
    for (let k = 0; k < this.count; k++) walkCharacter(this.#cycle, this.#paths, k, time, walkScale, this.palette(k));
  }
}
