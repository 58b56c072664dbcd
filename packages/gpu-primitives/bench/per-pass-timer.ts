// GPU time per compute pass of a one-sweep sort: `runs` sorts in one submit, each recording its
// passes between their own timestamps (PerPassTimestamps), averaged per pass. What happens
// between passes and between runs (the refill copy of fresh keys) is not timed.
import type { PerPassTimestamps } from '../src/index.ts';

export type RecordRun = (encoder: GPUCommandEncoder, run: number, timestamps: PerPassTimestamps) => void;

export class PerPassTimer {
  readonly #device: GPUDevice;
  readonly #passes: number;
  readonly #runs: number;
  readonly #querySet: GPUQuerySet;
  readonly #resolve: GPUBuffer;
  readonly #readback: GPUBuffer;

  constructor(device: GPUDevice, passes: number, runs: number) {
    this.#device = device;
    this.#passes = passes;
    this.#runs = runs;
    const count = 2 * passes * runs;
    this.#querySet = device.createQuerySet({ type: 'timestamp', count });
    this.#resolve = device.createBuffer({ size: count * 8, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
    this.#readback = device.createBuffer({ size: count * 8, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  }

  /** Mean milliseconds of each pass over the runs. */
  async time(record: RecordRun): Promise<number[]> {
    const encoder = this.#device.createCommandEncoder();
    for (let run = 0; run < this.#runs; run++) record(encoder, run, { querySet: this.#querySet, firstIndex: 2 * this.#passes * run, perPass: true });
    encoder.resolveQuerySet(this.#querySet, 0, this.#querySet.count, this.#resolve, 0);
    encoder.copyBufferToBuffer(this.#resolve, 0, this.#readback, 0, this.#resolve.size);
    this.#device.queue.submit([encoder.finish()]);
    await this.#readback.mapAsync(GPUMapMode.READ);
    const stamps = new BigUint64Array(this.#readback.getMappedRange());
    const ms = new Array<number>(this.#passes).fill(0);
    for (let run = 0; run < this.#runs; run++) {
      for (let pass = 0; pass < this.#passes; pass++) {
        const at = 2 * (this.#passes * run + pass);
        ms[pass]! += Number(stamps[at + 1]! - stamps[at]!) / 1e6 / this.#runs;
      }
    }
    this.#readback.unmap();
    return ms;
  }

  destroy(): void {
    this.#querySet.destroy();
    this.#resolve.destroy();
    this.#readback.destroy();
  }
}
