// The engine's memory overview, as BitSquid's memory tracker showed it: a tree of named
// allocators, each with bytes in use, capacity, peak, allocation count and fragmentation.
// @cuttle/allocators reports bytes and counts; peaks and fragmentation are added here.
import { FrameAllocator, GpuBufferAllocator, HeapAllocator, type Allocator } from '@cuttle/allocators';

/** One allocator in the overview (what the `memory` message carries). */
export interface MemoryNode {
  name: string;
  /** The allocator's class (`GpuBufferAllocator`, `ProxyAllocator`, ...), `Engine` for the root. */
  kind: string;
  /** Bytes in use. */
  bytes: number;
  /** Bytes the allocator manages now (null for pass-through proxies). */
  capacity: number | null;
  /** Most bytes in use seen (see MemoryPeaks for when it looks). */
  peak: number;
  /** Live allocations. */
  count: number;
  /** 1 - largest free block / free bytes (0: all free space in one block); null where it has no meaning (proxies, the root). */
  fragmentation: number | null;
  /** GPUBuffers made (GPU allocators), null for others. */
  buffers: number | null;
  children: MemoryNode[];
}

/**
 * Free-space fragmentation of a GpuBufferAllocator, from its public API: the gaps between live
 * ranges inside each of its buffers are its free blocks (TLSF merges neighbours at once, so
 * each gap is one block).
 */
export function gpuFragmentation(allocator: GpuBufferAllocator): number {
  const free = allocator.capacityBytes - allocator.allocatedBytes;
  if (free <= 0) return 0;
  const size = allocator.bufferSize;
  let largest = 0;
  let cursor = 0;
  let bufferEnd = size;
  const close = (end: number): void => { largest = Math.max(largest, end - cursor); };
  for (const { offset, size: bytes } of allocator.liveAllocations()) {
    while (offset >= bufferEnd) {
      close(bufferEnd);
      cursor = bufferEnd;
      bufferEnd += size;
    }
    close(offset);
    cursor = offset + bytes;
  }
  for (; bufferEnd <= allocator.capacityBytes; bufferEnd += size) {
    close(bufferEnd);
    cursor = bufferEnd;
  }
  return 1 - largest / free;
}

function fragmentationOf(allocator: Allocator): number | null {
  if (allocator instanceof GpuBufferAllocator) return gpuFragmentation(allocator);
  if (allocator instanceof HeapAllocator) return allocator.stats().fragmentation;
  // A frame's free space is the one block past its cursor.
  if (allocator instanceof FrameAllocator) return 0;
  return null;
}

/**
 * Peak bytes per allocator. Allocators count live bytes only, so the engine samples at the points
 * where its use is highest: after a new world is built and before the old one is freed (both
 * hold ranges then), and at the end of a frame, before the frame allocator is reset.
 */
export class MemoryPeaks {
  readonly #peaks = new WeakMap<object, number>();

  sample(allocator: Allocator): void {
    this.note(allocator, allocator.allocatedBytes);
    for (const child of allocator.children) this.sample(child);
  }

  note(key: object, bytes: number): number {
    const peak = Math.max(this.#peaks.get(key) ?? 0, bytes);
    this.#peaks.set(key, peak);
    return peak;
  }

  /** The overview of `allocator` and the allocators it backs (sampling them first). */
  node(allocator: Allocator): MemoryNode {
    return {
      name: allocator.name,
      kind: allocator.kind,
      bytes: allocator.allocatedBytes,
      capacity: allocator.capacityBytes,
      peak: this.note(allocator, allocator.allocatedBytes),
      count: allocator.allocationCount,
      fragmentation: fragmentationOf(allocator),
      buffers: allocator instanceof GpuBufferAllocator ? allocator.gpuBuffers.length : null,
      children: allocator.children.map((child) => this.node(child)),
    };
  }
}
