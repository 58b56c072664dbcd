// Builds of the onesweep passes that GpuRadixSort does not offer, for the benchmark only: the
// pass without its look-back (timing only, output not sorted) and the other order of the tile
// sort and the look-back. Each owns its scratch buffers and cycles through its slots.
import type { SortBuffers } from '../src/count-scan-passes.ts';
import type { PassTimestamps, PerPassTimestamps } from '../src/index.ts';
import { OnesweepPasses, type OnesweepOptions } from '../src/onesweep-passes.ts';
import type { RadixPlan } from '../src/radix-plan.ts';
import { sortRoundTrip, type SortedPairs } from '../src/sort-round-trip.ts';
import { laneWordsFor } from '../src/subgroup-lanes.ts';

export class OnesweepVariant {
  readonly #device: GPUDevice;
  readonly #passes: OnesweepPasses;
  readonly #scratch: [GPUBuffer, GPUBuffer];
  readonly #slots: number;
  #slot = 0;

  constructor(device: GPUDevice, plan: RadixPlan, maxCount: number, slots: number, variant: Pick<OnesweepOptions, 'profileWithoutLookback' | 'lookBackBeforeTileSort' | 'fallBack'>) {
    const minSize = device.adapterInfo.subgroupMinSize ?? 32;
    const laneWords = laneWordsFor(device.adapterInfo.subgroupMaxSize ?? 128);
    this.#device = device;
    this.#slots = slots;
    this.#passes = new OnesweepPasses(device, { plan, maxSubgroups: plan.workgroupSize / minSize, laneWords, maxCount, keyBits: 32, descending: false, floatKeys: false, keysOnly: false, slots, gridLimit: device.limits.maxComputeWorkgroupsPerDimension, ...variant });
    const scratch = (): GPUBuffer => device.createBuffer({ size: maxCount * 4, usage: GPUBufferUsage.STORAGE });
    this.#scratch = [scratch(), scratch()];
  }

  /** Records a sort of `count` pairs in place (four passes: the result lands back in keys and values). */
  encode(encoder: GPUCommandEncoder, keys: GPUBuffer, values: GPUBuffer, count: number, timestamps?: PassTimestamps | PerPassTimestamps): void {
    const buffers: SortBuffers = { keys, values, scratchKeys: this.#scratch[0], scratchValues: this.#scratch[1] };
    this.#passes.encode(encoder, this.#slot, buffers, count, timestamps);
    this.#slot = (this.#slot + 1) % this.#slots;
  }

  /** Uploads, sorts and reads back, for checking against the reference before timing. */
  sort(keys: Uint32Array<ArrayBuffer>, values: Uint32Array<ArrayBuffer>): Promise<SortedPairs> {
    return sortRoundTrip(this.#device, 'cuttle.bench.onesweep-variant', keys, values, (encoder, keyBuffer, valueBuffer, count) => { this.encode(encoder, keyBuffer, valueBuffer, count); });
  }

  destroy(): void {
    this.#passes.destroy();
    for (const buffer of this.#scratch) buffer.destroy();
  }
}
