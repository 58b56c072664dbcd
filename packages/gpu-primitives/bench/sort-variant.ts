// What the benchmark's builds of the sort passes share: scratch buffers, a slot per sort of a
// sample, an in-place encode and a round trip for checking against the reference. The passes
// themselves (count-scan or onesweep, built with options GpuRadixSort does not offer) and any
// buffers they need come from the variant.
import type { SortBuffers } from '../src/count-scan-passes.ts';
import type { PassTimestamps, PerPassTimestamps } from '../src/index.ts';
import { sortRoundTrip, type SortedPairs } from '../src/sort-round-trip.ts';

/** CountScanPasses or OnesweepPasses: the same encode, ping-ponging through the scratch buffers. */
export interface SortPasses {
  encode(encoder: GPUCommandEncoder, slot: number, buffers: SortBuffers, count: number, timestamps?: PassTimestamps | PerPassTimestamps): void;
  destroy(): void;
}

export class SortVariant {
  readonly #device: GPUDevice;
  readonly #label: string;
  readonly #passes: SortPasses;
  readonly #owned: GPUBuffer[];
  readonly #scratch: [GPUBuffer, GPUBuffer];
  readonly #slots: number;
  #slot = 0;

  /** `owned` buffers are destroyed with the variant. */
  constructor(device: GPUDevice, label: string, passes: SortPasses, maxCount: number, slots: number, owned: GPUBuffer[] = []) {
    this.#device = device;
    this.#label = label;
    this.#passes = passes;
    this.#owned = owned;
    this.#slots = slots;
    const scratch = (): GPUBuffer => device.createBuffer({ size: maxCount * 4, usage: GPUBufferUsage.STORAGE });
    this.#scratch = [scratch(), scratch()];
  }

  /** Records a sort of `count` pairs in place (an even number of passes: the result lands back in keys and values). */
  encode(encoder: GPUCommandEncoder, keys: GPUBuffer, values: GPUBuffer, count: number, timestamps?: PassTimestamps | PerPassTimestamps): void {
    const buffers: SortBuffers = { keys, values, scratchKeys: this.#scratch[0], scratchValues: this.#scratch[1] };
    this.#passes.encode(encoder, this.#slot, buffers, count, timestamps);
    this.#slot = (this.#slot + 1) % this.#slots;
  }

  /** Uploads, sorts and reads back, for checking against the reference before timing. */
  sort(keys: Uint32Array<ArrayBuffer>, values: Uint32Array<ArrayBuffer>): Promise<SortedPairs> {
    return sortRoundTrip(this.#device, this.#label, keys, values, (encoder, keyBuffer, valueBuffer, count) => { this.encode(encoder, keyBuffer, valueBuffer, count); });
  }

  destroy(): void {
    this.#passes.destroy();
    for (const buffer of [...this.#scratch, ...this.#owned]) buffer.destroy();
  }
}
