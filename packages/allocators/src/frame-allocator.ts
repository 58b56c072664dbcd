import type { AllocatorOptions, LiveAllocation } from './api.ts';
import { Allocator } from './allocator.ts';
import { takeChunk, type ChunkSource } from './chunk.ts';
import { InvalidFreeError } from './errors.ts';
import { alignUp, checkPositiveInteger, checkRequest, DEFAULT_ALIGN } from './validate.ts';

/**
 * Options of {@link FrameAllocator}: its per-frame size, and a `backing` allocator to take the chunk from or `memory` to use (default: a new ArrayBuffer of `size` bytes).
 */
export interface FrameAllocatorOptions extends AllocatorOptions, ChunkSource {
  /** Bytes per frame. */
  size: number;
}

/**
 * Pointer bump: allocate moves a cursor, reset() rewinds it once per frame. As the post asks,
 * it still answers allocatedSize: each allocation's offset and size go into typed arrays in
 * allocation order (offsets rise), found again by binary search. deallocate only marks the
 * record, for leak tracking; the bytes come back at reset().
 */
export class FrameAllocator extends Allocator {
  /** Always `'FrameAllocator'`. */
  readonly kind: string = 'FrameAllocator';
  private readonly base: number;
  private readonly size: number;
  /** Absolute offset of the next free byte, and of the end of the frame's chunk. */
  private cursor: number;
  private limit: number;
  private offsets = new Float64Array(64);
  private sizes = new Uint32Array(64);
  private freed = new Uint8Array(64);
  private records = 0;
  private bytes = 0;
  private count = 0;

  /**
   * @param options - `size` (positive integer, bytes) and where the bytes come from; with `backing`, a chunk aligned to 256 is taken from it.
   * @throws {@link AllocationArgumentError} when `size` is not a positive integer, when both `backing` and `memory` are given, when the backing has no room, or when `memory` is smaller than `size`.
   */
  constructor(options: FrameAllocatorOptions) {
    const who = `FrameAllocator ${options.name ?? 'frame'}`;
    checkPositiveInteger(who, 'size', options.size);
    const chunk = takeChunk(who, options, options.size, 256);
    super(options.name ?? 'frame', chunk.memory, options.backing ?? null);
    this.base = chunk.base;
    this.size = options.size;
    this.cursor = chunk.base;
    this.limit = chunk.base + options.size;
  }

  /** {@inheritDoc Allocator.tryAllocate} */
  tryAllocate(size: number, align: number = DEFAULT_ALIGN): number | null {
    checkRequest(this.name, size, align);
    const start = alignUp(this.cursor, align);
    const end = start + size;
    // A destroyed frame has limit -1, so the destroyed check costs nothing on the fast path.
    if (end > this.limit) {
      this.checkAlive();
      return null;
    }
    const r = this.records;
    if (r === this.offsets.length) this.growRecords();
    this.offsets[r] = start;
    this.sizes[r] = size;
    this.records = r + 1;
    this.cursor = end;
    this.bytes += size;
    this.count++;
    return start;
  }

  /**
   * Marks the allocation freed for leak tracking; its bytes come back only at {@link FrameAllocator.reset}. Throws {@link InvalidFreeError} for a double free, a foreign offset or one from before the last reset.
   */
  deallocate(offset: number): void {
    const r = this.recordOf(offset);
    this.freed[r] = 1;
    this.bytes -= this.sizes[r]!;
    this.count--;
  }

  /** {@inheritDoc Allocator.allocatedSize} */
  allocatedSize(offset: number): number {
    return this.sizes[this.recordOf(offset)]!;
  }

  /** Starts a new frame: every allocation of the last one is gone, live or not. */
  reset(): void {
    this.checkAlive();
    this.freed.fill(0, 0, this.records);
    this.cursor = this.base;
    this.records = 0;
    this.bytes = 0;
    this.count = 0;
  }

  /** Bytes consumed this frame, alignment padding included. */
  get usedBytes(): number {
    return this.cursor - this.base;
  }

  /** Sum of the sizes asked for by live allocations this frame (alignment padding not counted; see `usedBytes`). */
  get allocatedBytes(): number {
    return this.bytes;
  }

  /** {@inheritDoc Allocator.allocationCount} */
  get allocationCount(): number {
    return this.count;
  }

  /** Bytes per frame (the `size` option). */
  get capacityBytes(): number {
    return this.size;
  }

  /** {@inheritDoc Allocator.liveAllocations} */
  liveAllocations(): LiveAllocation[] {
    const live: LiveAllocation[] = [];
    for (let r = 0; r < this.records; r++) if (this.freed[r] === 0) live.push({ offset: this.offsets[r]!, size: this.sizes[r]! });
    return live;
  }

  /** Gives the frame's chunk back to the backing allocator. */
  protected override releaseMemory(): void {
    this.limit = -1;
    this.backing?.deallocate(this.base);
  }

  private recordOf(offset: number): number {
    let lo = 0;
    let hi = this.records - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.offsets[mid]!;
      if (at === offset) {
        if (this.freed[mid] === 1) break;
        return mid;
      }
      if (at < offset) lo = mid + 1;
      else hi = mid - 1;
    }
    throw new InvalidFreeError(`${this.name}: offset ${String(offset)} is not a live allocation of this frame (double free, a foreign offset, or one from before reset()).`);
  }

  private growRecords(): void {
    const n = this.offsets.length * 2;
    const offsets = new Float64Array(n);
    offsets.set(this.offsets);
    const sizes = new Uint32Array(n);
    sizes.set(this.sizes);
    const freed = new Uint8Array(n);
    freed.set(this.freed);
    this.offsets = offsets;
    this.sizes = sizes;
    this.freed = freed;
  }
}
