import type { AllocatorOptions, LiveAllocation } from './api.ts';
import { Allocator } from './allocator.ts';
import { AllocationArgumentError, InvalidFreeError } from './errors.ts';
import { sharedRegion } from './shared-region.ts';
import { alignUp, checkPositiveInteger, checkRequest, isPowerOfTwo } from './validate.ts';

/** Everything a worker needs to attach to a SharedPoolAllocator; structured-clonable. */
export interface SharedPoolHandle {
  /** The allocator's name, shown in reports and errors on every thread. */
  readonly name: string;
  /** The shared bytes the blocks live in. */
  readonly memory: SharedArrayBuffer;
  /** The shared free-list head, live count, next links and block states (8 + 8 × blockCount bytes). */
  readonly control: SharedArrayBuffer;
  /** Byte offset of the first block in `memory`. */
  readonly base: number;
  /** Bytes per block, as asked. */
  readonly blockSize: number;
  /** Blocks in the pool. */
  readonly blockCount: number;
  /** Distance between blocks in bytes: blockSize rounded up to blockAlign. */
  readonly stride: number;
  /** Alignment of every block, a power of two. */
  readonly blockAlign: number;
}

/** Options of a new {@link SharedPoolAllocator} (workers attach with a {@link SharedPoolHandle} instead). */
export interface SharedPoolAllocatorOptions extends AllocatorOptions {
  /** Bytes per block (a positive integer). */
  blockSize: number;
  /** Blocks in the pool: a positive integer, at most {@link SHARED_POOL_MAX_BLOCKS}. */
  blockCount: number;
  /** Block alignment, a power of two (default 8). */
  align?: number;
  /** Take the blocks from this allocator; its memory must be a SharedArrayBuffer. Default: a new one. */
  backing?: Allocator;
}

// Control words (Int32Array over `control`).
const HEAD = 0;
const COUNT = 1;
const HEADER = 2;
/** The free-list head packs block index + 1 (21 bits) with an ABA tag (11 bits). */
const INDEX_BITS = 21;
const INDEX_MASK = (1 << INDEX_BITS) - 1;
const TAG_MASK = (1 << (32 - INDEX_BITS)) - 1;
/**
 * Most blocks one {@link SharedPoolAllocator} holds (2,097,150: block indices share the free-list head's 32 bits with an ABA tag); use several pools for more.
 */
export const SHARED_POOL_MAX_BLOCKS = INDEX_MASK - 1;

/**
 * A pool whose free list and block states live in a SharedArrayBuffer, so the main thread and
 * any number of workers allocate and free concurrently, lock-free: the free list is a Treiber
 * stack whose head carries an ABA tag, updated with Atomics.compareExchange. Create it once,
 * send `share()` to each worker, and `SharedPoolAllocator.attach(handle)` there.
 */
export class SharedPoolAllocator extends Allocator {
  /** Always `'SharedPoolAllocator'`. */
  readonly kind: string = 'SharedPoolAllocator';
  /** Bytes per block, as asked; blocks are `stride` bytes apart. */
  readonly blockSize: number;
  /** Blocks in the pool (fixed). */
  readonly blockCount: number;
  /** Distance between blocks in bytes: blockSize rounded up to blockAlign. */
  readonly stride: number;
  /** Alignment of every block, a power of two (the `align` option, default 8). */
  readonly blockAlign: number;
  private readonly base: number;
  private readonly control: Int32Array;
  private readonly handle: SharedPoolHandle;
  private readonly owner: boolean;

  constructor(options: SharedPoolAllocatorOptions | { handle: SharedPoolHandle }) {
    let handle: SharedPoolHandle;
    let backing: Allocator | null = null;
    if ('handle' in options) {
      handle = options.handle;
    } else {
      const name = options.name ?? 'shared-pool';
      const who = `SharedPoolAllocator ${name}`;
      checkPositiveInteger(who, 'blockSize', options.blockSize);
      checkPositiveInteger(who, 'blockCount', options.blockCount);
      if (options.blockCount > SHARED_POOL_MAX_BLOCKS) {
        throw new AllocationArgumentError(`${who}: at most ${SHARED_POOL_MAX_BLOCKS} blocks, got ${options.blockCount}; use several pools.`);
      }
      const align = options.align ?? 8;
      if (!isPowerOfTwo(align)) throw new AllocationArgumentError(`${who}: align must be a power of two, got ${String(align)}.`);
      const stride = alignUp(options.blockSize, align);
      backing = options.backing ?? null;
      const { memory, base } = sharedRegion(who, options.backing, stride * options.blockCount, align);
      const control = new SharedArrayBuffer((HEADER + options.blockCount * 2) * 4);
      const words = new Int32Array(control);
      // Free list 0 -> 1 -> ... ; next[i] holds the next index + 1 (0 ends the list).
      for (let i = 0; i < options.blockCount; i++) words[HEADER + i] = i + 1 < options.blockCount ? i + 2 : 0;
      words[HEAD] = 1;
      handle = { name, memory, control, base, blockSize: options.blockSize, blockCount: options.blockCount, stride, blockAlign: align };
    }
    super(handle.name, handle.memory, backing);
    this.handle = handle;
    this.owner = !('handle' in options);
    this.blockSize = handle.blockSize;
    this.blockCount = handle.blockCount;
    this.stride = handle.stride;
    this.blockAlign = handle.blockAlign;
    this.base = handle.base;
    this.control = new Int32Array(handle.control);
  }

  /** Attaches to a pool created elsewhere (typically in a worker, from a posted handle). */
  static attach(handle: SharedPoolHandle): SharedPoolAllocator {
    return new SharedPoolAllocator({ handle });
  }

  /** The handle to post to workers. */
  share(): SharedPoolHandle {
    return this.handle;
  }

  /**
   * Pops one block off the shared free list (lock-free, from any thread); null when the pool is empty. `size` may not exceed blockSize nor `align` blockAlign ({@link AllocationArgumentError}).
   */
  tryAllocate(size: number = this.blockSize, align: number = this.blockAlign): number | null {
    checkRequest(this.name, size, align);
    if (size > this.blockSize || align > this.blockAlign) {
      throw new AllocationArgumentError(`${this.name}: asked ${size} B aligned to ${align}, but blocks are ${this.blockSize} B aligned to ${this.blockAlign}.`);
    }
    const control = this.control;
    for (;;) {
      const head = Atomics.load(control, HEAD);
      const index = (head & INDEX_MASK) - 1;
      if (index < 0) return null;
      const next = Atomics.load(control, HEADER + index);
      const tag = ((head >>> INDEX_BITS) + 1) & TAG_MASK;
      if (Atomics.compareExchange(control, HEAD, head, (tag << INDEX_BITS) | next) === head) {
        Atomics.store(control, HEADER + this.blockCount + index, 1);
        Atomics.add(control, COUNT, 1);
        return this.base + index * this.stride;
      }
    }
  }

  /** One block (size and align default to the pool's); throws OutOfMemoryError when the pool is empty. */
  override allocate(size: number = this.blockSize, align?: number): number {
    return super.allocate(size, align);
  }

  /**
   * Pushes the block back onto the shared free list (lock-free, from any thread). Throws {@link InvalidFreeError} for a double free (also a racing one) or an offset that is not a block of this pool.
   */
  deallocate(offset: number): void {
    const index = this.indexOf(offset);
    const control = this.control;
    // Claiming the used -> free transition first makes a racing double free lose cleanly.
    if (Atomics.compareExchange(control, HEADER + this.blockCount + index, 1, 0) !== 1) throw this.invalid(offset);
    Atomics.sub(control, COUNT, 1);
    for (;;) {
      const head = Atomics.load(control, HEAD);
      Atomics.store(control, HEADER + index, head & INDEX_MASK);
      const tag = ((head >>> INDEX_BITS) + 1) & TAG_MASK;
      if (Atomics.compareExchange(control, HEAD, head, (tag << INDEX_BITS) | (index + 1)) === head) return;
    }
  }

  /** Always `stride` for a live block; {@link InvalidFreeError} if `offset` is not one. */
  allocatedSize(offset: number): number {
    const index = this.indexOf(offset);
    if (Atomics.load(this.control, HEADER + this.blockCount + index) !== 1) throw this.invalid(offset);
    return this.stride;
  }

  /** Live blocks (on every thread) times `stride`. */
  get allocatedBytes(): number {
    return this.allocationCount * this.stride;
  }

  /** Blocks in use, on every thread. */
  get allocationCount(): number {
    return Atomics.load(this.control, COUNT);
  }

  /** `blockCount` times `stride`. */
  get capacityBytes(): number {
    return this.blockCount * this.stride;
  }

  /** Every block in use on any thread, in offset order, each `stride` bytes. */
  liveAllocations(): LiveAllocation[] {
    const live: LiveAllocation[] = [];
    for (let i = 0; i < this.blockCount; i++) {
      if (Atomics.load(this.control, HEADER + this.blockCount + i) === 1) live.push({ offset: this.base + i * this.stride, size: this.stride });
    }
    return live;
  }

  /** Gives the blocks back to the backing allocator, from the allocator that created the pool only (not from attached ones). */
  protected override releaseMemory(): void {
    if (this.owner) this.backing?.deallocate(this.base);
  }

  private indexOf(offset: number): number {
    const index = (offset - this.base) / this.stride;
    if (!Number.isInteger(index) || index < 0 || index >= this.blockCount) throw this.invalid(offset);
    return index;
  }

  private invalid(offset: number): InvalidFreeError {
    return new InvalidFreeError(`${this.name}: offset ${String(offset)} is not a live block of this shared pool (double free, or a foreign offset).`);
  }
}
