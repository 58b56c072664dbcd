export { Allocator } from './allocator.ts';
export { HeapAllocator, type HeapAllocatorOptions } from './heap-allocator.ts';
export { PageAllocator, type PageAllocatorOptions } from './page-allocator.ts';
export { PoolAllocator, type PoolAllocatorOptions } from './pool-allocator.ts';
export { FrameAllocator, type FrameAllocatorOptions } from './frame-allocator.ts';
export { ScratchAllocator, type ScratchAllocatorOptions } from './scratch-allocator.ts';
export { ProxyAllocator } from './proxy-allocator.ts';
export { TraceAllocator } from './trace-allocator.ts';
export { SharedPoolAllocator, SHARED_POOL_MAX_BLOCKS, type SharedPoolAllocatorOptions, type SharedPoolHandle } from './shared-pool-allocator.ts';
export { SharedFrameAllocator, type SharedFrameAllocatorOptions, type SharedFrameHandle } from './shared-frame-allocator.ts';
export { GpuBufferAllocator, type GpuAlignments, type GpuBufferAllocatorOptions, type GpuRange } from './gpu-buffer-allocator.ts';
export { memoryReport, formatMemoryReport, formatBytes } from './memory-report.ts';
export { viewOf, allocateView, deallocateView, type TypedArrayConstructor } from './views.ts';
export {
  defineRecord,
  allocateRecords,
  deallocateRecords,
  recordViews,
  type FieldType,
  type FieldSpec,
  type RecordSpec,
  type RecordLayout,
  type RecordViews,
  type FieldLayout,
} from './records.ts';
export { DEFAULT_ALIGN } from './validate.ts';
export { AllocatorError, AllocationArgumentError, InvalidFreeError, OutOfMemoryError, MemoryLeakError } from './errors.ts';
export type { Memory, LiveAllocation, MemoryReport, FragmentationStats, AllocatorOptions } from './api.ts';
