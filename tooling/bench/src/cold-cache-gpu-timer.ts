// Per-run GPU time with a cold L2: `runs` repetitions of the work in one submit, each between its
// own pair of timestamps, with a large buffer copy before each so no run finds the previous one's
// data in the cache. GpuTimer (one pair around all iterations) is right for streaming kernels;
// this one is for passes small enough that a warm cache would flatter them.

export interface ColdCacheGpuTimerOptions {
  /** Timed repetitions per call; the result is their mean. */
  runs: number;
  /** Bytes copied before each run to evict the L2 (256 MiB is several times an H100's 50 MiB). */
  flushBytes: number;
}

/** Timestamp indices for one run: pass them to the pass that is timed. */
export type TimedRecord = (encoder: GPUCommandEncoder, beginIndex: number, endIndex: number) => void;

export class ColdCacheGpuTimer {
  /** The query set the recorded passes write their timestamps into. */
  readonly querySet: GPUQuerySet;
  readonly #device: GPUDevice;
  readonly #runs: number;
  readonly #flushBytes: number;
  readonly #flush: [GPUBuffer, GPUBuffer];
  readonly #resolve: GPUBuffer;
  readonly #readback: GPUBuffer;

  constructor(device: GPUDevice, options: ColdCacheGpuTimerOptions) {
    if (!device.features.has('timestamp-query')) {
      throw new Error('ColdCacheGpuTimer needs a device created with the timestamp-query feature.');
    }
    if (!Number.isInteger(options.runs) || options.runs < 1) throw new RangeError(`ColdCacheGpuTimer: runs must be a positive integer, got ${options.runs}.`);
    this.#device = device;
    this.#runs = options.runs;
    this.#flushBytes = Math.max(4, Math.ceil(options.flushBytes / 4) * 4);
    this.#flush = [
      device.createBuffer({ size: this.#flushBytes, usage: GPUBufferUsage.COPY_SRC }),
      device.createBuffer({ size: this.#flushBytes, usage: GPUBufferUsage.COPY_DST }),
    ];
    this.querySet = device.createQuerySet({ type: 'timestamp', count: options.runs * 2 });
    this.#resolve = device.createBuffer({ size: options.runs * 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
    this.#readback = device.createBuffer({ size: options.runs * 16, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  }

  /** Mean GPU milliseconds of one run of `record`, which must write both timestamps it is given. */
  async time(record: TimedRecord): Promise<number> {
    const runs = this.#runs;
    const encoder = this.#device.createCommandEncoder();
    for (let i = 0; i < runs; i++) {
      encoder.copyBufferToBuffer(this.#flush[0], 0, this.#flush[1], 0, this.#flushBytes);
      record(encoder, i * 2, i * 2 + 1);
    }
    encoder.resolveQuerySet(this.querySet, 0, runs * 2, this.#resolve, 0);
    encoder.copyBufferToBuffer(this.#resolve, 0, this.#readback, 0, runs * 16);
    this.#device.queue.submit([encoder.finish()]);
    await this.#readback.mapAsync(GPUMapMode.READ);
    const stamps = new BigUint64Array(this.#readback.getMappedRange());
    let total = 0;
    for (let i = 0; i < runs; i++) total += Number(stamps[i * 2 + 1]! - stamps[i * 2]!) / 1e6;
    this.#readback.unmap();
    return total / runs;
  }

  destroy(): void {
    this.#flush[0].destroy();
    this.#flush[1].destroy();
    this.querySet.destroy();
    this.#resolve.destroy();
    this.#readback.destroy();
  }
}
