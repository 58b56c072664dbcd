// What both sides of the comparison share: they replay the same StormScript and keep a block
// map of their memory (the length and size class of the block starting at each 8-byte
// granule) that the picture and the free-space figures are read from.
import { MAX_SLOTS, type StormScript } from './storm.ts';

/** Bytes per entry of the block map: the finest alignment either allocator hands out blocks at. */
export const MAP_GRANULE = 8;
/** Block class for the pool's chunk inside the heap (the storm's own classes are 1 to 3). */
export const POOL_CHUNK = 4;

export abstract class StormContender {
  abstract readonly label: string;
  /** Bytes of the managed range, from `firstByte`; the block map covers [0, firstByte + capacity). */
  readonly firstByte: number;
  readonly capacity: number;
  /** Per granule: length in bytes of the block that starts there (0: no block starts here). */
  readonly blockBytes: Uint32Array;
  /** Per granule: the size class of the block that starts there. */
  readonly blockClass: Uint8Array;
  /** Per script slot: where the allocator put the request, -1 when it failed (or no request). */
  protected readonly slotOffset = new Int32Array(MAX_SLOTS).fill(-1);
  failed = 0;
  liveBlocks = 0;

  protected constructor(firstByte: number, capacity: number) {
    this.firstByte = firstByte;
    this.capacity = capacity;
    const granules = Math.ceil((firstByte + capacity) / MAP_GRANULE);
    this.blockBytes = new Uint32Array(granules);
    this.blockClass = new Uint8Array(granules);
  }

  /** Frees the step's deaths, then places its births, in the script's order. */
  replay(script: StormScript): void {
    const { deaths, births, size, sizeClass } = script;
    for (let i = 0; i < script.deathCount; i++) {
      const slot = deaths[i]!;
      const offset = this.slotOffset[slot]!;
      if (offset < 0) continue;
      this.free(slot, offset);
      this.slotOffset[slot] = -1;
      this.liveBlocks--;
    }
    for (let i = 0; i < script.birthCount; i++) {
      const slot = births[i]!;
      const offset = this.place(slot, size[slot]!, sizeClass[slot]!);
      this.slotOffset[slot] = offset;
      if (offset < 0) this.failed++;
      else this.liveBlocks++;
    }
  }

  /** Allocates and records the block in the map; returns the offset or -1. */
  protected abstract place(slot: number, size: number, sizeClass: number): number;
  /** Frees and clears the block from the map. */
  protected abstract free(slot: number, offset: number): void;

  protected mark(blockStart: number, bytes: number, sizeClass: number): void {
    const g = blockStart / MAP_GRANULE;
    this.blockBytes[g] = bytes;
    this.blockClass[g] = sizeClass;
  }

  protected unmark(blockStart: number): void {
    const g = blockStart / MAP_GRANULE;
    this.blockBytes[g] = 0;
    this.blockClass[g] = 0;
  }

  abstract destroy(): void;
}
