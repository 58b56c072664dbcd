// GPU time by timestamp queries: write a timestamp before and after the work, resolve, read
// back, and report milliseconds. Wall clock around a submit would measure the driver and the
// readback too; this measures the passes.

export interface GpuTimingOptions {
  /** Iterations recorded between the two timestamps; the result is per iteration. */
  iterations?: number;
}

/**
 * Measures GPU work with `timestamp-query`. `record` encodes one iteration into the pass
 * sequence; the first and last passes get the timestamp writes through `writes`.
 */
export class GpuTimer {
  readonly #device: GPUDevice;
  readonly #querySet: GPUQuerySet;
  readonly #resolve: GPUBuffer;
  readonly #readback: GPUBuffer;

  constructor(device: GPUDevice) {
    if (!device.features.has('timestamp-query')) {
      throw new Error('GpuTimer needs a device created with the timestamp-query feature.');
    }
    this.#device = device;
    this.#querySet = device.createQuerySet({ type: 'timestamp', count: 2 });
    this.#resolve = device.createBuffer({ size: 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
    this.#readback = device.createBuffer({ size: 16, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  }

  /** Timestamp write descriptors for the first pass (begin) and the last pass (end). */
  get writes(): { querySet: GPUQuerySet; beginIndex: number; endIndex: number } {
    return { querySet: this.#querySet, beginIndex: 0, endIndex: 1 };
  }

  /**
   * Runs `record(encoder, iteration)` for each iteration inside one submit. `record` must put
   * `writes` on its first pass when iteration is 0 and on its last pass when iteration is the
   * last one (both when there is one iteration); returns milliseconds per iteration.
   */
  async time(record: (encoder: GPUCommandEncoder, iteration: number, last: boolean) => void, options: GpuTimingOptions = {}): Promise<number> {
    const iterations = options.iterations ?? 1;
    const encoder = this.#device.createCommandEncoder();
    for (let i = 0; i < iterations; i++) record(encoder, i, i === iterations - 1);
    encoder.resolveQuerySet(this.#querySet, 0, 2, this.#resolve, 0);
    encoder.copyBufferToBuffer(this.#resolve, 0, this.#readback, 0, 16);
    this.#device.queue.submit([encoder.finish()]);
    await this.#readback.mapAsync(GPUMapMode.READ);
    const [begin, end] = new BigUint64Array(this.#readback.getMappedRange());
    this.#readback.unmap();
    return Number(end! - begin!) / 1e6 / iterations;
  }

  destroy(): void {
    this.#querySet.destroy();
    this.#resolve.destroy();
    this.#readback.destroy();
  }
}
