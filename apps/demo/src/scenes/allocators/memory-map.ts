// Reads a contender's block map in address order: how many bytes of each size class fall in
// each cell of the picture, and the free blocks as the gaps between live blocks (both
// allocators merge neighbouring free blocks at once, so a gap is exactly one free block).
import { MAP_GRANULE, type StormContender } from './contender.ts';

/** Classes drawn per cell: small, medium, large, pool chunk (block classes 1 to 4). */
export const CELL_CLASSES = 4;
/** Free-block histogram bins: bin k holds blocks of 2^(k+4) up to 2^(k+5) - 1 bytes. */
export const FREE_BINS = 18;

export class MemoryMap {
  readonly cells: number;
  readonly cellBytes: number;
  /** Per cell and class: bytes of that class's blocks inside the cell. */
  readonly cover: Float32Array;
  /** Free blocks per size bin. */
  readonly freeBins = new Uint32Array(FREE_BINS);
  freeBytes = 0;
  usedBytes = 0;
  freeBlocks = 0;
  largestFree = 0;
  largestFreeStart = 0;

  constructor(cells: number, cellBytes: number) {
    this.cells = cells;
    this.cellBytes = cellBytes;
    this.cover = new Float32Array(cells * CELL_CLASSES);
  }

  /** 1 - largest free block / free bytes: 0 when all free space is one block. */
  get fragmentation(): number {
    return this.freeBytes === 0 ? 0 : 1 - this.largestFree / this.freeBytes;
  }

  /** Rescans `contender`; `withCells` also fills the per-cell cover (only the drawn side needs it). */
  scan(contender: StormContender, withCells: boolean): void {
    const { blockBytes, blockClass, firstByte, capacity } = contender;
    const end = firstByte + capacity;
    this.freeBins.fill(0);
    if (withCells) this.cover.fill(0);
    this.freeBytes = 0;
    this.usedBytes = 0;
    this.freeBlocks = 0;
    this.largestFree = 0;
    this.largestFreeStart = firstByte;
    let cursor = firstByte;
    const granules = blockBytes.length;
    for (let g = Math.ceil(firstByte / MAP_GRANULE); g < granules; ) {
      const bytes = blockBytes[g]!;
      if (bytes === 0) {
        g++;
        continue;
      }
      const start = g * MAP_GRANULE;
      if (start > cursor) this.#gap(cursor, start - cursor);
      this.usedBytes += bytes;
      if (withCells) this.#cover(start, bytes, blockClass[g]! - 1);
      cursor = start + bytes;
      g = Math.ceil(cursor / MAP_GRANULE);
    }
    if (end > cursor) this.#gap(cursor, end - cursor);
  }

  #gap(start: number, bytes: number): void {
    this.freeBytes += bytes;
    this.freeBlocks++;
    if (bytes > this.largestFree) {
      this.largestFree = bytes;
      this.largestFreeStart = start;
    }
    const bin = Math.max(0, Math.min(FREE_BINS - 1, 31 - Math.clz32(bytes) - 4));
    this.freeBins[bin]!++;
  }

  #cover(start: number, bytes: number, sizeClass: number): void {
    const cellBytes = this.cellBytes;
    const end = Math.min(start + bytes, this.cells * cellBytes);
    for (let at = start; at < end; ) {
      const cell = Math.floor(at / cellBytes);
      const next = Math.min(end, (cell + 1) * cellBytes);
      this.cover[cell * CELL_CLASSES + sizeClass]! += next - at;
      at = next;
    }
  }
}
