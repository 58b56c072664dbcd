import type { AllocatorOptions, LiveAllocation } from './api.ts';
import { Allocator } from './allocator.ts';
import { takeChunk } from './chunk.ts';
import { InvalidFreeError } from './errors.ts';
import { alignUp, checkPositiveInteger, checkRequest, DEFAULT_ALIGN } from './validate.ts';

/** Options of {@link ScratchAllocator}. */
export interface ScratchAllocatorOptions extends AllocatorOptions {
  /** Ring size in bytes, taken from `backing` (or a new ArrayBuffer without one). */
  size: number;
  /** Where the ring comes from, and where allocations that do not fit in it go. */
  backing?: Allocator;
}

/**
 * bitsquid-foundation's ScratchAllocator: a ring buffer for short-lived allocations. Allocate
 * bumps the head around the ring; frees may come in any order, and the tail advances past the
 * oldest allocations once they are freed. What does not fit goes to the backing allocator, so
 * a burst degrades to heap speed instead of failing. Records live in typed-array queues.
 */
export class ScratchAllocator extends Allocator {
  /** Always `'ScratchAllocator'`. */
  readonly kind: string = 'ScratchAllocator';
  private readonly base: number;
  private readonly size: number;
  private head = 0;
  private tail = 0;
  // FIFO of allocations in ring order: offset, size, where the span after it ends, freed flag.
  private recOffset = new Float64Array(64);
  private recSize = new Uint32Array(64);
  private recEnd = new Float64Array(64);
  private recFreed = new Uint8Array(64);
  private first = 0;
  private queued = 0;
  private readonly slotOf = new Map<number, number>();
  private readonly fallback = new Set<number>();
  private bytes = 0;
  private fallbackBytes = 0;

  constructor(options: ScratchAllocatorOptions) {
    const who = `ScratchAllocator ${options.name ?? 'scratch'}`;
    checkPositiveInteger(who, 'size', options.size);
    const chunk = takeChunk(who, options.backing ? { backing: options.backing } : {}, options.size, 256);
    super(options.name ?? 'scratch', chunk.memory, options.backing ?? null);
    this.base = chunk.base;
    this.size = options.size;
  }

  /** Allocates in the ring, or from the backing allocator when the ring has no room; null when neither has (or there is no backing). */
  tryAllocate(size: number, align: number = DEFAULT_ALIGN): number | null {
    checkRequest(this.name, size, align);
    this.checkAlive();
    const start = this.placeInRing(size, align);
    if (start < 0) {
      const backing = this.backing;
      if (!backing) return null;
      const offset = backing.tryAllocate(size, align);
      if (offset === null) return null;
      this.fallback.add(offset);
      this.fallbackBytes += backing.allocatedSize(offset);
      return offset;
    }
    if (this.queued === this.recOffset.length) this.growQueue();
    const slot = (this.first + this.queued) % this.recOffset.length;
    this.queued++;
    const offset = this.base + start;
    this.recOffset[slot] = offset;
    this.recSize[slot] = size;
    this.recEnd[slot] = start + size;
    this.recFreed[slot] = 0;
    this.slotOf.set(offset, slot);
    this.head = start + size;
    this.bytes += size;
    return offset;
  }

  /**
   * Frees a ring allocation (in any order; the ring's tail advances past freed allocations at its front) or a fallback one (to the backing). Throws {@link InvalidFreeError} for a double free or a foreign offset.
   */
  deallocate(offset: number): void {
    const slot = this.slotOf.get(offset);
    if (slot === undefined) {
      const backing = this.backing;
      if (!backing || !this.fallback.has(offset)) {
        throw new InvalidFreeError(`${this.name}: offset ${String(offset)} is not a live scratch allocation (double free, or a foreign offset).`);
      }
      this.fallbackBytes -= backing.allocatedSize(offset);
      backing.deallocate(offset);
      this.fallback.delete(offset);
      return;
    }
    this.slotOf.delete(offset);
    this.recFreed[slot] = 1;
    this.bytes -= this.recSize[slot]!;
    // Advance the tail past every freed allocation at the front of the ring.
    const n = this.recOffset.length;
    while (this.queued > 0 && this.recFreed[this.first] === 1) {
      this.tail = this.recEnd[this.first]!;
      this.first = (this.first + 1) % n;
      this.queued--;
    }
    if (this.queued === 0) {
      this.head = 0;
      this.tail = 0;
    }
  }

  /** The size asked for, for a ring allocation; the backing's size for a fallback one. {@link InvalidFreeError} if `offset` is neither. */
  allocatedSize(offset: number): number {
    const slot = this.slotOf.get(offset);
    if (slot !== undefined) return this.recSize[slot]!;
    if (this.backing && this.fallback.has(offset)) return this.backing.allocatedSize(offset);
    throw new InvalidFreeError(`${this.name}: offset ${String(offset)} is not a live scratch allocation.`);
  }

  /** Whether `offset` lies in the ring (false for allocations that fell back to the backing). */
  inRing(offset: number): boolean {
    return this.slotOf.has(offset);
  }

  /** Bytes asked for by live ring allocations plus the backing's size of live fallback ones. */
  get allocatedBytes(): number {
    return this.bytes + this.fallbackBytes;
  }

  /** Live allocations, in the ring and fallen back. */
  get allocationCount(): number {
    return this.slotOf.size + this.fallback.size;
  }

  /** Ring size in bytes (the `size` option). */
  get capacityBytes(): number {
    return this.size;
  }

  /** Every live allocation, ring and fallback, in offset order. */
  liveAllocations(): LiveAllocation[] {
    const live: LiveAllocation[] = [];
    for (const [offset, slot] of this.slotOf) live.push({ offset, size: this.recSize[slot]! });
    for (const offset of this.fallback) live.push({ offset, size: this.allocatedSize(offset) });
    return live.sort((a, b) => a.offset - b.offset);
  }

  /** Gives the ring back to the backing allocator. */
  protected override releaseMemory(): void {
    this.backing?.deallocate(this.base);
  }

  /** Ring-relative start for the allocation, or -1 when the ring has no room. */
  private placeInRing(size: number, align: number): number {
    const base = this.base;
    let start = alignUp(base + this.head, align) - base;
    if (this.queued === 0 || this.head > this.tail) {
      // Live span is [tail, head): room after head, else wrap to the front (before tail).
      if (start + size <= this.size) return start;
      start = alignUp(base, align) - base;
      return start + size < this.tail || (this.queued === 0 && start + size <= this.size) ? start : -1;
    }
    // Wrapped: live span is [tail, size) + [0, head); room is [head, tail).
    return start + size < this.tail ? start : -1;
  }

  private growQueue(): void {
    const n = this.recOffset.length;
    const first = this.first;
    const grow = <T extends Float64Array | Uint32Array | Uint8Array>(old: T, make: (k: number) => T): T => {
      const grown = make(n * 2);
      for (let i = 0; i < n; i++) grown[i] = old[(first + i) % n]!;
      return grown;
    };
    this.recOffset = grow(this.recOffset, (k) => new Float64Array(k));
    this.recSize = grow(this.recSize, (k) => new Uint32Array(k));
    this.recEnd = grow(this.recEnd, (k) => new Float64Array(k));
    this.recFreed = grow(this.recFreed, (k) => new Uint8Array(k));
    this.first = 0;
    for (const [offset, old] of this.slotOf) this.slotOf.set(offset, (old - first + n) % n);
  }
}
