/**
 * How one radix sort pass is cut up. Two kernels implement the same count-scan-scatter pass:
 *
 * - `portable`: 4-bit digits, ranked with a workgroup-wide scan of packed digit counters.
 *   Runs on every WebGPU device.
 * - `subgroups`: 8-bit digits (half the passes), ranked with subgroup ballots and sorted in
 *   workgroup memory before the write-out. Needs the `subgroups` feature; its scatter
 *   workgroup holds 8 subgroups of the device's smallest size (see `subgroupRadixLayout`).
 * - `onesweep`: the subgroup ranking in one pass per digit, the tile's output offsets found by
 *   decoupled look-back after one histogram pass for all digits (radix-onesweep.wgsl). Same
 *   layout as `subgroups`, plus 1 KiB of workgroup memory for the look-back's fallback.
 */
export interface RadixPlan {
  /** Which kernel runs: the portable 4-bit count-scan, the 8-bit subgroup count-scan, or the one-sweep kernel. */
  readonly kind: 'portable' | 'subgroups' | 'onesweep';
  /** Key bits sorted per pass. */
  readonly bits: number;
  /** Digit values per pass: 2^bits. */
  readonly radix: number;
  /** Keys each invocation of the ranking (scatter) kernel handles per pass. */
  readonly items: number;
  /** Invocations per workgroup of the ranking (scatter) kernel. */
  readonly workgroupSize: number;
  /** Keys one workgroup handles per pass: workgroupSize x items. */
  readonly block: number;
  /**
   * Rounds in which the subgroup scatter writes its sorted block out through a tile of
   * block / tileRounds keys (default 1). Two rounds give a 4096-key block the workgroup memory of
   * a 2048-key one.
   */
  readonly tileRounds?: number;
}

/**
 * 16 keys per invocation: the block-local ranking costs eight scan rounds of the packed digit
 * counters per block whatever the block size, so 16 keys spread that cost over four times as
 * many keys as 4 did (16-bit counters still hold a 4096-key block).
 */
export const PORTABLE_RADIX_PLAN: RadixPlan = { kind: 'portable', bits: 4, radix: 16, items: 16, workgroupSize: 256, block: 4096 };

/**
 * Blocks of 2048 keys: the sorted tile (8 KiB) plus the counters fit 16 KiB. This is the plan at
 * subgroup size 32 (256 invocations x 8 keys); `subgroupRadixLayout` gives it for other sizes.
 */
export const SUBGROUP_RADIX_PLAN: RadixPlan = { kind: 'subgroups', bits: 8, radix: 256, items: 8, workgroupSize: 256, block: 2048 };

/** How the subgroup scatter kernel is laid out for a device's subgroup sizes. */
export interface SubgroupRadixLayout {
  /** The plan as it runs: workgroupSize and items for these subgroup sizes, block 2048. */
  readonly plan: RadixPlan;
  /** Counter rows to reserve: workgroupSize / minSubgroupSize. */
  readonly maxSubgroups: number;
  /** Workgroup memory the count-scan scatter kernel declares (the onesweep kernel adds its own). */
  readonly storageBytes: number;
}

/**
 * Eight subgroups of the smallest size per workgroup (at least one of the largest, at most
 * 256 invocations), so the per-subgroup counters stay small whatever the subgroup size: at
 * sizes 4 to 32 the count-scan scatter needs about 13 KiB, within every device's 16 KiB minimum.
 * `block` (2048 unless given; the onesweep kernel may take 4096) sets the keys per invocation.
 */
export function subgroupRadixLayout(minSubgroupSize: number, maxSubgroupSize = minSubgroupSize, block = SUBGROUP_RADIX_PLAN.block): SubgroupRadixLayout {
  const workgroupSize = Math.min(256, Math.max(8 * minSubgroupSize, maxSubgroupSize));
  const maxSubgroups = workgroupSize / minSubgroupSize;
  const { radix } = SUBGROUP_RADIX_PLAN;
  // Counters (16 bits a digit), the tile, the digits' output bases and the subgroups' sums.
  const words = maxSubgroups * 128 + block + radix + maxSubgroups;
  return { plan: { ...SUBGROUP_RADIX_PLAN, workgroupSize, items: block / workgroupSize, block }, maxSubgroups, storageBytes: words * 4 };
}

/**
 * The subgroup plan for large sorts: 4096-key blocks, written out through the 2048-key tile of
 * `plan` in two rounds, so the same workgroup memory. Each digit gets twice as long a run to
 * write and the count table half the columns; on an H100 that made a 2^26-pair sort 7% to 8% faster.
 * Only for 256-invocation scatters (subgroups of 32 lanes or more): 16 keys an invocation.
 * Undefined otherwise.
 */
export function largeBlockPlan(plan: RadixPlan): RadixPlan | undefined {
  if (plan.kind !== 'subgroups' || plan.workgroupSize !== 256 || plan.block !== 2048) return undefined;
  return { ...plan, block: 4096, items: 16, tileRounds: 2 };
}

/** The portable plan's block and digit width (kept as plain constants for callers that size work by them). */
export const RADIX_BLOCK = PORTABLE_RADIX_PLAN.block;
/** Key bits per pass of the portable plan (4). */
export const RADIX_BITS = PORTABLE_RADIX_PLAN.bits;

/** Passes needed for `keyBits` bits of key at `bits` per pass (the last pass may sort fewer bits). */
export function radixPasses(keyBits: number, bits = RADIX_BITS): number {
  return Math.ceil(keyBits / bits);
}
