/**
 * How one radix sort pass is cut up. Two kernels implement the same count-scan-scatter pass:
 *
 * - `portable`: 4-bit digits, ranked with a workgroup-wide scan of packed digit counters.
 *   Runs on every WebGPU device.
 * - `subgroups`: 8-bit digits (half the passes), ranked with subgroup ballots and sorted in
 *   workgroup memory before the write-out. Needs the `subgroups` feature and enough workgroup
 *   memory for one counter row per subgroup (see `subgroupPlanStorageBytes`).
 */
export interface RadixPlan {
  readonly kind: 'portable' | 'subgroups';
  /** Key bits sorted per pass. */
  readonly bits: number;
  /** Digit values per pass: 2^bits. */
  readonly radix: number;
  /** Keys each invocation handles per pass. */
  readonly items: number;
  /** Keys one workgroup handles per pass: 256 invocations x items. */
  readonly block: number;
}

/**
 * 16 keys per invocation: the block-local ranking costs eight scan rounds of the packed digit
 * counters per block whatever the block size, so 16 keys spread that cost over four times as
 * many keys as 4 did (16-bit counters still hold a 4096-key block).
 */
export const PORTABLE_RADIX_PLAN: RadixPlan = { kind: 'portable', bits: 4, radix: 16, items: 16, block: 4096 };

/** 8 keys per invocation: the sorted tile of 2048 keys plus the counters fit 16 KiB at subgroup size 32. */
export const SUBGROUP_RADIX_PLAN: RadixPlan = { kind: 'subgroups', bits: 8, radix: 256, items: 8, block: 2048 };

/** The portable plan's block and digit width (kept as plain constants for callers that size work by them). */
export const RADIX_BLOCK = PORTABLE_RADIX_PLAN.block;
export const RADIX_BITS = PORTABLE_RADIX_PLAN.bits;

/** Passes needed for `keyBits` bits of key at `bits` per pass (the last pass may sort fewer bits). */
export function radixPasses(keyBits: number, bits = RADIX_BITS): number {
  return Math.ceil(keyBits / bits);
}

/** Workgroup memory the subgroup scatter kernel needs when subgroups can be as small as `minSubgroupSize`. */
export function subgroupPlanStorageBytes(minSubgroupSize: number): number {
  const subgroups = 256 / minSubgroupSize;
  const words = subgroups * 128 + SUBGROUP_RADIX_PLAN.block + 2 * SUBGROUP_RADIX_PLAN.radix + subgroups;
  return words * 4;
}
