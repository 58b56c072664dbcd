import radixCommonWgsl from './shaders/radix-common.wgsl?raw';
import radixWgsl from './shaders/radix-sort.wgsl?raw';
import radixSubgroupsWgsl from './shaders/radix-sort-subgroups.wgsl?raw';
import subgroupRankWgsl from './shaders/subgroup-rank.wgsl?raw';
import type { PassTimestamps, PerPassTimestamps } from './api.ts';
import { BufferPairCache } from './buffer-pair-cache.ts';
import { dispatchGrid } from './dispatch-grid.ts';
import { GpuScan } from './gpu-scan.ts';
import { scanStatusWords } from './scan-plan.ts';
import type { RadixPlan } from './radix-plan.ts';
import { type LaneWords, subgroupLanesSource } from './subgroup-lanes.ts';
import { passTimestampWrites, timestampsOfPass } from './timestamps.ts';

const WORD = 4;
const SLOT_BYTES = 256;
const PARAMS_BYTES = 32;

export interface CountScanOptions {
  plan: RadixPlan;
  maxSubgroups: number;
  /** Words of the subgroup kernels' ballot masks. */
  laneWords: LaneWords;
  maxCount: number;
  keyBits: number;
  passes: number;
  slots: number;
  gridLimit: number;
  maxWorkgroupsPerDimension: number | undefined;
  /**
   * Benchmarks only: records work between each digit's scan and its scatter pass (an L2 flush,
   * to time the scatter without the keys the count pass left in the cache).
   */
  beforeScatter?: (encoder: GPUCommandEncoder) => void;
  /**
   * Benchmarks only: the WGSL of `fn scatter_offset(digit: u32, block: u32) -> u32`, where the
   * subgroup scatter writes each tile's digits (default: the scanned count table).
   */
  scatterOffsetSource?: string;
  /** Benchmarks only: blocks one count workgroup counts, 1 to 8 (default: `countTilesFor`). */
  countTiles?: 1 | 2 | 4 | 8;
  /**
   * Benchmarks only: the scan clears its tile status with a clear command before each scan (as
   * before 2026-11-27 morning) instead of the scatter zeroing it.
   */
  scanClearsStatus?: boolean;
  /** Benchmarks only: rewrites the module's WGSL (probes and padding builds). */
  sourceTransform?: (wgsl: string) => string;
  /**
   * A second subgroup plan for large sorts (4096-key blocks written in two rounds through the
   * tile, `tileRounds` 2), used from `largeFrom` pairs; it shares the scan and the count table.
   */
  largePlan?: RadixPlan;
  largeFrom?: number;
  /** Largest key first (each digit inverted); pairs with equal keys keep their order. */
  descending?: boolean;
  /** Keys are f32 bit patterns, ordered as floats (digits taken from the bits in float order). */
  floatKeys?: boolean;
  /** No values: the scatter moves keys only, and the value bindings hold placeholders. */
  keysOnly?: boolean;
}

/** Key order and payload: what digit_of and the scatter are specialised for. */
interface KeyOrder {
  descending: boolean;
  floatKeys: boolean;
  keysOnly: boolean;
}

/**
 * `fn digit_of(key: u32) -> u32`, the key's digit in the pass `params` describes. f32 keys take
 * their digits from the bits in float order (the sign bit set for positives, all bits flipped
 * for negatives); a descending sort inverts each digit. The keys themselves move unchanged. For
 * ascending u32 keys it is the plain shift and mask, so that kernel compiles as it was measured.
 */
export function digitOfSource({ descending, floatKeys }: Pick<KeyOrder, 'descending' | 'floatKeys'>): string {
  const ordered = floatKeys ? '(key ^ select(0x80000000u, 0xffffffffu, (key >> 31u) == 1u))' : 'key';
  const digit = `(${ordered} >> params.shift) & params.mask`;
  return `fn digit_of(key: u32) -> u32 {\n  return ${descending ? `params.mask - (${digit})` : digit};\n}`;
}

/**
 * The key past-the-end slots of a subgroup scatter's block take: its digit is the last in every
 * pass (all ones in the order digit_of sorts by), so it ranks after every real key.
 */
export function padKey({ descending, floatKeys }: Pick<KeyOrder, 'descending' | 'floatKeys'>): number {
  // All ones in sort order (all zeros when descending inverts every digit), back to key bits.
  const ordered = descending ? 0 : 0xffffffff;
  if (!floatKeys) return ordered;
  return (ordered & 0x80000000) !== 0 ? (ordered ^ 0x80000000) >>> 0 : ~ordered >>> 0;
}

/** The scratch and caller buffers one sort ping-pongs between. */
export interface SortBuffers {
  keys: GPUBuffer;
  values: GPUBuffer;
  scratchKeys: GPUBuffer;
  scratchValues: GPUBuffer;
}

interface PassGroups {
  count: GPUBindGroup;
  scatter: GPUBindGroup;
}

/** One module's count and scatter pipelines, for one plan. */
interface Kernels {
  plan: RadixPlan;
  count: GPUComputePipeline;
  scatter: GPUComputePipeline;
}

/** Where the subgroup scatter writes a tile's digit: the offset the scan gave it. */
const SCATTER_OFFSET_FROM_SCAN = 'fn scatter_offset(digit: u32, block: u32) -> u32 { return tile_offset(digit, block); }';

/**
 * Blocks per count workgroup for a sort of `blocks` blocks: 8 from 8,192 blocks (2^24 keys of
 * 2048-key blocks), where it took the H100's count pass from 0.056 to 0.043 ms per digit; fewer
 * below, so a small sort still spreads its count pass over the whole GPU.
 */
export function countTilesFor(blocks: number): 1 | 2 | 4 | 8 {
  if (blocks >= 8192) return 8;
  if (blocks >= 4096) return 4;
  if (blocks >= 2048) return 2;
  return 1;
}

/** The module of `plan`: its constants, the shared count kernel, then the plan's scatter. */
function radixSource(plan: RadixPlan, maxSubgroups: number, laneWords: LaneWords, order: KeyOrder, scatterOffset = SCATTER_OFFSET_FROM_SCAN): string {
  const tileRounds = plan.tileRounds ?? 1;
  const constants = [
    `const RADIX: u32 = ${plan.radix}u;`,
    `const BLOCK: u32 = ${plan.block}u;`,
    `const COUNT_ITEMS: u32 = ${plan.block / 256}u;`,
    `const HAS_VALUES: bool = ${!order.keysOnly};`,
    `const PAD_KEY: u32 = 0x${padKey(order).toString(16)}u;`,
  ];
  if (plan.kind === 'portable') return [...constants, `const ITEMS: u32 = ${plan.items}u;`, radixCommonWgsl, digitOfSource(order), radixWgsl].join('\n');
  // `enable` must come first in a WGSL module.
  return [
    'enable subgroups;',
    ...constants,
    `const SCATTER_SIZE: u32 = ${plan.workgroupSize}u;`,
    `const SCATTER_ITEMS: u32 = ${plan.items}u;`,
    `const TILE_ROUNDS: u32 = ${tileRounds}u;`,
    `const TILE: u32 = ${plan.block / tileRounds}u;`,
    `const TILE_ITEMS: u32 = ${plan.block / tileRounds / plan.workgroupSize}u;`,
    `const MAX_SUBGROUPS: u32 = ${maxSubgroups}u;`,
    radixCommonWgsl,
    digitOfSource(order),
    subgroupLanesSource(laneWords),
    subgroupRankWgsl,
    scatterOffset,
    radixSubgroupsWgsl,
  ].join('\n');
}

/**
 * Per digit: a digit count per block, an exclusive scan of the digit-major count table
 * (GpuScan), and a scatter that ranks each key inside its block (radix-common.wgsl with
 * radix-sort.wgsl or radix-sort-subgroups.wgsl) and zeroes the scan's status for the next scan.
 * A sort of `largeFrom` pairs or more runs the large plan's kernels instead, when there is one.
 * GpuRadixSort owns scratch and validation.
 */
export class CountScanPasses {
  readonly #device: GPUDevice;
  readonly #options: CountScanOptions;
  /** The plan's kernels, then the large plan's when there is one. */
  readonly #kernels: Kernels[];
  readonly #scan: GpuScan;
  readonly #params: GPUBuffer;
  readonly #counts: GPUBuffer;
  readonly #offsets: GPUBuffer;
  /** Keys only: small buffers the value bindings take (the kernels never touch them). */
  readonly #placeholders: [GPUBuffer, GPUBuffer] | undefined;
  /** Per (keys, values) pair: per kernel set, per slot, per pass. */
  readonly #groups = new BufferPairCache<PassGroups[][][]>();

  constructor(device: GPUDevice, options: CountScanOptions) {
    const { plan, maxCount, passes, slots } = options;
    this.#device = device;
    this.#options = options;
    const maxBlocks = Math.ceil(maxCount / plan.block);
    this.#scan = new GpuScan(device, {
      maxCount: plan.radix * maxBlocks,
      slots: slots * passes,
      clearsStatus: options.scanClearsStatus === true,
      ...(options.maxWorkgroupsPerDimension === undefined ? {} : { maxWorkgroupsPerDimension: options.maxWorkgroupsPerDimension }),
    });
    const order: KeyOrder = { descending: options.descending === true, floatKeys: options.floatKeys === true, keysOnly: options.keysOnly === true };
    const kernels = (kernelPlan: RadixPlan, label: string): Kernels => {
      const source = radixSource(kernelPlan, options.maxSubgroups, options.laneWords, order, options.scatterOffsetSource);
      const module = device.createShaderModule({ label, code: options.sourceTransform ? options.sourceTransform(source) : source });
      return {
        plan: kernelPlan,
        count: device.createComputePipeline({ label: `${label}.count`, layout: 'auto', compute: { module, entryPoint: 'count_digits' } }),
        scatter: device.createComputePipeline({ label: `${label}.scatter`, layout: 'auto', compute: { module, entryPoint: (kernelPlan.tileRounds ?? 1) > 1 ? 'scatter_rounds' : 'scatter' } }),
      };
    };
    this.#kernels = [kernels(plan, 'cuttle.radix-sort')];
    // The scan and the table (sized by `plan`, whose smaller blocks make more columns) serve both.
    if (options.largePlan) this.#kernels.push(kernels(options.largePlan, 'cuttle.radix-sort.large'));
    this.#counts = device.createBuffer({ label: 'cuttle.radix-sort.counts', size: plan.radix * maxBlocks * WORD, usage: GPUBufferUsage.STORAGE });
    this.#offsets = device.createBuffer({ label: 'cuttle.radix-sort.offsets', size: plan.radix * maxBlocks * WORD, usage: GPUBufferUsage.STORAGE });
    this.#params = device.createBuffer({ label: 'cuttle.radix-sort.params', size: slots * passes * SLOT_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    // Two writable bindings may not alias one buffer, so keys-only sorts bind these for values.
    this.#placeholders = order.keysOnly
      ? [device.createBuffer({ label: 'cuttle.radix-sort.no-values-in', size: 16, usage: GPUBufferUsage.STORAGE }), device.createBuffer({ label: 'cuttle.radix-sort.no-values-out', size: 16, usage: GPUBufferUsage.STORAGE })]
      : undefined;
  }

  /**
   * Records every pass; even passes write scratch, odd passes write back to the caller's buffers.
   * Per-pass timestamps time each digit's count, scan and scatter passes, in that order.
   */
  encode(encoder: GPUCommandEncoder, slot: number, buffers: SortBuffers, count: number, timestamps?: PassTimestamps | PerPassTimestamps): void {
    const { keyBits, passes, gridLimit } = this.#options;
    const kernelIndex = this.#kernelIndex(count);
    const kernels = this.#kernels[kernelIndex]!;
    const { bits, block, radix } = kernels.plan;
    const blocks = Math.ceil(count / block);
    const grid = dispatchGrid(blocks, gridLimit);
    const countTiles = this.#options.countTiles ?? countTilesFor(blocks);
    const countGrid = dispatchGrid(Math.ceil(blocks / countTiles), gridLimit);
    const statusWords = this.#options.scanClearsStatus ? 0 : scanStatusWords(radix * blocks, this.#scan.variant);
    const words = new Uint32Array((passes * SLOT_BYTES) / WORD);
    for (let pass = 0; pass < passes; pass++) {
      const shift = pass * bits;
      // The last pass sorts only the bits left when keyBits is not a multiple of the digit width.
      const mask = (1 << Math.min(bits, keyBits - shift)) - 1;
      words.set([count, blocks, grid.x, shift, mask, countGrid.x, Math.log2(countTiles), statusWords], (pass * SLOT_BYTES) / WORD);
    }
    this.#device.queue.writeBuffer(this.#params, slot * passes * SLOT_BYTES, words);

    // Compute pass `index` of the sort (3 per digit): whole-sort timestamps before the first and
    // after the last, per-pass ones around each.
    const writes = (index: number): PassTimestamps | undefined => timestampsOfPass(timestamps, index, 3 * passes);
    const groups = this.#passGroups(buffers, kernelIndex)[slot]!;
    for (let pass = 0; pass < passes; pass++) {
      const counting = encoder.beginComputePass({ label: 'cuttle.radix-sort.count', ...passTimestampWrites(writes(3 * pass)) });
      counting.setPipeline(kernels.count);
      counting.setBindGroup(0, groups[pass]!.count);
      counting.dispatchWorkgroups(countGrid.x, countGrid.y);
      counting.end();
      this.#scan.encode(encoder, this.#counts, this.#offsets, radix * blocks, writes(3 * pass + 1));
      this.#options.beforeScatter?.(encoder);
      const scattering = encoder.beginComputePass({ label: 'cuttle.radix-sort.scatter', ...passTimestampWrites(writes(3 * pass + 2)) });
      scattering.setPipeline(kernels.scatter);
      scattering.setBindGroup(0, groups[pass]!.scatter);
      scattering.dispatchWorkgroups(grid.x, grid.y);
      scattering.end();
    }
  }

  /** The plan a sort of `count` pairs runs: the large plan from `largeFrom` pairs, if there is one. */
  planFor(count: number): RadixPlan {
    return this.#kernels[this.#kernelIndex(count)]!.plan;
  }

  #kernelIndex(count: number): number {
    return this.#kernels.length > 1 && count >= (this.#options.largeFrom ?? Infinity) ? 1 : 0;
  }

  /** The count table scan's tile status, which each scatter pass leaves zero (tests read it). */
  get scanStatus(): GPUBuffer {
    return this.#scan.statusBuffer;
  }

  destroy(): void {
    this.#scan.destroy();
    for (const buffer of [this.#counts, this.#offsets, this.#params, ...(this.#placeholders ?? [])]) buffer.destroy();
    this.#groups.clear();
  }

  /** Bind groups for every slot and pass of one (keys, values) pair and kernel set, made on first use. */
  #passGroups({ keys, values, scratchKeys, scratchValues }: SortBuffers, kernelIndex: number): PassGroups[][] {
    const { passes, slots } = this.#options;
    const { count: countPipeline, scatter: scatterPipeline } = this.#kernels[kernelIndex]!;
    const perKernels = this.#groups.get(keys, values, () => []);
    return (perKernels[kernelIndex] ??= (() => {
      const perSlot: PassGroups[][] = [];
      for (let slot = 0; slot < slots; slot++) {
        const passGroups: PassGroups[] = [];
        for (let pass = 0; pass < passes; pass++) {
          const params: GPUBufferBinding = { buffer: this.#params, offset: (slot * passes + pass) * SLOT_BYTES, size: PARAMS_BYTES };
          // Even passes read the caller's buffers and write scratch; odd passes the reverse.
          const [fromKeys, toKeys] = pass % 2 === 0 ? [keys, scratchKeys] : [scratchKeys, keys];
          const [fromValues, toValues] = this.#placeholders ?? (pass % 2 === 0 ? [values, scratchValues] : [scratchValues, values]);
          passGroups.push({
            count: this.#device.createBindGroup({
              layout: countPipeline.getBindGroupLayout(0),
              entries: [
                { binding: 0, resource: params },
                { binding: 1, resource: { buffer: fromKeys } },
                { binding: 2, resource: { buffer: this.#counts } },
              ],
            }),
            scatter: this.#device.createBindGroup({
              layout: scatterPipeline.getBindGroupLayout(0),
              entries: [
                { binding: 0, resource: params },
                { binding: 1, resource: { buffer: fromKeys } },
                { binding: 3, resource: { buffer: fromValues } },
                { binding: 4, resource: { buffer: this.#offsets } },
                { binding: 5, resource: { buffer: toKeys } },
                { binding: 6, resource: { buffer: toValues } },
                { binding: 7, resource: { buffer: this.#scan.statusBuffer } },
              ],
            }),
          });
        }
        perSlot.push(passGroups);
      }
      return perSlot;
    })());
  }
}
