import type { PassTimestamps, PerPassTimestamps } from './api.ts';
import { CountScanPasses, type SortBuffers } from './count-scan-passes.ts';
import { GpuPrimitivesError } from './errors.ts';
import { ONESWEEP_MAX_COUNT, OnesweepPasses } from './onesweep-passes.ts';
import { largeBlockPlan, PORTABLE_RADIX_PLAN, type RadixPlan, radixPasses, subgroupRadixLayout } from './radix-plan.ts';
import { type LaneWords, laneWordsFor } from './subgroup-lanes.ts';
import { sortRoundTrip, type SortedPairs } from './sort-round-trip.ts';
import { gridLimitFor, requireCapacity, requireCount, requireInteger, requireWordBuffer } from './validate.ts';

/** Options of {@link GpuRadixSort}'s constructor; only `maxCount` is required. */
export interface GpuRadixSortOptions {
  /** The largest number of pairs this instance will sort; sizes its scratch buffers. */
  maxCount: number;
  /** Low key bits that take part (a multiple of 4 from 4 to 32, default 32): fewer bits, fewer passes. */
  keyBits?: number;
  /**
   * Use the 8-bit subgroup kernel when the device was created with the `subgroups` feature and
   * has the workgroup memory for it (default true). `false` forces the portable 4-bit kernel.
   * `plan` on the instance says which one runs.
   */
  subgroups?: boolean;
  /** Recordings allowed per submit (default 4); see GpuReduce's `slots`. */
  slots?: number;
  /** See GpuScan's option of the same name. */
  maxWorkgroupsPerDimension?: number;
  /**
   * `'onesweep'`: one histogram pass, then one ranking pass per digit that finds its output
   * offsets by decoupled look-back (needs subgroups; falls back to the other kernels without).
   * `'count-scan'` (the default): per digit a count pass, a scan of the count table and a
   * scatter pass. `plan.kind` on the instance says which one runs.
   */
  algorithm?: 'onesweep' | 'count-scan';
  /** Largest key first (every kernel; pairs with equal keys still keep their order). */
  descending?: boolean;
  /**
   * `'f32'`: keys are the bit patterns of f32 values, sorted in float order (-Infinity first,
   * -0 before +0, NaNs at the ends by sign). Every kernel, with keyBits 32. Default `'u32'`.
   */
  keyType?: 'u32' | 'f32';
  /** Sort keys without values (`encodeKeys`, `sortKeys`): less traffic. Every kernel. */
  keysOnly?: boolean;
  /**
   * Keys per tile of the onesweep kernel: 2048 or 4096. Larger tiles mean fewer tiles to look
   * back over and need 24 KiB of workgroup memory (the device must have been created with
   * `maxComputeWorkgroupStorageSize` raised that far). Default: 4096 where the device allows it
   * and its subgroups are 32 lanes or wider (16 keys per invocation), else 2048.
   */
  tileKeys?: 2048 | 4096;
  /**
   * Tests only: the onesweep look-back ignores every published total (`'always'`: each tile
   * counts all its predecessors itself) or a third of them (`'sometimes'`).
   */
  lookbackFallsBack?: 'always' | 'sometimes';
  /** Tests only: ballot masks of four words even where subgroups have at most 32 lanes. */
  wideLaneMasks?: boolean;
  /**
   * Count-scan with subgroups of 32 lanes or more: sorts of at least this many pairs run
   * 4096-key blocks (`largePlan`) instead of 2048-key ones. Default `LARGE_BLOCKS_FROM`
   * (`Infinity`: never).
   */
  largeBlocksFrom?: number;
}

/**
 * Pairs from which the count-scan sort takes 4096-key blocks by default: never. On an H200
 * (BENCHMARKS.md, 2026-11-29), once the 2048-key scatter loads all its keys and values before
 * ranking, 2048-key blocks sort 2^26 random pairs 20% faster than 4096-key ones (20.5e9 against
 * 17.1e9 pairs/s) and 2^24 ones 9% faster; with few distinct keys 4096-key blocks were already
 * 10% to 12% slower. On an H100, before that change, 4096-key blocks were 7% to 9% faster from
 * 2^25 random pairs: pass `largeBlocksFrom: 2 ** 25` to get them, after measuring on your card.
 */
export const LARGE_BLOCKS_FROM = Infinity;

/** Workgroup memory the onesweep kernel adds to the count-scan scatter's: fallback counts, its digit starts and flags. */
const ONESWEEP_EXTRA_STORAGE = 2 * 256 * 4 + 3 * 4;
const ONESWEEP_TILES = [2048, 4096] as const;

interface ChosenPlan {
  plan: RadixPlan;
  maxSubgroups: number;
  /** Ballot words the subgroup kernels' masks need: 1 up to 32 lanes. */
  laneWords: LaneWords;
}

/** The onesweep or subgroup plan when the device can run it (and the caller allows it), else the portable one. */
function choosePlan(device: GPUDevice, allowSubgroups: boolean, onesweep: boolean, tileKeys: number | undefined): ChosenPlan {
  // adapterInfo on GPUDevice is recent; without it assume the widest range WebGPU allows.
  const info = (device as Partial<Pick<GPUDevice, 'adapterInfo'>>).adapterInfo;
  const minSize = Math.max(4, info?.subgroupMinSize ?? 4);
  const maxSize = Math.min(128, info?.subgroupMaxSize ?? 128);
  const limit = device.limits.maxComputeWorkgroupStorageSize;
  const usable = allowSubgroups && device.features.has('subgroups');
  const laneWords = laneWordsFor(maxSize);
  if (usable && onesweep) {
    const fits = (block: number): boolean => subgroupRadixLayout(minSize, maxSize, block).storageBytes + ONESWEEP_EXTRA_STORAGE <= limit;
    if (tileKeys === 4096 && !fits(4096)) {
      const needed = subgroupRadixLayout(minSize, maxSize, 4096).storageBytes + ONESWEEP_EXTRA_STORAGE;
      throw new GpuPrimitivesError(`tileKeys 4096 needs ${needed} bytes of workgroup memory; this device allows ${limit}. Create the device with requiredLimits.maxComputeWorkgroupStorageSize raised, or leave tileKeys out.`);
    }
    // 4096 only where it stays at 16 keys per invocation: smaller subgroups mean smaller workgroups.
    const block = tileKeys ?? (minSize >= 32 && fits(4096) ? 4096 : 2048);
    if (fits(block)) {
      const layout = subgroupRadixLayout(minSize, maxSize, block);
      return { plan: { ...layout.plan, kind: 'onesweep' }, maxSubgroups: layout.maxSubgroups, laneWords };
    }
  }
  const layout = subgroupRadixLayout(minSize, maxSize);
  if (usable && layout.storageBytes <= limit) return { plan: layout.plan, maxSubgroups: layout.maxSubgroups, laneWords };
  return { plan: PORTABLE_RADIX_PLAN, maxSubgroups: 0, laneWords };
}

const WORD = 4;

/**
 * Stable LSD radix sort of u32 keys with u32 values, in place. Two ways to run a pass (see
 * RadixPlan): count, scan and scatter per digit (8 bits with subgroups, 4 without), or the
 * one-sweep kernel (8 bits, subgroups): one histogram pass for every digit, then one ranking
 * pass per digit whose tiles find their offsets by decoupled look-back. Keys sort as unsigned
 * integers, ascending unless `descending`; pairs with equal keys keep their order.
 */
export class GpuRadixSort {
  /** The most pairs one sort may take, as given in the options. */
  readonly maxCount: number;
  /** Low key bits that take part (a multiple of 4 from 4 to 32). */
  readonly keyBits: number;
  /** Whether the largest key comes first. */
  readonly descending: boolean;
  /** How keys are ordered: as unsigned integers (`'u32'`) or as the f32 values of their bits (`'f32'`). */
  readonly keyType: 'u32' | 'f32';
  /** Whether this instance sorts keys without values. */
  readonly keysOnly: boolean;
  /** Which kernel this instance runs, and its digit width and block size. */
  readonly plan: RadixPlan;
  /** The count-scan plan of sorts of `largeBlocksFrom` pairs or more (4096-key blocks), if any. */
  readonly largePlan: RadixPlan | undefined;
  /** Sorts of at least this many pairs use `largePlan` when there is one (`Infinity`: never). */
  readonly largeBlocksFrom: number;
  readonly #device: GPUDevice;
  readonly #passes: CountScanPasses | OnesweepPasses;
  readonly #passCount: number;
  /**
   * Compute passes a sort records, each of which `PerPassTimestamps` times: onesweep, the
   * histogram then one per digit; count-scan, per digit its count, scan and scatter; none for the
   * portable kernel.
   */
  readonly timedPasses: number;
  readonly #scratchKeys: GPUBuffer;
  readonly #scratchValues: GPUBuffer | undefined;
  readonly #slots: number;
  #nextSlot = 0;
  #destroyed = false;

  constructor(device: GPUDevice, options: GpuRadixSortOptions) {
    const maxCount = requireCapacity(device, options.maxCount);
    const keyBits = options.keyBits ?? 32;
    if (!Number.isInteger(keyBits) || keyBits < 4 || keyBits > 32 || keyBits % 4 !== 0) {
      throw new GpuPrimitivesError(`keyBits must be a multiple of 4 from 4 to 32, got ${keyBits}.`);
    }
    const algorithm: string = options.algorithm ?? 'count-scan';
    if (algorithm !== 'onesweep' && algorithm !== 'count-scan') throw new GpuPrimitivesError(`algorithm must be 'onesweep' or 'count-scan', got ${algorithm}.`);
    const slots = requireInteger('slots', options.slots ?? 4, 1);
    const tileKeys: number | undefined = options.tileKeys;
    if (tileKeys !== undefined && !(ONESWEEP_TILES as readonly number[]).includes(tileKeys)) throw new GpuPrimitivesError(`tileKeys must be 2048 or 4096, got ${tileKeys}.`);
    if (tileKeys !== undefined && algorithm !== 'onesweep') throw new GpuPrimitivesError(`tileKeys sets the onesweep kernel's tile; this instance runs algorithm '${algorithm}'.`);
    const fallBack: string | undefined = options.lookbackFallsBack;
    if (fallBack !== undefined && fallBack !== 'always' && fallBack !== 'sometimes') throw new GpuPrimitivesError(`lookbackFallsBack must be 'always' or 'sometimes', got ${fallBack}.`);
    const chosen = choosePlan(device, options.subgroups ?? true, algorithm === 'onesweep', tileKeys);
    const { plan, maxSubgroups } = chosen;
    const laneWords: LaneWords = options.wideLaneMasks === true ? 4 : chosen.laneWords;
    const descending = options.descending === true;
    const keyType: string = options.keyType ?? 'u32';
    const keysOnly = options.keysOnly === true;
    if (keyType !== 'u32' && keyType !== 'f32') throw new GpuPrimitivesError(`keyType must be 'u32' or 'f32', got ${keyType}.`);
    if (keyType === 'f32' && keyBits !== 32) throw new GpuPrimitivesError(`keyType 'f32' sorts all 32 bits; got keyBits ${keyBits}.`);
    const largeBlocksFrom = options.largeBlocksFrom ?? LARGE_BLOCKS_FROM;
    if (!(largeBlocksFrom === Infinity || (Number.isInteger(largeBlocksFrom) && largeBlocksFrom >= 1))) {
      throw new GpuPrimitivesError(`largeBlocksFrom must be a positive integer or Infinity, got ${largeBlocksFrom}.`);
    }
    const largePlan = largeBlocksFrom <= maxCount ? largeBlockPlan(plan) : undefined;
    if (plan.kind === 'onesweep' && maxCount > ONESWEEP_MAX_COUNT) {
      throw new GpuPrimitivesError(`the onesweep kernel sorts at most ${ONESWEEP_MAX_COUNT} pairs (30-bit counts), got maxCount ${maxCount}; use algorithm 'count-scan'.`);
    }
    this.maxCount = maxCount;
    this.keyBits = keyBits;
    this.descending = descending;
    this.keyType = keyType;
    this.keysOnly = keysOnly;
    this.plan = plan;
    this.largePlan = largePlan;
    this.largeBlocksFrom = largeBlocksFrom;
    this.#device = device;
    this.#slots = slots;
    this.#passCount = radixPasses(keyBits, plan.bits);
    this.timedPasses = plan.kind === 'onesweep' ? this.#passCount + 1 : plan.kind === 'subgroups' ? 3 * this.#passCount : 0;
    const gridLimit = gridLimitFor(device, options.maxWorkgroupsPerDimension);
    this.#passes =
      plan.kind === 'onesweep'
        ? new OnesweepPasses(device, { plan, maxSubgroups, laneWords, maxCount, keyBits, descending, floatKeys: keyType === 'f32', keysOnly, slots, gridLimit, ...(options.lookbackFallsBack ? { fallBack: options.lookbackFallsBack } : {}) })
        : new CountScanPasses(device, { plan, maxSubgroups, laneWords, maxCount, keyBits, passes: this.#passCount, slots, gridLimit, maxWorkgroupsPerDimension: options.maxWorkgroupsPerDimension, descending, floatKeys: keyType === 'f32', keysOnly, ...(largePlan ? { largePlan, largeFrom: largeBlocksFrom } : {}) });
    const scratch = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC;
    this.#scratchKeys = device.createBuffer({ label: 'cuttle.radix-sort.keys', size: maxCount * WORD, usage: scratch });
    this.#scratchValues = keysOnly ? undefined : device.createBuffer({ label: 'cuttle.radix-sort.values', size: maxCount * WORD, usage: scratch });
  }

  /**
   * Records the sort of the first `count` pairs of `keys` and `values` (both STORAGE, plus
   * COPY_DST when the plan takes an odd number of passes for keyBits: the last pass lands in
   * scratch and is copied back).
   */
  encode(encoder: GPUCommandEncoder, keys: GPUBuffer, values: GPUBuffer, count: number, timestamps?: PassTimestamps | PerPassTimestamps): void {
    if (this.#destroyed) throw new GpuPrimitivesError('This GpuRadixSort was destroyed; create a new one.');
    if (this.keysOnly) throw new GpuPrimitivesError('This GpuRadixSort was built with keysOnly: sort with encodeKeys(encoder, keys, count).');
    requireCount(count, this.maxCount, 'this GpuRadixSort');
    const oddPasses = this.#passCount % 2 === 1;
    // The last of an odd number of passes lands in scratch and is copied back.
    const copyBack = oddPasses ? GPUBufferUsage.COPY_DST : 0;
    const why = `With keyBits ${this.keyBits} (an odd number of passes) `;
    requireWordBuffer('keys', keys, count, copyBack, why);
    requireWordBuffer('values', values, count, copyBack, why);
    if (keys === values) throw new GpuPrimitivesError('keys and values must be different buffers.');
    if (count === 0) return;

    const slot = this.#nextSlot;
    this.#nextSlot = (slot + 1) % this.#slots;
    const buffers: SortBuffers = { keys, values, scratchKeys: this.#scratchKeys, scratchValues: this.#scratchValues! };
    this.#passes.encode(encoder, slot, buffers, count, this.#timestamps(timestamps));
    if (oddPasses) {
      encoder.copyBufferToBuffer(this.#scratchKeys, 0, keys, 0, count * WORD);
      encoder.copyBufferToBuffer(this.#scratchValues!, 0, values, 0, count * WORD);
    }
  }

  /**
   * Records the sort of the first `count` keys of `keys` (STORAGE, plus COPY_DST for an odd
   * number of passes) on an instance built with `keysOnly`.
   */
  encodeKeys(encoder: GPUCommandEncoder, keys: GPUBuffer, count: number, timestamps?: PassTimestamps | PerPassTimestamps): void {
    if (this.#destroyed) throw new GpuPrimitivesError('This GpuRadixSort was destroyed; create a new one.');
    if (!this.keysOnly) throw new GpuPrimitivesError('encodeKeys needs an instance built with keysOnly: true (this one sorts pairs: use encode).');
    requireCount(count, this.maxCount, 'this GpuRadixSort');
    const oddPasses = this.#passCount % 2 === 1;
    requireWordBuffer('keys', keys, count, oddPasses ? GPUBufferUsage.COPY_DST : 0, `With keyBits ${this.keyBits} (an odd number of passes) `);
    if (count === 0) return;
    const slot = this.#nextSlot;
    this.#nextSlot = (slot + 1) % this.#slots;
    // The value slots of the pair cache and the bind groups take the keys; the kernel skips them.
    this.#passes.encode(encoder, slot, { keys, values: keys, scratchKeys: this.#scratchKeys, scratchValues: this.#scratchKeys }, count, this.#timestamps(timestamps));
    if (oddPasses) encoder.copyBufferToBuffer(this.#scratchKeys, 0, keys, 0, count * WORD);
  }

  /** Uploads, sorts and reads back keys only (one submit). Convenient for tests and tools. */
  async sortKeys(keys: Uint32Array<ArrayBuffer>): Promise<Uint32Array> {
    const sorted = await sortRoundTrip(this.#device, 'cuttle.radix-sort.keys', keys, new Uint32Array(keys.length), (encoder, keyBuffer, _values, count) => {
      this.encodeKeys(encoder, keyBuffer, count);
    });
    return sorted.keys;
  }

  /** Per-pass timestamps: checked against the query set; the portable kernel has none. */
  #timestamps(timestamps: PassTimestamps | PerPassTimestamps | undefined): PassTimestamps | PerPassTimestamps | undefined {
    if (timestamps && 'perPass' in timestamps) {
      if (this.timedPasses === 0) throw new GpuPrimitivesError(`per-pass timestamps need the onesweep or subgroup kernel; this instance runs the ${this.plan.kind} kernel.`);
      if (!Number.isInteger(timestamps.firstIndex) || timestamps.firstIndex < 0 || timestamps.firstIndex + 2 * this.timedPasses > timestamps.querySet.count) {
        throw new GpuPrimitivesError(`per-pass timestamps need ${2 * this.timedPasses} queries from firstIndex ${timestamps.firstIndex}; the query set holds ${timestamps.querySet.count}.`);
      }
      return timestamps;
    }
    return timestamps;
  }

  /** Uploads, sorts and reads back (one submit). Convenient for tests and tools, not for hot paths. */
  sort(keys: Uint32Array<ArrayBuffer>, values: Uint32Array<ArrayBuffer>): Promise<SortedPairs> {
    return sortRoundTrip(this.#device, 'cuttle.radix-sort', keys, values, (encoder, keyBuffer, valueBuffer, count) => {
      this.encode(encoder, keyBuffer, valueBuffer, count);
    });
  }

  /** Frees the instance's scratch, pass and uniform buffers; later calls do nothing. */
  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.#passes.destroy();
    this.#scratchKeys.destroy();
    this.#scratchValues?.destroy();
  }
}
