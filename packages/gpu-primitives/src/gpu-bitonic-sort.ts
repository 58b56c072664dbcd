import bitonicWgsl from './shaders/bitonic-sort.wgsl?raw';
import type { PassTimestamps } from './api.ts';
import { BITONIC_BLOCK, bitonicLength, bitonicSchedule, type BitonicDispatch } from './bitonic-plan.ts';
import { dispatchGrid } from './dispatch-grid.ts';
import { GpuPrimitivesError } from './errors.ts';
import { sortRoundTrip, type SortedPairs } from './sort-round-trip.ts';
import { passTimestampWrites } from './timestamps.ts';
import { gridLimitFor, requireCapacity, requireCount, requireInteger } from './validate.ts';

/** Options of {@link GpuBitonicSort}'s constructor. */
export interface GpuBitonicSortOptions {
  /** The largest number of pairs this instance will sort; sizes its padded working buffers. */
  maxCount: number;
  /** Recordings allowed per submit (default 4); see GpuReduce's `slots`. */
  slots?: number;
  /** See GpuScan's option of the same name. */
  maxWorkgroupsPerDimension?: number;
}

const SLOT_BYTES = 256;
const WORD = 4;
const WORKGROUP_SIZE = 256;

/** The kernel entry points. */
type Entry = BitonicDispatch['entry'] | 'fill_padding';

/**
 * Bitonic sort of u32 (key, value) pairs by key, then value: a fixed network of
 * compare-exchanges, fast for the small and medium sizes where a radix sort's passes cost more
 * than they save (per-tile light lists, a few thousand particles). Not stable by index, but
 * deterministic, since pairs are totally ordered. Sorts padded copies inside the instance, so
 * the caller's buffers need only COPY_SRC and COPY_DST.
 */
export class GpuBitonicSort {
  /** The most pairs one sort may take, as given in the options. */
  readonly maxCount: number;
  readonly #device: GPUDevice;
  readonly #pipelines: Record<Entry, GPUComputePipeline>;
  readonly #keys: GPUBuffer;
  readonly #values: GPUBuffer;
  readonly #params: GPUBuffer;
  readonly #groups: Record<Entry, GPUBindGroup[]>;
  readonly #slots: number;
  readonly #stepsPerSlot: number;
  readonly #gridLimit: number;
  #nextSlot = 0;
  #destroyed = false;

  constructor(device: GPUDevice, options: GpuBitonicSortOptions) {
    this.maxCount = requireCapacity(device, options.maxCount);
    const slots = requireInteger('slots', options.slots ?? 4, 1);
    this.#device = device;
    this.#slots = slots;
    this.#gridLimit = gridLimitFor(device, options.maxWorkgroupsPerDimension);
    const maxLength = bitonicLength(this.maxCount);
    if (maxLength * WORD > device.limits.maxStorageBufferBindingSize) {
      throw new GpuPrimitivesError(`maxCount ${this.maxCount} pads to ${maxLength} pairs, above this device's maxStorageBufferBindingSize; use GpuRadixSort for this size.`);
    }
    // One uniform slot per dispatch of the longest schedule, plus one for the padding fill.
    this.#stepsPerSlot = bitonicSchedule(maxLength).length + 1;
    const module = device.createShaderModule({ label: 'cuttle.bitonic-sort', code: bitonicWgsl });
    const pipeline = (entryPoint: string): GPUComputePipeline =>
      device.createComputePipeline({ label: `cuttle.bitonic-sort.${entryPoint}`, layout: 'auto', compute: { module, entryPoint } });
    this.#pipelines = {
      fill_padding: pipeline('fill_padding'),
      local_sort: pipeline('local_sort'),
      global_step: pipeline('global_step'),
      local_merge: pipeline('local_merge'),
    };
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
    this.#keys = device.createBuffer({ label: 'cuttle.bitonic-sort.keys', size: maxLength * WORD, usage });
    this.#values = device.createBuffer({ label: 'cuttle.bitonic-sort.values', size: maxLength * WORD, usage });
    this.#params = device.createBuffer({ label: 'cuttle.bitonic-sort.params', size: slots * this.#stepsPerSlot * SLOT_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    // Bind groups per uniform slot and step; the working buffers never change.
    const groups = (entry: Entry): GPUBindGroup[] =>
      Array.from({ length: slots * this.#stepsPerSlot }, (_, index) =>
        device.createBindGroup({
          layout: this.#pipelines[entry].getBindGroupLayout(0),
          entries: [
            { binding: 0, resource: { buffer: this.#params, offset: index * SLOT_BYTES, size: 20 } },
            { binding: 1, resource: { buffer: this.#keys } },
            { binding: 2, resource: { buffer: this.#values } },
          ],
        }),
      );
    this.#groups = { fill_padding: groups('fill_padding'), local_sort: groups('local_sort'), global_step: groups('global_step'), local_merge: groups('local_merge') };
  }

  /**
   * Records the sort of the first `count` pairs of `keys` and `values` (usage COPY_SRC and
   * COPY_DST): copy in, pad, run the network, copy back.
   */
  encode(encoder: GPUCommandEncoder, keys: GPUBuffer, values: GPUBuffer, count: number, timestamps?: PassTimestamps): void {
    if (this.#destroyed) throw new GpuPrimitivesError('This GpuBitonicSort was destroyed; create a new one.');
    requireCount(count, this.maxCount, 'this GpuBitonicSort');
    const copyBoth = GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
    for (const [name, buffer] of [['keys', keys], ['values', values]] as const) {
      if (count * WORD > buffer.size) throw new GpuPrimitivesError(`count ${count} needs ${count * WORD} bytes but the ${name} buffer holds ${buffer.size}.`);
      if ((buffer.usage & copyBoth) !== copyBoth) throw new GpuPrimitivesError(`The ${name} buffer needs GPUBufferUsage.COPY_SRC and GPUBufferUsage.COPY_DST.`);
    }
    if (keys === values) throw new GpuPrimitivesError('keys and values must be different buffers.');
    if (count < 2) return;

    const n = bitonicLength(count);
    const schedule = bitonicSchedule(n);
    const slot = this.#nextSlot;
    this.#nextSlot = (slot + 1) % this.#slots;
    const first = slot * this.#stepsPerSlot;
    const blockGrid = dispatchGrid(n / BITONIC_BLOCK, this.#gridLimit);
    const pairGrid = dispatchGrid(n / 2 / WORKGROUP_SIZE, this.#gridLimit);
    const fillGrid = dispatchGrid(Math.ceil((n - count) / WORKGROUP_SIZE), this.#gridLimit);
    const words = new Uint32Array(((schedule.length + 1) * SLOT_BYTES) / WORD);
    words.set([n, 0, 0, fillGrid.x, count], 0);
    schedule.forEach((step, i) => {
      const grid = step.entry === 'global_step' ? pairGrid : blockGrid;
      words.set([n, step.k, step.j, grid.x, count], ((i + 1) * SLOT_BYTES) / WORD);
    });
    this.#device.queue.writeBuffer(this.#params, first * SLOT_BYTES, words);

    encoder.copyBufferToBuffer(keys, 0, this.#keys, 0, count * WORD);
    encoder.copyBufferToBuffer(values, 0, this.#values, 0, count * WORD);
    const pass = encoder.beginComputePass({ label: 'cuttle.bitonic-sort', ...passTimestampWrites(timestamps) });
    if (n > count) {
      pass.setPipeline(this.#pipelines.fill_padding);
      pass.setBindGroup(0, this.#groups.fill_padding[first]);
      pass.dispatchWorkgroups(fillGrid.x, fillGrid.y);
    }
    schedule.forEach((step, i) => {
      const grid = step.entry === 'global_step' ? pairGrid : blockGrid;
      pass.setPipeline(this.#pipelines[step.entry]);
      pass.setBindGroup(0, this.#groups[step.entry][first + i + 1]);
      pass.dispatchWorkgroups(grid.x, grid.y);
    });
    pass.end();
    encoder.copyBufferToBuffer(this.#keys, 0, keys, 0, count * WORD);
    encoder.copyBufferToBuffer(this.#values, 0, values, 0, count * WORD);
  }

  /** Uploads, sorts and reads back (one submit). Convenient for tests and tools, not for hot paths. */
  sort(keys: Uint32Array<ArrayBuffer>, values: Uint32Array<ArrayBuffer>): Promise<SortedPairs> {
    return sortRoundTrip(this.#device, 'cuttle.bitonic-sort', keys, values, (encoder, keyBuffer, valueBuffer, count) => {
      this.encode(encoder, keyBuffer, valueBuffer, count);
    });
  }

  /** Frees the instance's working and uniform buffers; later calls do nothing. */
  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.#keys.destroy();
    this.#values.destroy();
    this.#params.destroy();
  }
}
