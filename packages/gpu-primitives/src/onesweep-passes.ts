import subgroupRankWgsl from './shaders/subgroup-rank.wgsl?raw';
import onesweepWgsl from './shaders/radix-onesweep.wgsl?raw';
import type { PassTimestamps, PerPassTimestamps } from './api.ts';
import { BufferPairCache } from './buffer-pair-cache.ts';
import type { SortBuffers } from './count-scan-passes.ts';
import { dispatchGrid } from './dispatch-grid.ts';
import type { RadixPlan } from './radix-plan.ts';
import { type LaneWords, subgroupLanesSource } from './subgroup-lanes.ts';
import { passTimestampWrites, timestampsOfPass } from './timestamps.ts';

const WORD = 4;
const SLOT_BYTES = 256;
const PARAMS_BYTES = 48;
const RADIX = 256;
/** Keys per invocation per stretch of the histogram pass (stretches of 4096 keys). */
const HISTOGRAM_ITEMS = 16;
/** At most this many histogram workgroups: each adds its counts to the global ones once. */
const MAX_HISTOGRAM_GROUPS = 2048;
/** Counts travel in 30 bits of a status word. */
export const ONESWEEP_MAX_COUNT = 2 ** 30 - 1;

export interface OnesweepOptions {
  plan: RadixPlan;
  maxSubgroups: number;
  /** Words of the subgroup kernels' ballot masks. */
  laneWords: LaneWords;
  maxCount: number;
  keyBits: number;
  descending: boolean;
  /** Keys are f32 bit patterns (sorted in float order; needs keyBits 32). */
  floatKeys: boolean;
  /** No values: the value bindings get placeholders and the kernel skips them. */
  keysOnly: boolean;
  slots: number;
  gridLimit: number;
  /** Tests only: the look-back's fallback path for every predecessor, or for a third of them. */
  fallBack?: 'always' | 'sometimes';
  /** Benchmarks only: no look-back, each digit's offsets guessed from the histogram; the output is NOT sorted. */
  profileWithoutLookback?: boolean;
  /** Benchmarks only: look back before sorting the keys into the tile (the first version's order). */
  lookBackBeforeTileSort?: boolean;
  /** Benchmarks only: count what the look-back does (see `readWalkStats`). */
  countWalks?: boolean;
}

/** What the look-back did over the digit passes of the sorts since the last `readWalkStats` (benchmarks only). */
export interface WalkStats {
  /** Status words read, those read NOT_READY (spins), walks ended by the first word read, tiles counted by the fallback. */
  reads: number;
  notReady: number;
  firstReadEnds: number;
  fallbacks: number;
}

const WALK_STATS = 4;

interface SlotGroups {
  histogram: GPUBindGroup;
  passes: GPUBindGroup[];
}

/**
 * The passes of a one-sweep radix sort (radix-onesweep.wgsl): a histogram of every digit
 * position and a scan of it, then one ranking pass per digit whose tiles find their output
 * offsets by decoupled look-back. GpuRadixSort owns the scratch buffers and the validation.
 */
export class OnesweepPasses {
  readonly passes: number;
  readonly #device: GPUDevice;
  readonly #options: OnesweepOptions;
  readonly #histogramPipeline: GPUComputePipeline;
  readonly #scanPipeline: GPUComputePipeline;
  readonly #sweepPipeline: GPUComputePipeline;
  readonly #params: GPUBuffer;
  readonly #status: GPUBuffer;
  readonly #maxTiles: number;
  readonly #offsets: GPUBuffer;
  readonly #scanGroup: GPUBindGroup;
  /** Bound in place of the value buffers when sorting keys only (read, then written). */
  readonly #placeholders: [GPUBuffer, GPUBuffer] | undefined;
  readonly #groups = new BufferPairCache<SlotGroups[]>();

  constructor(device: GPUDevice, options: OnesweepOptions) {
    const { plan, maxSubgroups, laneWords, maxCount, keyBits, slots } = options;
    this.#device = device;
    this.#options = options;
    this.passes = Math.ceil(keyBits / plan.bits);
    const code = [
      'enable subgroups;',
      `const RADIX: u32 = ${RADIX}u;`,
      `const BLOCK: u32 = ${plan.block}u;`,
      `const TILE: u32 = ${plan.block}u;`,
      `const SCATTER_SIZE: u32 = ${plan.workgroupSize}u;`,
      `const SCATTER_ITEMS: u32 = ${plan.items}u;`,
      `const MAX_SUBGROUPS: u32 = ${maxSubgroups}u;`,
      `const HISTOGRAM_ITEMS: u32 = ${HISTOGRAM_ITEMS}u;`,
      subgroupLanesSource(laneWords),
      onesweepWgsl,
      subgroupRankWgsl,
    ].join('\n');
    const module = device.createShaderModule({ label: 'cuttle.radix-sort.onesweep', code });
    const constants: Record<string, number> = { ...(options.fallBack ? { FALL_BACK: options.fallBack === 'always' ? 1 : 2 } : {}), ...(options.keysOnly ? { HAS_VALUES: 0 } : {}), ...(options.profileWithoutLookback ? { PROFILE_NO_LOOKBACK: 1 } : {}), ...(options.lookBackBeforeTileSort ? { SORT_TILE_FIRST: 0 } : {}), ...(options.countWalks ? { COUNT_WALKS: 1 } : {}) };
    const pipeline = (entryPoint: string): GPUComputePipeline =>
      device.createComputePipeline({ label: `cuttle.radix-sort.${entryPoint}`, layout: 'auto', compute: { module, entryPoint, constants } });
    this.#histogramPipeline = pipeline('histogram_all');
    this.#scanPipeline = pipeline('scan_offsets');
    this.#sweepPipeline = pipeline('onesweep');
    const maxTiles = Math.ceil(maxCount / plan.block);
    this.#params = device.createBuffer({ label: 'cuttle.radix-sort.onesweep-params', size: slots * this.passes * SLOT_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    this.#maxTiles = maxTiles;
    this.#status = device.createBuffer({ label: 'cuttle.radix-sort.status', size: (1 + maxTiles * RADIX + WALK_STATS) * WORD, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | (options.countWalks ? GPUBufferUsage.COPY_SRC : 0) });
    this.#offsets = device.createBuffer({ label: 'cuttle.radix-sort.digit-offsets', size: 4 * RADIX * WORD, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
    this.#placeholders = options.keysOnly
      ? [device.createBuffer({ label: 'cuttle.radix-sort.no-values-in', size: 16, usage: GPUBufferUsage.STORAGE }), device.createBuffer({ label: 'cuttle.radix-sort.no-values-out', size: 16, usage: GPUBufferUsage.STORAGE })]
      : undefined;
    this.#scanGroup = device.createBindGroup({ layout: this.#scanPipeline.getBindGroupLayout(0), entries: [{ binding: 6, resource: { buffer: this.#offsets } }] });
  }

  /**
   * Records the sort of `count` pairs from `keys`/`values`, ping-ponging with the scratch
   * buffers: even passes write scratch, odd passes write back (the caller copies an odd last pass).
   */
  encode(encoder: GPUCommandEncoder, slot: number, buffers: SortBuffers, count: number, timestamps?: PassTimestamps | PerPassTimestamps): void {
    const { plan, keyBits, descending, floatKeys, gridLimit } = this.#options;
    const tiles = Math.ceil(count / plan.block);
    const words = new Uint32Array((this.passes * SLOT_BYTES) / WORD);
    for (let pass = 0; pass < this.passes; pass++) {
      const shift = pass * plan.bits;
      const mask = (1 << Math.min(plan.bits, keyBits - shift)) - 1;
      words.set([count, tiles, shift, mask, this.passes, keyBits, pass, descending ? 1 : 0, floatKeys ? 1 : 0], (pass * SLOT_BYTES) / WORD);
    }
    this.#device.queue.writeBuffer(this.#params, slot * this.passes * SLOT_BYTES, words);
    const groups = this.#slotGroups(buffers)[slot]!;

    encoder.clearBuffer(this.#offsets);
    // Whole-sort timestamps go before the first pass and after the last; per-pass ones around each.
    const writes = (pass: number): PassTimestamps | undefined => timestampsOfPass(timestamps, pass, this.passes + 1);
    const counting = encoder.beginComputePass({ label: 'cuttle.radix-sort.histogram', ...passTimestampWrites(writes(0)) });
    counting.setPipeline(this.#histogramPipeline);
    counting.setBindGroup(0, groups.histogram);
    counting.dispatchWorkgroups(Math.min(MAX_HISTOGRAM_GROUPS, Math.ceil(count / (256 * HISTOGRAM_ITEMS))));
    counting.setPipeline(this.#scanPipeline);
    counting.setBindGroup(0, this.#scanGroup);
    counting.dispatchWorkgroups(this.passes);
    counting.end();

    // Tiles come by ticket, so the grid's shape only has to hold enough workgroups.
    const grid = dispatchGrid(tiles, gridLimit);
    for (let pass = 0; pass < this.passes; pass++) {
      encoder.clearBuffer(this.#status, 0, (1 + tiles * RADIX) * WORD);
      const sweeping = encoder.beginComputePass({ label: 'cuttle.radix-sort.onesweep', ...passTimestampWrites(writes(pass + 1)) });
      sweeping.setPipeline(this.#sweepPipeline);
      sweeping.setBindGroup(0, groups.passes[pass]);
      sweeping.dispatchWorkgroups(grid.x, grid.y);
      sweeping.end();
    }
  }

  /**
   * Benchmarks only (countWalks): reads and zeroes the look-back's counters after sorts of
   * `count` keys (the counters sit after that size's tile statuses).
   */
  async readWalkStats(count: number): Promise<WalkStats> {
    const offset = (1 + Math.ceil(count / this.#options.plan.block) * RADIX) * WORD;
    if (offset + WALK_STATS * WORD > (1 + this.#maxTiles * RADIX + WALK_STATS) * WORD) throw new RangeError(`no walk statistics for ${count} keys`);
    const readback = this.#device.createBuffer({ size: WALK_STATS * WORD, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
    const encoder = this.#device.createCommandEncoder();
    encoder.copyBufferToBuffer(this.#status, offset, readback, 0, WALK_STATS * WORD);
    encoder.clearBuffer(this.#status, offset, WALK_STATS * WORD);
    this.#device.queue.submit([encoder.finish()]);
    await readback.mapAsync(GPUMapMode.READ);
    const [reads, notReady, firstReadEnds, fallbacks] = new Uint32Array(readback.getMappedRange().slice(0));
    readback.destroy();
    return { reads: reads!, notReady: notReady!, firstReadEnds: firstReadEnds!, fallbacks: fallbacks! };
  }

  destroy(): void {
    for (const buffer of [this.#params, this.#status, this.#offsets, ...(this.#placeholders ?? [])]) buffer.destroy();
    this.#groups.clear();
  }

  #slotGroups(buffers: SortBuffers): SlotGroups[] {
    const { keys, values, scratchKeys, scratchValues } = buffers;
    return this.#groups.get(keys, values, () =>
      Array.from({ length: this.#options.slots }, (_, slot): SlotGroups => {
        const params = (pass: number): GPUBufferBinding => ({ buffer: this.#params, offset: (slot * this.passes + pass) * SLOT_BYTES, size: PARAMS_BYTES });
        return {
          histogram: this.#device.createBindGroup({
            layout: this.#histogramPipeline.getBindGroupLayout(0),
            entries: [
              { binding: 0, resource: params(0) },
              { binding: 1, resource: { buffer: keys } },
              { binding: 6, resource: { buffer: this.#offsets } },
            ],
          }),
          passes: Array.from({ length: this.passes }, (_, pass) => {
            const [fromKeys, fromValues, toKeys, toValues] = this.#placeholders
              ? [pass % 2 === 0 ? keys : scratchKeys, this.#placeholders[0], pass % 2 === 0 ? scratchKeys : keys, this.#placeholders[1]]
              : pass % 2 === 0 ? [keys, values, scratchKeys, scratchValues] : [scratchKeys, scratchValues, keys, values];
            return this.#device.createBindGroup({
              layout: this.#sweepPipeline.getBindGroupLayout(0),
              entries: [
                { binding: 0, resource: params(pass) },
                { binding: 1, resource: { buffer: fromKeys } },
                { binding: 2, resource: { buffer: fromValues } },
                { binding: 3, resource: { buffer: toKeys } },
                { binding: 4, resource: { buffer: toValues } },
                { binding: 5, resource: { buffer: this.#status } },
                { binding: 6, resource: { buffer: this.#offsets } },
              ],
            });
          }),
        };
      }),
    );
  }
}
