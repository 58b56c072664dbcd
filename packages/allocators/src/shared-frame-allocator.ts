import type { AllocatorOptions, LiveAllocation } from './api.ts';
import { Allocator } from './allocator.ts';
import { InvalidFreeError } from './errors.ts';
import { sharedRegion } from './shared-region.ts';
import { alignUp, checkPositiveInteger, checkRequest, DEFAULT_ALIGN } from './validate.ts';

/** Everything a worker needs to attach to a SharedFrameAllocator; structured-clonable. */
export interface SharedFrameHandle {
  /** The allocator's name, shown in reports and errors on every thread. */
  readonly name: string;
  /** The shared bytes the frame's offsets point into. */
  readonly memory: SharedArrayBuffer;
  /** The shared cursor, counters and allocation records (16 + 12 × maxAllocations bytes). */
  readonly control: SharedArrayBuffer;
  /** Byte offset of the frame in `memory`. */
  readonly base: number;
  /** Bytes per frame (the `size` option rounded up to a multiple of 4). */
  readonly size: number;
  /** Allocations per frame that can be recorded. */
  readonly maxAllocations: number;
}

/** Options of a new {@link SharedFrameAllocator} (workers attach with a {@link SharedFrameHandle} instead). */
export interface SharedFrameAllocatorOptions extends AllocatorOptions {
  /** Bytes per frame. */
  size: number;
  /** Allocations per frame that can be recorded (default 4096); past it, tryAllocate answers null. */
  maxAllocations?: number;
  /** Take the frame's bytes from this allocator; its memory must be a SharedArrayBuffer. */
  backing?: Allocator;
}

const TOP = 0;
const COUNT = 1;
const BYTES = 2;
const RECORDS = 3;
const HEADER = 4;
const LIVE = 1;
const FREED = 2;
/** Bytes in front of each allocation holding its record index (in-band, CPU memory only). */
const TAG_BYTES = 4;

/**
 * A frame (bump) allocator that workers share: the cursor moves with compareExchange, each
 * allocation claims a record slot with Atomics.add, and the record index sits in the 4 bytes
 * before the allocation so allocatedSize and deallocate find it in O(1). reset() starts the
 * next frame; call it when no worker is allocating (at the frame's join point).
 */
export class SharedFrameAllocator extends Allocator {
  /** Always `'SharedFrameAllocator'`. */
  readonly kind: string = 'SharedFrameAllocator';
  /** Allocations per frame that can be recorded (default 4096); past it, `tryAllocate` answers null until `reset()`. */
  readonly maxAllocations: number;
  private readonly base: number;
  private readonly size: number;
  private readonly control: Int32Array;
  private readonly tags: Int32Array;
  private readonly handle: SharedFrameHandle;
  private readonly owner: boolean;

  constructor(options: SharedFrameAllocatorOptions | { handle: SharedFrameHandle }) {
    let handle: SharedFrameHandle;
    let backing: Allocator | null = null;
    if ('handle' in options) {
      handle = options.handle;
    } else {
      const name = options.name ?? 'shared-frame';
      const who = `SharedFrameAllocator ${name}`;
      checkPositiveInteger(who, 'size', options.size);
      const maxAllocations = options.maxAllocations ?? 4096;
      checkPositiveInteger(who, 'maxAllocations', maxAllocations);
      const size = alignUp(options.size, 4);
      backing = options.backing ?? null;
      const { memory, base } = sharedRegion(who, options.backing, size, 256);
      const control = new SharedArrayBuffer((HEADER + maxAllocations * 3) * 4);
      handle = { name, memory, control, base, size, maxAllocations };
    }
    super(handle.name, handle.memory, backing);
    this.handle = handle;
    this.owner = !('handle' in options);
    this.base = handle.base;
    this.size = handle.size;
    this.maxAllocations = handle.maxAllocations;
    this.control = new Int32Array(handle.control);
    this.tags = new Int32Array(handle.memory, handle.base, handle.size / 4);
  }

  /** Attaches to a frame created elsewhere (typically in a worker, from a posted handle). Destroying an attached allocator gives nothing back to a backing. */
  static attach(handle: SharedFrameHandle): SharedFrameAllocator {
    return new SharedFrameAllocator({ handle });
  }

  /** The handle to post to workers. */
  share(): SharedFrameHandle {
    return this.handle;
  }

  /**
   * Claims a record slot and moves the shared cursor past a 4-byte tag and `size` bytes aligned to `align` (at least 4); null when the frame or its records are exhausted. Safe to call from any number of threads at once.
   */
  tryAllocate(size: number, align: number = DEFAULT_ALIGN): number | null {
    checkRequest(this.name, size, align);
    const control = this.control;
    const max = this.maxAllocations;
    const record = Atomics.add(control, RECORDS, 1);
    if (record >= max) return null;
    const step = Math.max(align, TAG_BYTES);
    let start: number;
    for (;;) {
      const top = Atomics.load(control, TOP);
      start = alignUp(this.base + top + TAG_BYTES, step);
      const end = start + size;
      if (end > this.base + this.size) return null;
      if (Atomics.compareExchange(control, TOP, top, end - this.base) === top) break;
    }
    control[HEADER + record] = start;
    control[HEADER + max + record] = size;
    Atomics.store(this.tags, (start - this.base - TAG_BYTES) / 4, record);
    Atomics.store(control, HEADER + 2 * max + record, LIVE);
    Atomics.add(control, COUNT, 1);
    Atomics.add(control, BYTES, size);
    return start;
  }

  /**
   * Marks the allocation freed (atomically, so a racing double free loses); its bytes come back only at `reset()`. Throws {@link InvalidFreeError} for a double free, a foreign offset or one from before the last reset.
   */
  deallocate(offset: number): void {
    const record = this.recordOf(offset);
    if (Atomics.compareExchange(this.control, HEADER + 2 * this.maxAllocations + record, LIVE, FREED) !== LIVE) throw this.invalid(offset);
    Atomics.sub(this.control, COUNT, 1);
    Atomics.sub(this.control, BYTES, this.control[HEADER + this.maxAllocations + record]!);
  }

  /** The size asked for at `offset`; {@link InvalidFreeError} if it is not a live allocation of this frame. */
  allocatedSize(offset: number): number {
    const record = this.recordOf(offset);
    if (Atomics.load(this.control, HEADER + 2 * this.maxAllocations + record) !== LIVE) throw this.invalid(offset);
    return this.control[HEADER + this.maxAllocations + record]!;
  }

  /** Starts a new frame. Only call it while no other thread allocates from this frame. */
  reset(): void {
    const control = this.control;
    const records = Math.min(Atomics.load(control, RECORDS), this.maxAllocations);
    for (let r = 0; r < records; r++) control[HEADER + 2 * this.maxAllocations + r] = 0;
    Atomics.store(control, TOP, 0);
    Atomics.store(control, COUNT, 0);
    Atomics.store(control, BYTES, 0);
    Atomics.store(control, RECORDS, 0);
  }

  /** Bytes consumed this frame, tags and alignment padding included. */
  get usedBytes(): number {
    return Atomics.load(this.control, TOP);
  }

  /** Sum of the sizes asked for by live allocations this frame, on every thread. */
  get allocatedBytes(): number {
    return Atomics.load(this.control, BYTES);
  }

  /** Live allocations this frame, on every thread. */
  get allocationCount(): number {
    return Atomics.load(this.control, COUNT);
  }

  /** Bytes per frame (`size` rounded up to a multiple of 4). */
  get capacityBytes(): number {
    return this.size;
  }

  /** Every live allocation this frame, from any thread, in offset order. */
  liveAllocations(): LiveAllocation[] {
    const live: LiveAllocation[] = [];
    const max = this.maxAllocations;
    const records = Math.min(Atomics.load(this.control, RECORDS), max);
    for (let r = 0; r < records; r++) {
      if (Atomics.load(this.control, HEADER + 2 * max + r) === LIVE) live.push({ offset: this.control[HEADER + r]!, size: this.control[HEADER + max + r]! });
    }
    return live.sort((a, b) => a.offset - b.offset);
  }

  /** Gives the frame back to the backing allocator, from the allocator that created it only (not from attached ones). */
  protected override releaseMemory(): void {
    if (this.owner) this.backing?.deallocate(this.base);
  }

  private recordOf(offset: number): number {
    const rel = offset - this.base - TAG_BYTES;
    if (!Number.isInteger(offset) || rel < 0 || rel % 4 !== 0 || offset >= this.base + this.size) throw this.invalid(offset);
    const record = Atomics.load(this.tags, rel / 4);
    const records = Math.min(Atomics.load(this.control, RECORDS), this.maxAllocations);
    if (record < 0 || record >= records || this.control[HEADER + record] !== offset) throw this.invalid(offset);
    return record;
  }

  private invalid(offset: number): InvalidFreeError {
    return new InvalidFreeError(`${this.name}: offset ${String(offset)} is not a live allocation of this shared frame (double free, a foreign offset, or one from before reset()).`);
  }
}
