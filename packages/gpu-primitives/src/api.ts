/** What a reduction combines: the sum, the smallest or the largest element. */
export type ReduceOp = 'sum' | 'min' | 'max';

/** Element types the GPU kernels accept; each maps to the typed array of the same name. */
export type ElementType = 'f32' | 'u32' | 'i32';

export type TypedArrayFor<T extends ElementType> = T extends 'f32' ? Float32Array : T extends 'u32' ? Uint32Array : Int32Array;

export const ELEMENT_TYPES: readonly ElementType[] = ['f32', 'u32', 'i32'];
export const REDUCE_OPS: readonly ReduceOp[] = ['sum', 'min', 'max'];

/** Invocations per workgroup in every kernel of this package. */
export const WORKGROUP_SIZE = 256;

/**
 * Upper bound on first-pass workgroups. Each invocation loops over a grid-stride slice, so any
 * input length fits in one dispatch well below maxComputeWorkgroupsPerDimension (65535), and
 * the partials fit the single workgroup of the second pass after its own grid-stride loop.
 */
export const MAX_REDUCE_WORKGROUPS = 1024;

/** Where a primitive writes GPU timestamps: before its first pass and after its last (either may be left out). */
export interface PassTimestamps {
  querySet: GPUQuerySet;
  beginIndex?: number;
  endIndex?: number;
}

/**
 * Timestamps around every compute pass of a radix sort, two per pass from `firstIndex` on
 * (GpuRadixSort's `timedPasses` says how many): per-pass figures. The onesweep kernel's passes
 * are the histogram, then one per digit; the subgroup count-scan kernel's are each digit's
 * count, scan and scatter.
 */
export interface PerPassTimestamps {
  querySet: GPUQuerySet;
  firstIndex: number;
  perPass: true;
}
