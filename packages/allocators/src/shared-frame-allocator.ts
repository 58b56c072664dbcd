import type { AllocatorOptions, LiveAllocation } from './api.ts';
import { Allocator } from './allocator.ts';
import { InvalidFreeError } from './errors.ts';
import { sharedRegion } from './shared-region.ts';
import { alignUp, checkPositiveInteger, checkRequest, DEFAULT_ALIGN } from './validate.ts';

/** Everything a worker needs to attach to a SharedFrameAllocator; structured-clonable. */
export interface SharedFrameHandle {
  readonly name: string;
  readonly memory: SharedArrayBuffer;
  readonly control: SharedArrayBuffer;
  readonly base: number;
  readonly size: number;
  readonly maxAllocations: number;
}

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
  readonly kind: string = 'SharedFrameAllocator';
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

  static attach(handle: SharedFrameHandle): SharedFrameAllocator {
    return new SharedFrameAllocator({ handle });
  }

  share(): SharedFrameHandle {
    return this.handle;
  }

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

  deallocate(offset: number): void {
    const record = this.recordOf(offset);
    if (Atomics.compareExchange(this.control, HEADER + 2 * this.maxAllocations + record, LIVE, FREED) !== LIVE) throw this.invalid(offset);
    Atomics.sub(this.control, COUNT, 1);
    Atomics.sub(this.control, BYTES, this.control[HEADER + this.maxAllocations + record]!);
  }

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

  get usedBytes(): number {
    return Atomics.load(this.control, TOP);
  }

  get allocatedBytes(): number {
    return Atomics.load(this.control, BYTES);
  }

  get allocationCount(): number {
    return Atomics.load(this.control, COUNT);
  }

  get capacityBytes(): number {
    return this.size;
  }

  liveAllocations(): LiveAllocation[] {
    const live: LiveAllocation[] = [];
    const max = this.maxAllocations;
    const records = Math.min(Atomics.load(this.control, RECORDS), max);
    for (let r = 0; r < records; r++) {
      if (Atomics.load(this.control, HEADER + 2 * max + r) === LIVE) live.push({ offset: this.control[HEADER + r]!, size: this.control[HEADER + max + r]! });
    }
    return live.sort((a, b) => a.offset - b.offset);
  }

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
