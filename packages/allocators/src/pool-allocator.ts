import type { AllocatorOptions, LiveAllocation } from './api.ts';
import { Allocator } from './allocator.ts';
import { takeChunk, type ChunkSource } from './chunk.ts';
import { AllocationArgumentError, InvalidFreeError } from './errors.ts';
import { alignUp, checkPositiveInteger, checkRequest, DEFAULT_ALIGN, isPowerOfTwo } from './validate.ts';

/** Options of {@link PoolAllocator}: block size and count, and a `backing` allocator to take the chunk from or `memory` to use (default: a new ArrayBuffer). */
export interface PoolAllocatorOptions extends AllocatorOptions, ChunkSource {
  /** Bytes per block. */
  blockSize: number;
  /** Blocks in the pool (fixed). */
  blockCount: number;
  /** Alignment of every block, a power of two (default 8). */
  align?: number;
}

/**
 * Fixed-size blocks from one chunk with an intrusive-free free list kept in an Int32Array:
 * allocate and free are a pop and a push. The pool never grows; exhaustion answers null.
 */
export class PoolAllocator extends Allocator {
  /** Always `'PoolAllocator'`. */
  readonly kind: string = 'PoolAllocator';
  /** Bytes per block, as asked (a positive integer); blocks are `stride` bytes apart. */
  readonly blockSize: number;
  /** Blocks in the pool (fixed: the pool never grows). */
  readonly blockCount: number;
  /** Distance between blocks: blockSize rounded up to the alignment. */
  readonly stride: number;
  /** Alignment of every block, a power of two (the `align` option, default 8). */
  readonly blockAlign: number;
  private readonly base: number;
  private readonly next: Int32Array;
  private readonly used: Uint8Array;
  private head = 0;
  private count = 0;

  constructor(options: PoolAllocatorOptions) {
    const who = `PoolAllocator ${options.name ?? 'pool'}`;
    checkPositiveInteger(who, 'blockSize', options.blockSize);
    checkPositiveInteger(who, 'blockCount', options.blockCount);
    const align = options.align ?? DEFAULT_ALIGN;
    if (!isPowerOfTwo(align)) throw new AllocationArgumentError(`${who}: align must be a power of two, got ${String(align)}.`);
    const stride = alignUp(options.blockSize, align);
    const chunk = takeChunk(who, options, stride * options.blockCount, align);
    super(options.name ?? 'pool', chunk.memory, options.backing ?? null);
    this.blockSize = options.blockSize;
    this.blockCount = options.blockCount;
    this.stride = stride;
    this.blockAlign = align;
    this.base = chunk.base;
    this.next = new Int32Array(options.blockCount);
    for (let i = 0; i < options.blockCount; i++) this.next[i] = i + 1 < options.blockCount ? i + 1 : -1;
    this.used = new Uint8Array(options.blockCount);
  }

  /** One block; `size` may not exceed blockSize nor `align` the pool's alignment. */
  tryAllocate(size: number = this.blockSize, align: number = this.blockAlign): number | null {
    checkRequest(this.name, size, align);
    this.checkAlive();
    if (size > this.blockSize || align > this.blockAlign) {
      throw new AllocationArgumentError(
        `${this.name}: asked ${size} B aligned to ${align}, but blocks are ${this.blockSize} B aligned to ${this.blockAlign}.`,
      );
    }
    const block = this.head;
    if (block < 0) return null;
    this.head = this.next[block]!;
    this.used[block] = 1;
    this.count++;
    return this.base + block * this.stride;
  }

  /** One block (size and align default to the pool's); throws OutOfMemoryError when the pool is empty. */
  override allocate(size: number = this.blockSize, align?: number): number {
    return super.allocate(size, align);
  }

  /** Gives a block back to the free list. Throws {@link InvalidFreeError} for a double free or an offset that is not a block of this pool. */
  deallocate(offset: number): void {
    const block = this.blockAt(offset);
    this.used[block] = 0;
    this.next[block] = this.head;
    this.head = block;
    this.count--;
  }

  /** Always `stride` for a live block; {@link InvalidFreeError} if `offset` is not one. */
  allocatedSize(offset: number): number {
    this.blockAt(offset);
    return this.stride;
  }

  /** Live blocks times `stride`. */
  get allocatedBytes(): number {
    return this.count * this.stride;
  }

  /** Number of blocks in use. */
  get allocationCount(): number {
    return this.count;
  }

  /** `blockCount` times `stride`. */
  get capacityBytes(): number {
    return this.blockCount * this.stride;
  }

  /** Every block in use, in offset order, each `stride` bytes. */
  liveAllocations(): LiveAllocation[] {
    const live: LiveAllocation[] = [];
    for (let i = 0; i < this.blockCount; i++) if (this.used[i] === 1) live.push({ offset: this.base + i * this.stride, size: this.stride });
    return live;
  }

  /** Gives the pool's chunk back to the backing allocator. */
  protected override releaseMemory(): void {
    this.backing?.deallocate(this.base);
  }

  private blockAt(offset: number): number {
    const block = (offset - this.base) / this.stride;
    if (!Number.isInteger(block) || block < 0 || block >= this.blockCount || this.used[block] !== 1) {
      throw new InvalidFreeError(`${this.name}: offset ${String(offset)} is not a live block of this pool (double free, or a foreign offset).`);
    }
    return block;
  }
}
