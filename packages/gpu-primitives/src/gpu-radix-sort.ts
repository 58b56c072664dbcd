import radixCommonWgsl from './shaders/radix-common.wgsl?raw';
import radixWgsl from './shaders/radix-sort.wgsl?raw';
import radixSubgroupsWgsl from './shaders/radix-sort-subgroups.wgsl?raw';
import type { PassTimestamps } from './api.ts';
import { BufferPairCache } from './buffer-pair-cache.ts';
import { dispatchGrid } from './dispatch-grid.ts';
import { GpuPrimitivesError } from './errors.ts';
import { GpuScan } from './gpu-scan.ts';
import { PORTABLE_RADIX_PLAN, type RadixPlan, radixPasses, subgroupRadixLayout } from './radix-plan.ts';
import { sortRoundTrip, type SortedPairs } from './sort-round-trip.ts';
import { passTimestampWrites } from './timestamps.ts';
import { gridLimitFor, requireCapacity, requireCount, requireInteger, requireWordBuffer } from './validate.ts';

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
}

const SLOT_BYTES = 256;
const PARAMS_BYTES = 32;
const WORD = 4;

/** The subgroup plan when the device can run it (and the caller allows it), else the portable one. */
function choosePlan(device: GPUDevice, allowSubgroups: boolean): { plan: RadixPlan; maxSubgroups: number } {
  // adapterInfo on GPUDevice is recent; without it assume the widest range WebGPU allows.
  const info = (device as Partial<Pick<GPUDevice, 'adapterInfo'>>).adapterInfo;
  const layout = subgroupRadixLayout(Math.max(4, info?.subgroupMinSize ?? 4), Math.min(128, info?.subgroupMaxSize ?? 128));
  const fits = layout.storageBytes <= device.limits.maxComputeWorkgroupStorageSize;
  if (allowSubgroups && device.features.has('subgroups') && fits) return { plan: layout.plan, maxSubgroups: layout.maxSubgroups };
  return { plan: PORTABLE_RADIX_PLAN, maxSubgroups: 0 };
}

/** The module of `plan`: its constants, the shared count kernel, then the plan's scatter. */
function radixSource(plan: RadixPlan, maxSubgroups: number): string {
  const constants = [`const RADIX: u32 = ${plan.radix}u;`, `const BLOCK: u32 = ${plan.block}u;`, `const COUNT_ITEMS: u32 = ${plan.block / 256}u;`];
  if (plan.kind === 'portable') return [...constants, `const ITEMS: u32 = ${plan.items}u;`, radixCommonWgsl, radixWgsl].join('\n');
  // `enable` must come first in a WGSL module.
  return [
    'enable subgroups;',
    ...constants,
    `const SCATTER_SIZE: u32 = ${plan.workgroupSize}u;`,
    `const SCATTER_ITEMS: u32 = ${plan.items}u;`,
    `const MAX_SUBGROUPS: u32 = ${maxSubgroups}u;`,
    radixCommonWgsl,
    radixSubgroupsWgsl,
  ].join('\n');
}

interface PassGroups {
  count: GPUBindGroup;
  scatter: GPUBindGroup;
}

/**
 * Stable LSD radix sort of u32 keys with u32 values, in place: per pass a digit count per
 * block, an exclusive scan of the digit-major count table (GpuScan), and a scatter that ranks
 * each key inside its block. 8 bits per pass with subgroups, 4 without (see RadixPlan). Keys
 * sort as unsigned integers; pairs with equal keys keep their order.
 */
export class GpuRadixSort {
  readonly maxCount: number;
  readonly keyBits: number;
  /** Which kernel this instance runs, and its digit width and block size. */
  readonly plan: RadixPlan;
  readonly #device: GPUDevice;
  readonly #countPipeline: GPUComputePipeline;
  readonly #scatterPipeline: GPUComputePipeline;
  readonly #scan: GpuScan;
  readonly #params: GPUBuffer;
  readonly #scratchKeys: GPUBuffer;
  readonly #scratchValues: GPUBuffer;
  readonly #counts: GPUBuffer;
  readonly #offsets: GPUBuffer;
  readonly #passes: number;
  readonly #slots: number;
  readonly #gridLimit: number;
  readonly #groups = new BufferPairCache<PassGroups[][]>();
  #nextSlot = 0;
  #destroyed = false;

  constructor(device: GPUDevice, options: GpuRadixSortOptions) {
    const maxCount = requireCapacity(device, options.maxCount);
    const keyBits = options.keyBits ?? 32;
    if (!Number.isInteger(keyBits) || keyBits < 4 || keyBits > 32 || keyBits % 4 !== 0) {
      throw new GpuPrimitivesError(`keyBits must be a multiple of 4 from 4 to 32, got ${keyBits}.`);
    }
    const slots = requireInteger('slots', options.slots ?? 4, 1);
    this.maxCount = maxCount;
    this.keyBits = keyBits;
    this.#device = device;
    const { plan, maxSubgroups } = choosePlan(device, options.subgroups ?? true);
    this.plan = plan;
    this.#passes = radixPasses(keyBits, plan.bits);
    this.#slots = slots;
    this.#gridLimit = gridLimitFor(device, options.maxWorkgroupsPerDimension);
    const maxBlocks = Math.ceil(maxCount / plan.block);
    this.#scan = new GpuScan(device, {
      maxCount: plan.radix * maxBlocks,
      slots: slots * this.#passes,
      ...(options.maxWorkgroupsPerDimension === undefined ? {} : { maxWorkgroupsPerDimension: options.maxWorkgroupsPerDimension }),
    });
    const code = radixSource(plan, maxSubgroups);
    const module = device.createShaderModule({ label: 'cuttle.radix-sort', code });
    this.#countPipeline = device.createComputePipeline({ label: 'cuttle.radix-sort.count', layout: 'auto', compute: { module, entryPoint: 'count_digits' } });
    this.#scatterPipeline = device.createComputePipeline({ label: 'cuttle.radix-sort.scatter', layout: 'auto', compute: { module, entryPoint: 'scatter' } });
    const scratch = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC;
    this.#scratchKeys = device.createBuffer({ label: 'cuttle.radix-sort.keys', size: maxCount * WORD, usage: scratch });
    this.#scratchValues = device.createBuffer({ label: 'cuttle.radix-sort.values', size: maxCount * WORD, usage: scratch });
    this.#counts = device.createBuffer({ label: 'cuttle.radix-sort.counts', size: plan.radix * maxBlocks * WORD, usage: GPUBufferUsage.STORAGE });
    this.#offsets = device.createBuffer({ label: 'cuttle.radix-sort.offsets', size: plan.radix * maxBlocks * WORD, usage: GPUBufferUsage.STORAGE });
    this.#params = device.createBuffer({ label: 'cuttle.radix-sort.params', size: slots * this.#passes * SLOT_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  }

  /**
   * Records the sort of the first `count` pairs of `keys` and `values` (both STORAGE, plus
   * COPY_DST when the plan takes an odd number of passes for keyBits: the last pass lands in
   * scratch and is copied back).
   */
  encode(encoder: GPUCommandEncoder, keys: GPUBuffer, values: GPUBuffer, count: number, timestamps?: PassTimestamps): void {
    if (this.#destroyed) throw new GpuPrimitivesError('This GpuRadixSort was destroyed; create a new one.');
    requireCount(count, this.maxCount, 'this GpuRadixSort');
    const oddPasses = this.#passes % 2 === 1;
    // The last of an odd number of passes lands in scratch and is copied back.
    const copyBack = oddPasses ? GPUBufferUsage.COPY_DST : 0;
    const why = `With keyBits ${this.keyBits} (an odd number of passes) `;
    requireWordBuffer('keys', keys, count, copyBack, why);
    requireWordBuffer('values', values, count, copyBack, why);
    if (keys === values) throw new GpuPrimitivesError('keys and values must be different buffers.');
    if (count === 0) return;

    const slot = this.#nextSlot;
    this.#nextSlot = (slot + 1) % this.#slots;
    const { bits, block, radix } = this.plan;
    const blocks = Math.ceil(count / block);
    const grid = dispatchGrid(blocks, this.#gridLimit);
    const words = new Uint32Array((this.#passes * SLOT_BYTES) / WORD);
    for (let pass = 0; pass < this.#passes; pass++) {
      const shift = pass * bits;
      // The last pass sorts only the bits left when keyBits is not a multiple of the digit width.
      const mask = (1 << Math.min(bits, this.keyBits - shift)) - 1;
      words.set([count, blocks, grid.x, shift, mask], (pass * SLOT_BYTES) / WORD);
    }
    this.#device.queue.writeBuffer(this.#params, slot * this.#passes * SLOT_BYTES, words);

    const groups = this.#passGroups(keys, values)[slot]!;
    for (let pass = 0; pass < this.#passes; pass++) {
      const last = pass === this.#passes - 1;
      const counting = encoder.beginComputePass({
        label: 'cuttle.radix-sort.count',
        ...passTimestampWrites(pass === 0 && timestamps ? { querySet: timestamps.querySet, beginIndex: timestamps.beginIndex } : undefined),
      });
      counting.setPipeline(this.#countPipeline);
      counting.setBindGroup(0, groups[pass]!.count);
      counting.dispatchWorkgroups(grid.x, grid.y);
      counting.end();
      this.#scan.encode(encoder, this.#counts, this.#offsets, radix * blocks);
      const scattering = encoder.beginComputePass({
        label: 'cuttle.radix-sort.scatter',
        ...passTimestampWrites(last && timestamps ? { querySet: timestamps.querySet, endIndex: timestamps.endIndex } : undefined),
      });
      scattering.setPipeline(this.#scatterPipeline);
      scattering.setBindGroup(0, groups[pass]!.scatter);
      scattering.dispatchWorkgroups(grid.x, grid.y);
      scattering.end();
    }
    if (oddPasses) {
      encoder.copyBufferToBuffer(this.#scratchKeys, 0, keys, 0, count * WORD);
      encoder.copyBufferToBuffer(this.#scratchValues, 0, values, 0, count * WORD);
    }
  }

  /** Uploads, sorts and reads back (one submit). Convenient for tests and tools, not for hot paths. */
  sort(keys: Uint32Array<ArrayBuffer>, values: Uint32Array<ArrayBuffer>): Promise<SortedPairs> {
    return sortRoundTrip(this.#device, 'cuttle.radix-sort', keys, values, (encoder, keyBuffer, valueBuffer, count) => {
      this.encode(encoder, keyBuffer, valueBuffer, count);
    });
  }

  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.#scan.destroy();
    for (const buffer of [this.#scratchKeys, this.#scratchValues, this.#counts, this.#offsets, this.#params]) buffer.destroy();
    this.#groups.clear();
  }

  /** Bind groups for every slot and pass of one (keys, values) pair, made on first use. */
  #passGroups(keys: GPUBuffer, values: GPUBuffer): PassGroups[][] {
    return this.#groups.get(keys, values, () => {
      const perSlot: PassGroups[][] = [];
      for (let slot = 0; slot < this.#slots; slot++) {
        const passes: PassGroups[] = [];
        for (let pass = 0; pass < this.#passes; pass++) {
          const params: GPUBufferBinding = { buffer: this.#params, offset: (slot * this.#passes + pass) * SLOT_BYTES, size: PARAMS_BYTES };
          // Even passes read the caller's buffers and write scratch; odd passes the reverse.
          const [fromKeys, fromValues, toKeys, toValues] =
            pass % 2 === 0 ? [keys, values, this.#scratchKeys, this.#scratchValues] : [this.#scratchKeys, this.#scratchValues, keys, values];
          passes.push({
            count: this.#device.createBindGroup({
              layout: this.#countPipeline.getBindGroupLayout(0),
              entries: [
                { binding: 0, resource: params },
                { binding: 1, resource: { buffer: fromKeys } },
                { binding: 2, resource: { buffer: this.#counts } },
              ],
            }),
            scatter: this.#device.createBindGroup({
              layout: this.#scatterPipeline.getBindGroupLayout(0),
              entries: [
                { binding: 0, resource: params },
                { binding: 1, resource: { buffer: fromKeys } },
                { binding: 3, resource: { buffer: fromValues } },
                { binding: 4, resource: { buffer: this.#offsets } },
                { binding: 5, resource: { buffer: toKeys } },
                { binding: 6, resource: { buffer: toValues } },
              ],
            }),
          });
        }
        perSlot.push(passes);
      }
      return perSlot;
    });
  }

}
