// BitSquid's dual-mode GUI. Every object is an id, a batch key (layer, material) and vertex
// data made by its kind's function; the Gui appends the data to the batch with that key.
// update() resends all of an object's data (the kind's function runs again from the new
// parameters: nothing about the object is kept but where its quads are). Retained and
// immediate mode are this one implementation: in immediate mode beginFrame() clears every
// batch, so whatever create() drew lasts one frame.
import { GuiBatch, type Placement, type PatchingStrategy } from './gui-batch.ts';
import { GuiEmitter } from './gui-emitter.ts';
import { GuiError } from './errors.ts';
import { builtinKinds, type BuiltinKindParams, type GuiKind } from './gui-kinds.ts';

/** `'retained'`: objects live until destroyed. `'immediate'`: `beginFrame()` clears every object, so what `create()` drew lasts one frame. */
export type GuiMode = 'retained' | 'immediate';

/** Options of a {@link Gui}; both have defaults. */
export interface GuiOptions {
  /** 'retained' (default): objects live until destroyed. 'immediate': beginFrame() clears everything. */
  mode?: GuiMode;
  /** How freed vertex runs are reused (default 'free-list'; see BENCHMARKS.md). */
  patching?: PatchingStrategy;
}

/** An object handle: slot in the low 20 bits, a generation above it. */
export type GuiId = number;

const SLOT_BITS = 20;
const SLOT_MASK = (1 << SLOT_BITS) - 1;
const GENERATION_MASK = 0x7ff;

/** A clip rectangle in pixels: objects that name it draw only inside it. */
export interface ClipRect {
  /** Left edge in pixels. */
  x: number;
  /** Top edge in pixels. */
  y: number;
  /** Width in pixels. */
  width: number;
  /** Height in pixels. */
  height: number;
}

/**
 * BitSquid's dual-mode GUI: every object is an id, a batch key (layer, material) and vertex data made by its kind's function, appended to the batch with that key; `update` reruns the kind and patches the batch in place. Retained and immediate mode are this one implementation. Draw it with a {@link GuiRenderer}.
 */
export class Gui {
  /** Retained or immediate (the `mode` option, default `'retained'`). */
  readonly mode: GuiMode;
  /** How freed vertex runs are reused (the `patching` option, default `'free-list'`). */
  readonly patching: PatchingStrategy;
  /** Batches in draw order: by layer, then material. */
  readonly batches: GuiBatch[] = [];
  /** Clip rectangles as x0, y0, x1, y1; entry 0 is "no clip". */
  clipRects = new Float32Array(4 * 16);
  /** Clip rectangles in use in `clipRects`, entry 0 ("no clip") included. */
  clipCount = 1;
  /** Bumped whenever clip rectangles change (the renderer re-uploads them). */
  clipVersion = 0;
  readonly #byKey = new Map<number, GuiBatch>();
  readonly #byIndex: GuiBatch[] = [];
  readonly #kinds: GuiKind<never>[] = [];
  readonly #kindIndex = new Map<string, number>();
  readonly #emitter = new GuiEmitter();
  // Per object slot: batch index (-1 when free), kind, generation, placement.
  #batchOf = new Int32Array(1024).fill(-1);
  #kindOf = new Uint16Array(1024);
  #generation = new Uint16Array(1024);
  #placement: Placement = { start: new Int32Array(1024), count: new Int32Array(1024) };
  #freeSlots = new Int32Array(1024);
  #freeCount = 0;
  #nextSlot = 0;
  #liveObjects = 0;

  constructor(options: GuiOptions = {}) {
    const mode: string = options.mode ?? 'retained';
    const patching: string = options.patching ?? 'free-list';
    if (mode !== 'retained' && mode !== 'immediate') throw new GuiError(`mode must be 'retained' or 'immediate', got ${mode}.`);
    if (patching !== 'free-list' && patching !== 'compact') throw new GuiError(`patching must be 'free-list' or 'compact', got ${patching}.`);
    this.mode = mode;
    this.patching = patching;
    this.clipRects.set([-1e9, -1e9, 1e9, 1e9]);
    const kinds: [string, GuiKind<never>][] = Object.entries(builtinKinds);
    for (const [name, kind] of kinds) this.registerKind(name, kind);
  }

  /**
   * Adds an object kind: one function that sets the batch key and writes the vertex data
   * from the parameters (the post's extension point).
   */
  registerKind<P>(name: string, kind: GuiKind<P>): void {
    if (this.#kindIndex.has(name)) throw new GuiError(`object kind "${name}" is already registered.`);
    if (typeof kind !== 'function') throw new GuiError(`object kind "${name}" must be a function (params, emitter) => void.`);
    this.#kindIndex.set(name, this.#kinds.length);
    this.#kinds.push(kind);
  }

  /** Objects created and not yet destroyed. */
  get liveObjects(): number {
    return this.#liveObjects;
  }

  /** Draw calls this GUI needs: one per non-empty batch. */
  get drawCalls(): number {
    let n = 0;
    for (const b of this.batches) if (b.used > 0) n++;
    return n;
  }

  /** Immediate mode: clears every batch and clip rectangle. Retained mode: nothing to do. */
  beginFrame(): void {
    if (this.mode !== 'immediate') return;
    for (const batch of this.batches) batch.clear();
    // Last frame's ids die here; each slot's generation moves on when it is handed out again.
    this.#batchOf.fill(-1, 0, this.#nextSlot);
    this.#nextSlot = 0;
    this.#freeCount = 0;
    this.#liveObjects = 0;
    if (this.clipCount > 1) {
      this.clipCount = 1;
      this.clipVersion++;
    }
  }

  /** Adds a clip rectangle for objects to name as `clip`; returns its index. */
  addClip(rect: ClipRect): number {
    if (this.clipCount >= 0xffff) throw new GuiError('too many clip rectangles (65535).');
    if ((this.clipCount + 1) * 4 > this.clipRects.length) {
      const grown = new Float32Array(this.clipRects.length * 2);
      grown.set(this.clipRects);
      this.clipRects = grown;
    }
    const index = this.clipCount++;
    this.setClip(index, rect);
    return index;
  }

  /** Moves a clip rectangle (objects using it are clipped by the new one at once). */
  setClip(index: number, rect: ClipRect): void {
    if (!Number.isInteger(index) || index < 1 || index >= this.clipCount) throw new GuiError(`clip ${index} does not exist (1..${this.clipCount - 1}).`);
    this.clipRects[index * 4] = rect.x;
    this.clipRects[index * 4 + 1] = rect.y;
    this.clipRects[index * 4 + 2] = rect.x + rect.width;
    this.clipRects[index * 4 + 3] = rect.y + rect.height;
    this.clipVersion++;
  }

  #slotOf(id: GuiId, what: string): number {
    const slot = id & SLOT_MASK;
    if (!Number.isInteger(id) || id < 0 || slot >= this.#batchOf.length || this.#batchOf[slot]! < 0 || this.#generation[slot] !== id >>> SLOT_BITS) {
      throw new GuiError(`${what}: ${id} is not a live object of this GUI (destroyed, from an earlier immediate-mode frame, or from another GUI).`);
    }
    return slot;
  }

  #growSlots(): void {
    const n = this.#batchOf.length * 2;
    const batchOf = new Int32Array(n).fill(-1);
    batchOf.set(this.#batchOf);
    this.#batchOf = batchOf;
    const kindOf = new Uint16Array(n);
    kindOf.set(this.#kindOf);
    this.#kindOf = kindOf;
    const generation = new Uint16Array(n);
    generation.set(this.#generation);
    this.#generation = generation;
    const start = new Int32Array(n);
    start.set(this.#placement.start);
    const count = new Int32Array(n);
    count.set(this.#placement.count);
    this.#placement = { start, count };
    const free = new Int32Array(n);
    free.set(this.#freeSlots);
    this.#freeSlots = free;
  }

  #batch(layer: number, material: number): GuiBatch {
    const key = layer * 0x10000 + material;
    let batch = this.#byKey.get(key);
    if (!batch) {
      batch = new GuiBatch(this.batches.length, layer, material);
      this.#byKey.set(key, batch);
      this.#byIndex.push(batch);
      this.batches.push(batch);
      this.batches.sort((a, b) => a.key - b.key);
    }
    return batch;
  }

  /** Runs a kind into the emitter; throws (changing nothing) if it sets no key. */
  #build(kind: number, params: unknown, name: string): GuiEmitter {
    const emitter = this.#emitter;
    const clip = (params as { clip?: number } | null)?.clip ?? 0;
    if (!Number.isInteger(clip) || clip < 0 || clip >= this.clipCount) throw new GuiError(`${name}: clip ${clip} does not exist (add it with addClip).`);
    emitter.reset(clip);
    (this.#kinds[kind] as GuiKind<unknown>)(params, emitter);
    if (emitter.layer < 0) throw new GuiError(`${name}: the object kind wrote no batch key (call emitter.key(layer, material)).`);
    return emitter;
  }

  /** Creates an object of a registered kind and returns its id. */
  create<K extends keyof BuiltinKindParams>(kind: K, params: BuiltinKindParams[K]): GuiId;
  /**
   * Creates an object of a kind added with `registerKind` and returns its id. Throws {@link GuiError} for an unknown kind, a clip index that does not exist, or parameters the kind rejects (nothing is created).
   */
  create(kind: string, params: unknown): GuiId;
  create(kind: string, params: unknown): GuiId {
    const kindIndex = this.#kindIndex.get(kind);
    if (kindIndex === undefined) throw new GuiError(`create: unknown object kind "${kind}" (built in: ${Object.keys(builtinKinds).join(', ')}; add others with registerKind).`);
    const emitter = this.#build(kindIndex, params, `create("${kind}")`);
    let slot: number;
    if (this.#freeCount > 0) slot = this.#freeSlots[--this.#freeCount]!;
    else {
      if (this.#nextSlot === this.#batchOf.length) {
        if (this.#nextSlot > SLOT_MASK) throw new GuiError(`create: more than ${SLOT_MASK + 1} live objects.`);
        this.#growSlots();
      }
      slot = this.#nextSlot++;
    }
    const batch = this.#batch(emitter.layer, emitter.material);
    const start = batch.allocate(emitter.quads, this.patching);
    if (emitter.quads > 0) batch.write(start, emitter.quads, emitter.words, slot);
    this.#batchOf[slot] = batch.index;
    this.#kindOf[slot] = kindIndex;
    this.#placement.start[slot] = start;
    this.#placement.count[slot] = emitter.quads;
    const generation = (this.#generation[slot]! + 1) & GENERATION_MASK;
    this.#generation[slot] = generation;
    this.#liveObjects++;
    return generation * (SLOT_MASK + 1) + slot;
  }

  /** Regenerates an object from new parameters (its kind stays; key and size may change). */
  update(id: GuiId, params: unknown): void {
    const slot = this.#slotOf(id, 'update');
    const emitter = this.#build(this.#kindOf[slot]!, params, 'update');
    const old = this.#batchByIndex(this.#batchOf[slot]!);
    const start = this.#placement.start[slot]!;
    const count = this.#placement.count[slot]!;
    if (old.layer === emitter.layer && old.material === emitter.material && count === emitter.quads) {
      if (count > 0) old.write(start, count, emitter.words, slot);
      return;
    }
    this.#release(old, slot);
    const batch = this.#batch(emitter.layer, emitter.material);
    const at = batch.allocate(emitter.quads, this.patching);
    if (emitter.quads > 0) batch.write(at, emitter.quads, emitter.words, slot);
    this.#batchOf[slot] = batch.index;
    this.#placement.start[slot] = at;
    this.#placement.count[slot] = emitter.quads;
  }

  /** Deletes an object's vertex data from its batch. */
  destroy(id: GuiId): void {
    const slot = this.#slotOf(id, 'destroy');
    this.#release(this.#batchByIndex(this.#batchOf[slot]!), slot);
    this.#batchOf[slot] = -1;
    this.#freeSlots[this.#freeCount++] = slot;
    this.#liveObjects--;
  }

  #release(batch: GuiBatch, slot: number): void {
    const count = this.#placement.count[slot]!;
    if (count === 0) return;
    batch.release(this.#placement.start[slot]!, count, this.patching, this.#placement);
  }

  #batchByIndex(index: number): GuiBatch {
    // batches is sorted for drawing; index is the creation order.
    return this.#byIndex[index]!;
  }

  /** Where an object's quads are: its batch key, first quad and quad count (for tests and tools). */
  placementOf(id: GuiId): { layer: number; material: number; start: number; count: number } {
    const slot = this.#slotOf(id, 'placementOf');
    const batch = this.#batchByIndex(this.#batchOf[slot]!);
    return { layer: batch.layer, material: batch.material, start: this.#placement.start[slot]!, count: this.#placement.count[slot]! };
  }
}
