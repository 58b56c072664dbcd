// The peer: @thi.ng/malloc's MemPool over a buffer of the same size, replaying the same storm.
// It has no pool: requests of every size go to malloc, as they would in an app that uses it.
import { MemPool } from '@thi.ng/malloc';
import { StormContender } from './contender.ts';

/** MemPool's header in front of every block: size and next pointer, two u32s. */
const HEADER_BYTES = 8;
/** MemPool keeps its state (7 u32s) at the start of the buffer; blocks start after it. */
const STATE_BYTES = 28;
const ALIGN = 16;

export class MemPoolContender extends StormContender {
  readonly label = '@thi.ng/malloc MemPool';
  readonly pool: MemPool;
  readonly #words: Uint32Array;

  constructor(capacity: number) {
    // Its first block header sits so that the address after it is aligned (MemPool.initialTop).
    const firstBlock = Math.ceil((STATE_BYTES + HEADER_BYTES) / ALIGN) * ALIGN - HEADER_BYTES;
    super(firstBlock, capacity - firstBlock);
    this.pool = new MemPool({ size: capacity, align: ALIGN });
    this.#words = new Uint32Array(this.pool.buf);
  }

  protected place(_slot: number, size: number, sizeClass: number): number {
    const address = this.pool.malloc(size);
    if (address === 0) return -1;
    const block = address - HEADER_BYTES;
    // The block's real size (padding, and any unsplit remainder) is in its header.
    this.mark(block, this.#words[block >>> 2]!, sizeClass);
    return address;
  }

  protected free(_slot: number, offset: number): void {
    this.pool.free(offset);
    this.unmark(offset - HEADER_BYTES);
  }

  destroy(): void {
    this.pool.release();
  }
}
