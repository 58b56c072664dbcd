// A character set's per-frame animation: every walker's position on its circle, its pose from
// the clip and its bone palette, into one palette array in shared memory. On one thread, or
// as a Dispatch on @cuttle/jobs workers (the frame's CPU work that grows with the level); both
// run walkCharacter on the same inputs, so the palettes are the same bit for bit.
import { createPaletteScratch, createPose, type AnimationClip, type Skeleton } from '@cuttle/gpu-skinning';
import type { JobSystem } from '@cuttle/jobs';
import { walkCharacter, walkerRoot, PATH_FLOATS, type WalkCycle } from './walk-cycle.ts';

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
  readonly #root = new Float64Array(16);

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

  /**
   * Every character's bounding sphere at `time` (world centre xyz, radius; 4 floats each, into
   * `out`): the bind pose's sphere (`center`, `radius`, in the mesh's units) carried by its root,
   * as @cuttle/render's `setSkinnedBounds` takes them. Allocates nothing.
   */
  bounds(time: number, walkScale: number, center: readonly [number, number, number], radius: number, out: Float32Array): void {
    const root = this.#root;
    const [x, y, z] = center;
    for (let k = 0; k < this.count; k++) {
      walkerRoot(this.#paths, k, time, walkScale, root);
      out[k * 4] = root[0]! * x + root[4]! * y + root[8]! * z + root[12]!;
      out[k * 4 + 1] = root[1]! * x + root[5]! * y + root[9]! * z + root[13]!;
      out[k * 4 + 2] = root[2]! * x + root[6]! * y + root[10]! * z + root[14]!;
      out[k * 4 + 3] = radius;
    }
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
