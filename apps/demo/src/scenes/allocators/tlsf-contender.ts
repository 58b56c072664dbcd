// Our side: a TLSF HeapAllocator with a PoolAllocator for small fixed-size objects inside it,
// and one ProxyAllocator per pretend subsystem so the memory report has a tree to show.
import { HeapAllocator, PoolAllocator, ProxyAllocator, type FragmentationStats } from '@cuttle/allocators';
import { MAX_SLOTS, LARGE, MEDIUM } from './storm.ts';
import { POOL_CHUNK, StormContender } from './contender.ts';

export const POOL_BLOCK_BYTES = 64;
export const POOL_BLOCKS = 512;

const IN_HEAP = 1;
const IN_POOL = 2;

export class TlsfContender extends StormContender {
  readonly label = 'TLSF heap + pool';
  readonly heap: HeapAllocator;
  readonly pool: PoolAllocator;
  readonly poolBase: number;
  /** Per pool block: the size class of its request (0: free). */
  readonly poolBlockClass = new Uint8Array(POOL_BLOCKS);
  /** Per pool block: bytes the request asked for (the rest of the 64 B is slack). */
  readonly poolBlockBytes = new Uint8Array(POOL_BLOCKS);
  readonly #subsystems: ProxyAllocator[];
  readonly #where = new Uint8Array(MAX_SLOTS);
  readonly #owner = new Uint8Array(MAX_SLOTS);

  constructor(capacity: number) {
    super(0, capacity);
    this.heap = new HeapAllocator({ name: 'storm heap', size: capacity });
    this.pool = new PoolAllocator({ name: 'small objects', backing: this.heap, blockSize: POOL_BLOCK_BYTES, blockCount: POOL_BLOCKS, align: 16 });
    // The pool's chunk is the heap's only allocation so far.
    const chunk = this.heap.liveAllocations()[0]!;
    this.poolBase = chunk.offset;
    this.mark(chunk.offset, chunk.size, POOL_CHUNK);
    this.#subsystems = [
      new ProxyAllocator('gameplay', this.heap),
      new ProxyAllocator('audio', this.heap),
      new ProxyAllocator('textures', this.heap),
    ];
  }

  stats(): FragmentationStats {
    return this.heap.stats();
  }

  protected place(slot: number, size: number, sizeClass: number): number {
    // Requests that fit a pool block go to the pool; when it is empty they fall back to the heap.
    if (size <= POOL_BLOCK_BYTES) {
      const offset = this.pool.tryAllocate(size, 16);
      if (offset !== null) {
        const block = (offset - this.poolBase) / POOL_BLOCK_BYTES;
        this.poolBlockClass[block] = sizeClass;
        this.poolBlockBytes[block] = size;
        this.#where[slot] = IN_POOL;
        return offset;
      }
    }
    const owner = sizeClass === LARGE ? 2 : sizeClass === MEDIUM ? 1 : 0;
    const offset = this.#subsystems[owner]!.tryAllocate(size, 16);
    if (offset === null) return -1;
    this.mark(offset, this.heap.allocatedSize(offset), sizeClass);
    this.#where[slot] = IN_HEAP;
    this.#owner[slot] = owner;
    return offset;
  }

  protected free(slot: number, offset: number): void {
    if (this.#where[slot] === IN_POOL) {
      this.pool.deallocate(offset);
      this.poolBlockClass[(offset - this.poolBase) / POOL_BLOCK_BYTES] = 0;
    } else {
      this.#subsystems[this.#owner[slot]!]!.deallocate(offset);
      this.unmark(offset);
    }
  }

  /** Frees whatever the storm still holds, then the allocators, children first. */
  destroy(): void {
    for (let slot = 0; slot < MAX_SLOTS; slot++) {
      const offset = this.slotOffset[slot]!;
      if (offset >= 0) this.free(slot, offset);
      this.slotOffset[slot] = -1;
    }
    this.liveBlocks = 0;
    for (const proxy of this.#subsystems) proxy.destroy();
    this.pool.destroy();
    this.heap.destroy();
  }
}
