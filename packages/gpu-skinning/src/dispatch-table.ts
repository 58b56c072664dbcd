// The CPU side of the dispatch table: one record per instance (mesh vertex range, palette
// offset and size, output offset) and, each frame, the work list that sends every instance
// due this frame to the GPU in chunks of one workgroup each. The skinning LOD lives here:
// a far instance is skinned every Nth frame (staggered by instance so the load spreads), held
// once on the first frame it skips (previous = current: the drawn mesh did not move), then
// left alone until it is due again.
import type { SkinMode } from './api.ts';

/** Words per instance record in the GPU table (see common.wgsl). */
export const INSTANCE_WORDS = 8;
/** Words per work item. */
export const WORK_WORDS = 2;
const MODE_BITS: Record<SkinMode, number> = { skin: 0, reset: 1, hold: 2 };
/** Instance indices must fit under the two mode bits. */
export const MAX_INSTANCES = 1 << 30;

const FLAG_FAR = 1;
const FLAG_RESET = 2;
/** Set after a far instance's hold, until it is skinned again. */
const FLAG_HELD = 4;

/** What one frame's work list does. */
export interface FrameWork {
  /** Work items written (one workgroup each). */
  workItems: number;
  /** Instances skinned ('skin' or 'reset'). */
  skinned: number;
  /** Far instances whose previous positions were set to the current ones this frame. */
  held: number;
  /** Far instances left untouched this frame. */
  skipped: number;
  /** Vertices skinned. */
  vertices: number;
}

/** The host side of the GPU dispatch table: one record per instance (its vertices, palette and output), and per instance the skinning-LOD flags from which each frame's work list is built. Used by {@link GpuSkinning}; exported for tests and tools. */
export class DispatchTable {
  /** The instance records, as uploaded to the front of the GPU table. */
  readonly records: Uint32Array<ArrayBuffer>;
  readonly #flags: Uint8Array;
  #count = 0;

  /** A table with room for `capacity` instances. */
  constructor(
    /** Instances the table has room for. */
    readonly capacity: number,
  ) {
    this.records = new Uint32Array(capacity * INSTANCE_WORDS);
    this.#flags = new Uint8Array(capacity);
  }

  /** Instances added. */
  get count(): number {
    return this.#count;
  }

  /** Adds an instance (first skin is a reset); returns its index. Capacity is checked by the caller. */
  add(sourceVertex: number, vertexCount: number, paletteOffset: number, boneCount: number, outputVertex: number, far: boolean): number {
    const index = this.#count++;
    this.records.set([sourceVertex, vertexCount, paletteOffset, boneCount, outputVertex, 0, 0, 0], index * INSTANCE_WORDS);
    this.#flags[index] = FLAG_RESET | (far ? FLAG_FAR : 0);
    return index;
  }

  /** Marks instance `index` far (skinned every LOD interval) or near (skinned every frame). */
  setFar(index: number, far: boolean): void {
    const flags = this.#flags[index]!;
    // An instance that comes near is skinned every frame from now on; HELD only matters while far.
    this.#flags[index] = far ? flags | FLAG_FAR : flags & ~(FLAG_FAR | FLAG_HELD);
  }

  /** Whether instance `index` is far. */
  isFar(index: number): boolean {
    return (this.#flags[index]! & FLAG_FAR) !== 0;
  }

  /** The next frame skins this instance whatever its LOD and sets previous = current. */
  requestReset(index: number): void {
    this.#flags[index]! |= FLAG_RESET;
  }

  /** Vertices of instance `index`. */
  vertexCount(index: number): number {
    return this.records[index * INSTANCE_WORDS + 1]!;
  }

  /** Which mode frame `frame` gives instance `index`, or null when it is skipped (no state change). */
  modeFor(index: number, frame: number, lodInterval: number): SkinMode | null {
    const flags = this.#flags[index]!;
    if ((flags & FLAG_RESET) !== 0) return 'reset';
    if ((flags & FLAG_FAR) === 0 || (frame + index) % lodInterval === 0) return 'skin';
    return (flags & FLAG_HELD) === 0 ? 'hold' : null;
  }

  /**
   * Writes frame `frame`'s work items into `out` (WORK_WORDS each, `chunk` vertices per item)
   * and advances the LOD state as if the GPU ran them. `out` must hold workItemsBound(chunk).
   */
  buildFrame(frame: number, lodInterval: number, chunk: number, out: Uint32Array): FrameWork {
    const work: FrameWork = { workItems: 0, skinned: 0, held: 0, skipped: 0, vertices: 0 };
    let at = 0;
    for (let index = 0; index < this.#count; index++) {
      const mode = this.modeFor(index, frame, lodInterval);
      const flags = this.#flags[index]!;
      if (mode === null) {
        work.skipped++;
        continue;
      }
      if (mode === 'hold') {
        work.held++;
        this.#flags[index] = flags | FLAG_HELD;
      } else {
        work.skinned++;
        this.#flags[index] = flags & ~(FLAG_RESET | FLAG_HELD);
      }
      const vertexCount = this.vertexCount(index);
      if (mode !== 'hold') work.vertices += vertexCount;
      const head = (index | (MODE_BITS[mode] << 30)) >>> 0;
      for (let first = 0; first < vertexCount; first += chunk) {
        out[at++] = head;
        out[at++] = first;
      }
    }
    work.workItems = at / WORK_WORDS;
    return work;
  }

  /** A copy of the LOD and reset state, to undo a buildFrame whose work is then refused. */
  saveState(): Uint8Array {
    return this.#flags.slice(0, this.#count);
  }

  /** Puts back the state `saveState` returned. */
  restoreState(state: Uint8Array): void {
    this.#flags.set(state);
  }

  /** The most work items a frame can produce with `chunk` vertices per item. */
  workItemsBound(chunk: number): number {
    let items = 0;
    for (let index = 0; index < this.#count; index++) items += Math.ceil(this.vertexCount(index) / chunk);
    return items;
  }
}
