/** What a reduction combines: the sum, the smallest or the largest element. */
export type ReduceOp = 'sum' | 'min' | 'max';

/** Element types the GPU kernels accept; each maps to the typed array of the same name. */
export type ElementType = 'f32' | 'u32' | 'i32';

/** The typed array that holds elements of type `T` on the host: `Float32Array` for `'f32'`, `Uint32Array` for `'u32'`, `Int32Array` for `'i32'`. */
export type TypedArrayFor<T extends ElementType> = T extends 'f32' ? Float32Array : T extends 'u32' ? Uint32Array : Int32Array;

/** Every {@link ElementType}. */
export const ELEMENT_TYPES: readonly ElementType[] = ['f32', 'u32', 'i32'];
/** Every {@link ReduceOp}. */
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
  /** A `'timestamp'` query set with room for the indices below. */
  querySet: GPUQuerySet;
  /** Query written when the first pass begins. */
  beginIndex?: number;
  /** Query written when the last pass ends. */
  endIndex?: number;
}

/**
 * Timestamps around every compute pass of a radix sort, two per pass from `firstIndex` on
 * (GpuRadixSort's `timedPasses` says how many): per-pass figures. The onesweep kernel's passes
 * are the histogram, then one per digit; the subgroup count-scan kernel's are each digit's
 * count, scan and scatter.
 */
export interface PerPassTimestamps {
  /** A `'timestamp'` query set with room for two queries per timed pass from `firstIndex`. */
  querySet: GPUQuerySet;
  /** Query of the first pass's beginning; pass i writes `firstIndex + 2i` (begin) and `firstIndex + 2i + 1` (end). */
  firstIndex: number;
  /** Marks these as per-pass timestamps (rather than {@link PassTimestamps}). */
  perPass: true;
}
