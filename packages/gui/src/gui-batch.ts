// One batch: the vertex data of every object with the same (layer, material) key, in one
// growable typed-array buffer that update and destroy patch in place. Objects own contiguous
// runs of quads. Two ways to patch when a run is freed (measured in BENCHMARKS.md):
//
// - 'free-list': the run becomes a hole of degenerate quads, kept in a free list keyed by its
//   length; a later object of exactly that length takes it, anything else is appended. When
//   holes pass half the buffer, the batch compacts once.
// - 'compact': the tail of the buffer slides down over the run at once (the post's "delete the
//   old data from the batch buffers"), so the buffer never holds holes.
//
// quadOwner marks the first quad of each run: the owner's slot (>= 0) or minus the length of a
// hole. Dirty pages of PAGE_QUADS quads tell the renderer what to upload.
import { QUAD_WORDS } from './vertex-format.ts';

/**
 * How a batch reuses the quads of a destroyed or resized object: `'free-list'` leaves a hole of degenerate quads for a later object of the same length (compacting once holes pass half the buffer); `'compact'` slides the rest of the buffer down at once.
 */
export type PatchingStrategy = 'free-list' | 'compact';

/** Quads per dirty page: the granularity at which a batch tells the renderer what to upload (256 quads, 20 KiB). */
export const PAGE_QUADS = 256;

/** Per-object placement, shared by all batches of one Gui and indexed by object slot. */
export interface Placement {
  start: Int32Array;
  count: Int32Array;
}

/**
 * The vertex data of every object with the same (layer, material) key, in one growable buffer that update and destroy patch in place; objects own contiguous runs of quads.
 */
export class GuiBatch {
  /** Sort key, `layer * 65536 + material`: batches draw in increasing key order. */
  readonly key: number;
  /** Layer of every object in the batch (0 to 65535; lower layers draw first). */
  readonly layer: number;
  /** Material id from a GuiRenderer (0 to 65535). */
  readonly material: number;
  /** Index in the Gui's batch table. */
  readonly index: number;
  /** The vertex data, `QUAD_WORDS` words per quad; replaced (and `generation` bumped) when the batch grows. */
  words: Uint32Array;
  /** The same buffer as `words`, as floats (for the positions). */
  floats: Float32Array;
  /** Per quad: at the first quad of a run, the owning object's slot (0 or more) or minus the length of a hole; other quads of the run are not read. */
  quadOwner: Int32Array;
  /** Quads in use, holes included: what the renderer draws. */
  used = 0;
  /** Quads held by live objects. */
  live = 0;
  /** Quads in holes. */
  holes = 0;
  /** Per page of {@link PAGE_QUADS} quads: 1 when it changed since the last `clearDirty`. */
  dirtyPages: Uint8Array;
  /** Bumped when the buffer is reallocated: the GPU copy must be recreated and fully uploaded. */
  generation = 0;
  /** True when any page is dirty. */
  anyDirty = false;
  /** Free runs by length: a stack of starts per length. */
  readonly #free = new Map<number, number[]>();

  constructor(index: number, layer: number, material: number, capacityQuads = 64) {
    this.index = index;
    this.layer = layer;
    this.material = material;
    this.key = layer * 0x10000 + material;
    this.words = new Uint32Array(capacityQuads * QUAD_WORDS);
    this.floats = new Float32Array(this.words.buffer);
    this.quadOwner = new Int32Array(capacityQuads);
    this.dirtyPages = new Uint8Array(Math.ceil(capacityQuads / PAGE_QUADS));
  }

  /** Quads the buffer holds before it must grow (it doubles). */
  get capacity(): number {
    return this.quadOwner.length;
  }

  #grow(needed: number): void {
    let capacity = this.capacity;
    while (capacity < needed) capacity *= 2;
    const words = new Uint32Array(capacity * QUAD_WORDS);
    words.set(this.words.subarray(0, this.used * QUAD_WORDS));
    const owner = new Int32Array(capacity);
    owner.set(this.quadOwner.subarray(0, this.used));
    this.words = words;
    this.floats = new Float32Array(words.buffer);
    this.quadOwner = owner;
    this.dirtyPages = new Uint8Array(Math.ceil(capacity / PAGE_QUADS));
    this.generation++;
    this.markDirty(0, this.used);
  }

  /** Marks the pages holding quads `start` to `start + count - 1` dirty; nothing when `count` is 0 or less. */
  markDirty(start: number, count: number): void {
    if (count <= 0) return;
    const last = Math.floor((start + count - 1) / PAGE_QUADS);
    for (let p = Math.floor(start / PAGE_QUADS); p <= last; p++) this.dirtyPages[p] = 1;
    this.anyDirty = true;
  }

  /** Marks every page clean, once the renderer has uploaded them. */
  clearDirty(): void {
    if (!this.anyDirty) return;
    this.dirtyPages.fill(0);
    this.anyDirty = false;
  }

  /** Finds room for `count` quads: an exact-length hole, else the end. Returns the start. */
  allocate(count: number, strategy: PatchingStrategy): number {
    if (strategy === 'free-list') {
      const starts = this.#free.get(count);
      const start = starts?.pop();
      if (start !== undefined) {
        this.holes -= count;
        this.live += count;
        return start;
      }
    }
    if (this.used + count > this.capacity) this.#grow(this.used + count);
    const start = this.used;
    this.used += count;
    this.live += count;
    return start;
  }

  /** Writes `count` quads from `source` (QUAD_WORDS words each) at `start`, owned by `slot`. */
  write(start: number, count: number, source: Uint32Array, slot: number): void {
    this.words.set(source.subarray(0, count * QUAD_WORDS), start * QUAD_WORDS);
    this.quadOwner[start] = slot;
    this.markDirty(start, count);
  }

  /** Releases a run; with 'compact' the tail slides down at once and placements are fixed. */
  release(start: number, count: number, strategy: PatchingStrategy, placement: Placement): void {
    this.live -= count;
    if (strategy === 'compact') {
      const end = start + count;
      this.words.copyWithin(start * QUAD_WORDS, end * QUAD_WORDS, this.used * QUAD_WORDS);
      this.quadOwner.copyWithin(start, end, this.used);
      for (let q = start; q < this.used - count; ) {
        const slot = this.quadOwner[q]!;
        placement.start[slot] = q;
        q += placement.count[slot]!;
      }
      this.markDirty(start, this.used - start);
      this.used -= count;
      return;
    }
    if (start + count === this.used) {
      // The last run: just shrink.
      this.used = start;
    } else {
      this.words.fill(0, start * QUAD_WORDS, (start + count) * QUAD_WORDS);
      this.quadOwner[start] = -count;
      this.holes += count;
      let starts = this.#free.get(count);
      if (!starts) {
        starts = [];
        this.#free.set(count, starts);
      }
      starts.push(start);
      this.markDirty(start, count);
    }
    if (this.holes * 2 > this.used && this.holes > PAGE_QUADS) this.compact(placement);
  }

  /** Slides every live run down over the holes, in order. */
  compact(placement: Placement): void {
    if (this.holes === 0) return;
    let write = 0;
    for (let q = 0; q < this.used; ) {
      const owner = this.quadOwner[q]!;
      if (owner < 0) {
        q -= owner;
        continue;
      }
      const count = placement.count[owner]!;
      if (q !== write) {
        this.words.copyWithin(write * QUAD_WORDS, q * QUAD_WORDS, (q + count) * QUAD_WORDS);
        this.quadOwner[write] = owner;
        placement.start[owner] = write;
      }
      write += count;
      q += count;
    }
    this.markDirty(0, write);
    this.used = write;
    this.holes = 0;
    this.#free.clear();
  }

  /** Empties the batch (immediate mode, every frame). */
  clear(): void {
    if (this.used > 0) this.markDirty(0, this.used);
    this.used = 0;
    this.live = 0;
    this.holes = 0;
    this.#free.clear();
  }
}
