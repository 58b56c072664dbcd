export { GpuReduce, type GpuReduceOptions, type ReduceTimestampWrites } from './gpu-reduce.ts';
export { reduceReference } from './reference/reduce.ts';
export { reduceShaderSource } from './reduce-source.ts';
export { reduceWorkgroupCount } from './reduce-plan.ts';
export { GpuPrimitivesError } from './errors.ts';
export {
  ELEMENT_TYPES,
  REDUCE_OPS,
  WORKGROUP_SIZE,
  MAX_REDUCE_WORKGROUPS,
  type ElementType,
  type ReduceOp,
  type TypedArrayFor,
  type PassTimestamps,
  type PerPassTimestamps,
} from './api.ts';
export { GpuScan, type GpuScanOptions, type ScanVariant } from './gpu-scan.ts';
export { exclusiveScanReference } from './reference/scan.ts';
export { maxScanStatusWords, SCAN_BLOCK, scanBlockFor, scanStatusWords, scanTiles, SMALL_SCAN_BLOCK, SMALL_SCAN_MAX } from './scan-plan.ts';
export { dispatchGrid, MAX_WORKGROUPS_PER_DIMENSION } from './dispatch-grid.ts';
export { passTimestampWrites } from './timestamps.ts';
export { GpuRadixSort, LARGE_BLOCKS_FROM, type GpuRadixSortOptions } from './gpu-radix-sort.ts';
export { radixSortReference } from './reference/radix-sort.ts';
export { PORTABLE_RADIX_PLAN, RADIX_BITS, RADIX_BLOCK, SUBGROUP_RADIX_PLAN, largeBlockPlan, radixPasses, subgroupRadixLayout, type RadixPlan, type SubgroupRadixLayout } from './radix-plan.ts';
export { GpuBitonicSort, type GpuBitonicSortOptions } from './gpu-bitonic-sort.ts';
export { bitonicSortReference } from './reference/bitonic-sort.ts';
export { BITONIC_BLOCK, bitonicLength, bitonicSchedule, type BitonicDispatch } from './bitonic-plan.ts';
export type { SortedPairs } from './sort-round-trip.ts';
