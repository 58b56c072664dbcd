/**
 * Bytes an allocator hands out. An allocation is a byte offset into this memory, so one number
 * works the same for an ArrayBuffer, a SharedArrayBuffer that workers share, or (with `null`
 * here) a GPUBuffer range whose bytes live on the GPU.
 */
export type Memory = ArrayBuffer | SharedArrayBuffer;

/** One live allocation, as listed in a leak report. */
export interface LiveAllocation {
  /** Byte offset of the allocation in the allocator's memory (or GPU buffer range). */
  offset: number;
  /** What `allocatedSize(offset)` answers: at least the size asked for. */
  size: number;
  /** The stack at allocation time, where the allocator records one (TraceAllocator). */
  stack?: string;
}

/** A node of a memory report: one named allocator, its totals and the allocators it backs. */
export interface MemoryReport {
  /** The allocator's name (`Allocator.name`). */
  name: string;
  /** The allocator's class, e.g. 'HeapAllocator'. */
  kind: string;
  /** Sum of `allocatedSize` over the allocator's live allocations, in bytes. */
  allocatedBytes: number;
  /** Number of live allocations. */
  allocationCount: number;
  /** Bytes the allocator manages, where that is a fixed figure (null for pass-through proxies). */
  capacityBytes: number | null;
  /** Reports of the allocators this one backs, in creation order. */
  children: MemoryReport[];
}

/** Free-space statistics of a HeapAllocator (or anything built on its TLSF core). */
export interface FragmentationStats {
  /** Bytes the heap manages. */
  capacityBytes: number;
  /** Bytes in free blocks (block headers not counted). */
  freeBytes: number;
  /** The largest single free block: the biggest allocation (with small alignment) that succeeds now. */
  largestFreeBlock: number;
  /** Number of free blocks (adjacent free blocks are always merged). */
  freeBlockCount: number;
  /** Number of allocated blocks. */
  usedBlockCount: number;
  /** 1 - largestFreeBlock / freeBytes: 0 when all free space is one block, near 1 when it is dust. */
  fragmentation: number;
}

/** Options shared by every allocator constructor. */
export interface AllocatorOptions {
  /** Shown in memory reports and leak messages. */
  name?: string;
}
