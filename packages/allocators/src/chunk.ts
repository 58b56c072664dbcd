import type { Memory } from './api.ts';
import type { Allocator } from './allocator.ts';
import { AllocationArgumentError } from './errors.ts';

/** Where a fixed-size allocator's bytes come from: a chunk of a backing allocator, or its own. */
export interface ChunkSource {
  backing?: Allocator;
  memory?: Memory | null;
}

export interface Chunk {
  memory: Memory | null;
  base: number;
}

/** Takes `size` bytes aligned to `align` from the backing, or makes (or adopts) a buffer. */
export function takeChunk(who: string, source: ChunkSource, size: number, align: number): Chunk {
  const { backing } = source;
  if (backing) {
    if (source.memory !== undefined) throw new AllocationArgumentError(`${who}: give either backing or memory, not both.`);
    const base = backing.tryAllocate(size, align);
    if (base === null) throw new AllocationArgumentError(`${who}: backing ${backing.name} has no room for ${size} B; make it bigger.`);
    return { memory: backing.memory, base };
  }
  if (source.memory === undefined) return { memory: new ArrayBuffer(size), base: 0 };
  if (source.memory !== null && source.memory.byteLength < size) {
    throw new AllocationArgumentError(`${who}: memory holds ${source.memory.byteLength} B, fewer than the ${size} B needed.`);
  }
  return { memory: source.memory, base: 0 };
}
