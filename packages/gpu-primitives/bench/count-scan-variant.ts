// The count-scan sort with an L2 flush between each digit's count and scatter passes, for the
// benchmark only. Count-scan's scatter reads the keys its count pass has just read; this build
// times the same scatter without that head start, to test whether it explains why the scatter
// takes about two thirds of the one-sweep pass's time for nearly the same ranking and write-out.
import { CountScanPasses, type SortBuffers } from '../src/count-scan-passes.ts';
import type { PerPassTimestamps } from '../src/index.ts';
import type { RadixPlan } from '../src/radix-plan.ts';
import { sortRoundTrip, type SortedPairs } from '../src/sort-round-trip.ts';
import { laneWordsFor } from '../src/subgroup-lanes.ts';

/** Bytes copied to push the keys out of the cache: several times the H100's 50 MB of L2. */
const FLUSH_BYTES = 256 << 20;

export class FlushedCountScan {
  readonly #device: GPUDevice;
  readonly #passes: CountScanPasses;
  readonly #scratch: [GPUBuffer, GPUBuffer];
  readonly #flush: [GPUBuffer, GPUBuffer];
  readonly #slots: number;
  #slot = 0;

  constructor(device: GPUDevice, plan: RadixPlan, maxCount: number, slots: number) {
    const minSize = device.adapterInfo.subgroupMinSize ?? 32;
    this.#device = device;
    this.#slots = slots;
    const flushBytes = Math.min(FLUSH_BYTES, device.limits.maxBufferSize - (device.limits.maxBufferSize % 4));
    this.#flush = [
      device.createBuffer({ label: 'cuttle.bench.flush-source', size: flushBytes, usage: GPUBufferUsage.COPY_SRC }),
      device.createBuffer({ label: 'cuttle.bench.flush-target', size: flushBytes, usage: GPUBufferUsage.COPY_DST }),
    ];
    const [source, target] = this.#flush;
    this.#passes = new CountScanPasses(device, {
      plan,
      maxSubgroups: plan.workgroupSize / minSize,
      laneWords: laneWordsFor(device.adapterInfo.subgroupMaxSize ?? 128),
      maxCount,
      keyBits: 32,
      passes: 32 / plan.bits,
      slots,
      gridLimit: device.limits.maxComputeWorkgroupsPerDimension,
      maxWorkgroupsPerDimension: undefined,
      beforeScatter: (encoder) => { encoder.copyBufferToBuffer(source, 0, target, 0, flushBytes); },
    });
    const scratch = (): GPUBuffer => device.createBuffer({ size: maxCount * 4, usage: GPUBufferUsage.STORAGE });
    this.#scratch = [scratch(), scratch()];
  }

  /** Records a sort of `count` pairs in place (an even number of passes: the result lands back in keys and values). */
  encode(encoder: GPUCommandEncoder, keys: GPUBuffer, values: GPUBuffer, count: number, timestamps?: PerPassTimestamps): void {
    const buffers: SortBuffers = { keys, values, scratchKeys: this.#scratch[0], scratchValues: this.#scratch[1] };
    this.#passes.encode(encoder, this.#slot, buffers, count, timestamps);
    this.#slot = (this.#slot + 1) % this.#slots;
  }

  /** Uploads, sorts and reads back, for checking against the reference before timing. */
  sort(keys: Uint32Array<ArrayBuffer>, values: Uint32Array<ArrayBuffer>): Promise<SortedPairs> {
    return sortRoundTrip(this.#device, 'cuttle.bench.flushed-count-scan', keys, values, (encoder, keyBuffer, valueBuffer, count) => { this.encode(encoder, keyBuffer, valueBuffer, count); });
  }

  destroy(): void {
    this.#passes.destroy();
    for (const buffer of [...this.#scratch, ...this.#flush]) buffer.destroy();
  }
}
