// A character set's per-frame animation: every walker's position on its circle, its pose from
// the clip, its bone palette and its bounding sphere, into one palette array and one bounds
// array in shared memory. On one thread, or as a Dispatch on @cuttle/jobs workers (the frame's
// CPU work that grows with the level); both run walkCharacter on the same inputs, so the
// palettes and spheres are the same bit for bit.
import { createPaletteScratch, createPose, type AnimationClip, type Skeleton } from '@cuttle/gpu-skinning';
import type { JobSystem } from '@cuttle/jobs';
import { walkCharacter, PATH_FLOATS, type WalkCycle } from './walk-cycle.ts';

/** The bind pose's bounding sphere, in the mesh's units. */
export interface BindSphere {
  center: readonly [number, number, number];
  radius: number;
}

/** Characters per job group: tens of microseconds of work (enough to amortize a claim), and at least 64 groups for a big crowd. */
function groupSize(count: number): number {
  return Math.min(32, Math.max(4, Math.ceil(count / 64)));
}

export class CharacterAnimator {
  readonly count: number;
  readonly paletteFloats: number;
  /** Every character's palette, `paletteFloats` apart. */
  readonly palettes: Float32Array;
  /**
   * Every character's bounding sphere this frame (world centre xyz, radius; 4 floats each): the
   * bind pose's sphere carried by its root, as @cuttle/render's `setSkinnedBounds` takes them.
   */
  readonly bounds: Float32Array;
  readonly #paths: Float32Array;
  readonly #mesh: Uint8Array;
  readonly #cycle: WalkCycle;
  /** The bind pose's sphere: centre xyz, radius. */
  readonly #sphere: Float64Array;

  /** `meshBytes`: the compiled mesh container (workers read the skeleton and clip from it); `paths`: PATH_FLOATS per character. */
  constructor(skeleton: Skeleton, clip: AnimationClip, meshBytes: Uint8Array, paths: Float32Array, sphere: BindSphere) {
    this.count = paths.length / PATH_FLOATS;
    this.paletteFloats = skeleton.jointCount * 12;
    this.#cycle = { skeleton, clip, pose: createPose(skeleton), scratch: createPaletteScratch(skeleton) };
    this.palettes = new Float32Array(new SharedArrayBuffer(Math.max(1, this.count * this.paletteFloats) * 4));
    this.bounds = new Float32Array(new SharedArrayBuffer(Math.max(1, this.count * 4) * 4));
    this.#sphere = new Float64Array(new SharedArrayBuffer(32));
    this.#sphere.set([...sphere.center, sphere.radius]);
    this.#paths = new Float32Array(new SharedArrayBuffer(Math.max(1, paths.length) * 4));
    this.#paths.set(paths);
    this.#mesh = new Uint8Array(new SharedArrayBuffer(meshBytes.byteLength));
    this.#mesh.set(meshBytes);
  }

  /** The shared memory the workers are given: a world that is done with the animator releases it from the JobSystem. */
  get sharedBuffers(): SharedArrayBuffer[] {
    return [this.palettes, this.bounds, this.#sphere, this.#paths, this.#mesh].map((array) => array.buffer as SharedArrayBuffer);
  }

  /** The palette of character `k` (a view of `palettes`). */
  palette(k: number): Float32Array {
    return this.palettes.subarray(k * this.paletteFloats, (k + 1) * this.paletteFloats);
  }

  /** Animates every character at `time` (palettes and bounds); with `jobs`, as a Dispatch the calling thread helps with. */
  animate(time: number, walkScale: number, jobs?: JobSystem): void {
    if (jobs) {
      jobs.dispatch(this.count, groupSize(this.count), 'walkCharacters', this.#mesh, this.#paths, this.palettes, this.paletteFloats, time, walkScale, this.#sphere, this.bounds);
      jobs.wait();
      return;
    }
    for (let k = 0; k < this.count; k++) walkCharacter(this.#cycle, this.#paths, k, time, walkScale, this.palette(k), this.#sphere, this.bounds);
  }
}
