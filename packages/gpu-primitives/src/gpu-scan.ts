import scanWgsl from './shaders/scan.wgsl?raw';
import { dispatchGrid } from './dispatch-grid.ts';
import { GpuPrimitivesError } from './errors.ts';
import { SCAN_BLOCK, scanLevels } from './scan-plan.ts';
import type { PassTimestamps } from './api.ts';
import { passTimestampWrites } from './timestamps.ts';
import { gridLimitFor, requireCapacity, requireCount, requireInteger, requireWordBuffer } from './validate.ts';

export interface GpuScanOptions {
  /** The largest count this instance will scan; sizes the internal level buffers. */
  maxCount: number;
  /** Recordings allowed per submit (default 8); see GpuReduce's `slots`. */
  slots?: number;
  /**
   * Largest workgroup count per dispatch dimension (default: the device's
   * maxComputeWorkgroupsPerDimension). Larger scans spread their blocks over a 2D grid.
   */
  maxWorkgroupsPerDimension?: number;
}

const SLOT_BYTES = 256;
const WORD = 4;

/** The two bind groups of one level for one uniform slot. */
interface LevelGroups {
  totals: GPUBindGroup;
  scan: GPUBindGroup;
}

/**
 * Exclusive prefix sum of u32 values (wrapping at 2^32) for any count up to `maxCount`, by
 * reduce-then-scan over blocks of 1024: block totals level by level, then every level scanned
 * from the top down with its blocks' offsets. `totalBuffer` receives the sum of all elements,
 * which is what counting sorts and stream compaction need next.
 */
export class GpuScan {
  readonly maxCount: number;
  readonly #device: GPUDevice;
  readonly #totalsPipeline: GPUComputePipeline;
  readonly #scanPipeline: GPUComputePipeline;
  readonly #params: GPUBuffer;
  readonly #slots: number;
  readonly #gridLimit: number;
  readonly #levelCount: number;
  /** Block totals of each level; level k+1's input is level k's totals. */
  readonly #sums: GPUBuffer[] = [];
  /** Output of each level >= 1: the scanned totals of the level below (its block offsets). */
  readonly #scanned: (GPUBuffer | undefined)[] = [undefined];
  /** Level-0 bind groups per (input, output) pair, one per slot. */
  #firstLevelGroups = new WeakMap<GPUBuffer, WeakMap<GPUBuffer, LevelGroups[]>>();
  /** Bind groups of levels >= 1 per slot: inner[slot][k - 1]. */
  readonly #innerGroups: LevelGroups[][] = [];
  #nextSlot = 0;
  #destroyed = false;

  constructor(device: GPUDevice, options: GpuScanOptions) {
    const maxCount = requireCapacity(device, options.maxCount);
    this.maxCount = maxCount;
    this.#device = device;
    this.#slots = requireInteger('slots', options.slots ?? 8, 1);
    this.#gridLimit = gridLimitFor(device, options.maxWorkgroupsPerDimension);
    const slots = this.#slots;
    const module = device.createShaderModule({ label: 'cuttle.scan', code: scanWgsl });
    this.#totalsPipeline = device.createComputePipeline({ label: 'cuttle.scan.totals', layout: 'auto', compute: { module, entryPoint: 'block_totals' } });
    this.#scanPipeline = device.createComputePipeline({ label: 'cuttle.scan.scan', layout: 'auto', compute: { module, entryPoint: 'scan_with_offsets' } });
    const levelCounts = scanLevels(maxCount);
    this.#levelCount = levelCounts.length;
    // COPY_DST: a scan with fewer levels copies its total into the top level's buffer.
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
    levelCounts.forEach((levelCount, k) => {
      this.#sums.push(device.createBuffer({ label: `cuttle.scan.level${k}.totals`, size: Math.ceil(levelCount / SCAN_BLOCK) * WORD, usage }));
      if (k > 0) this.#scanned.push(device.createBuffer({ label: `cuttle.scan.level${k}.scanned`, size: levelCount * WORD, usage }));
    });
    this.#params = device.createBuffer({ label: 'cuttle.scan.params', size: slots * this.#levelCount * SLOT_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    for (let slot = 0; slot < slots; slot++) {
      const groups: LevelGroups[] = [];
      for (let k = 1; k < this.#levelCount; k++) groups.push(this.#levelGroups(slot, k, this.#sums[k - 1]!, this.#scanned[k]!));
      this.#innerGroups.push(groups);
    }
  }

  /** Holds the sum of all elements of the latest recorded scan (4 bytes, STORAGE | COPY_SRC). */
  get totalBuffer(): GPUBuffer {
    return this.#sums[this.#levelCount - 1]!;
  }

  /**
   * Records the exclusive scan of the first `count` u32 of `input` into `output` (both
   * STORAGE, distinct buffers); `totalBuffer` receives the total when the commands run.
   * `timestamps` are written at the start and end of the scan's compute pass.
   */
  encode(encoder: GPUCommandEncoder, input: GPUBuffer, output: GPUBuffer, count: number, timestamps?: PassTimestamps): void {
    this.#assertAlive();
    requireCount(count, this.maxCount, 'this GpuScan');
    requireWordBuffer('input', input, count);
    requireWordBuffer('output', output, count);
    if (input === output) throw new GpuPrimitivesError('input and output must be different buffers (WebGPU forbids binding one buffer as both read and read-write).');
    if (count === 0) return;

    const slot = this.#nextSlot;
    this.#nextSlot = (slot + 1) % this.#slots;
    const levelCounts = scanLevels(count);
    const top = levelCounts.length - 1;
    const grids = levelCounts.map((levelCount) => dispatchGrid(Math.ceil(levelCount / SCAN_BLOCK), this.#gridLimit));
    const words = new Uint32Array((levelCounts.length * SLOT_BYTES) / WORD);
    levelCounts.forEach((levelCount, k) => {
      const at = (k * SLOT_BYTES) / WORD;
      words[at] = levelCount;
      words[at + 1] = grids[k]!.x;
      words[at + 2] = k < top ? 1 : 0;
    });
    this.#device.queue.writeBuffer(this.#params, slot * this.#levelCount * SLOT_BYTES, words);

    const groups = (k: number): LevelGroups => (k === 0 ? this.#firstLevel(slot, input, output) : this.#innerGroups[slot]![k - 1]!);
    const pass = encoder.beginComputePass({ label: 'cuttle.scan', ...passTimestampWrites(timestamps) });
    pass.setPipeline(this.#totalsPipeline);
    for (let k = 0; k <= top; k++) {
      pass.setBindGroup(0, groups(k).totals);
      pass.dispatchWorkgroups(grids[k]!.x, grids[k]!.y);
    }
    pass.setPipeline(this.#scanPipeline);
    for (let k = top; k >= 0; k--) {
      pass.setBindGroup(0, groups(k).scan);
      pass.dispatchWorkgroups(grids[k]!.x, grids[k]!.y);
    }
    pass.end();
    // This recording's top level holds the grand total; copy it where users look for it.
    if (top !== this.#levelCount - 1) encoder.copyBufferToBuffer(this.#sums[top]!, 0, this.totalBuffer, 0, WORD);
  }

  /** Scans and reads the result back (one submit, one map). Convenient, not for hot paths. */
  async scan(input: GPUBuffer, output: GPUBuffer, count: number): Promise<{ prefix: Uint32Array; total: number }> {
    const bytes = Math.max(WORD, count * WORD);
    const staging = this.#device.createBuffer({ size: bytes + WORD, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
    try {
      const encoder = this.#device.createCommandEncoder({ label: 'cuttle.scan' });
      this.encode(encoder, input, output, count);
      if (count > 0) {
        encoder.copyBufferToBuffer(output, 0, staging, 0, count * WORD);
        encoder.copyBufferToBuffer(this.totalBuffer, 0, staging, bytes, WORD);
      }
      this.#device.queue.submit([encoder.finish()]);
      await staging.mapAsync(GPUMapMode.READ);
      const words = new Uint32Array(staging.getMappedRange().slice(0));
      staging.unmap();
      return { prefix: words.slice(0, count), total: count > 0 ? words[bytes / WORD]! : 0 };
    } finally {
      staging.destroy();
    }
  }

  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    for (const buffer of [...this.#sums, ...this.#scanned]) buffer?.destroy();
    this.#params.destroy();
    this.#firstLevelGroups = new WeakMap();
  }

  #firstLevel(slot: number, input: GPUBuffer, output: GPUBuffer): LevelGroups {
    let byOutput = this.#firstLevelGroups.get(input);
    if (!byOutput) {
      byOutput = new WeakMap();
      this.#firstLevelGroups.set(input, byOutput);
    }
    let perSlot = byOutput.get(output);
    if (!perSlot) {
      perSlot = [];
      byOutput.set(output, perSlot);
    }
    perSlot[slot] ??= this.#levelGroups(slot, 0, input, output);
    return perSlot[slot];
  }

  /** Level k sums `input` into its totals, and scans `input` into `output` with offsets from level k+1. */
  #levelGroups(slot: number, k: number, input: GPUBuffer, output: GPUBuffer): LevelGroups {
    const params: GPUBufferBinding = { buffer: this.#params, offset: (slot * this.#levelCount + k) * SLOT_BYTES, size: 12 };
    // A top level reads no offsets (has_offsets = 0); its binding only needs a read-only buffer.
    const offsets = this.#scanned[k + 1] ?? this.#sums[k]!;
    const layoutTotals = this.#totalsPipeline.getBindGroupLayout(0);
    const layoutScan = this.#scanPipeline.getBindGroupLayout(0);
    return {
      totals: this.#device.createBindGroup({
        layout: layoutTotals,
        entries: [
          { binding: 0, resource: params },
          { binding: 1, resource: { buffer: input } },
          { binding: 2, resource: { buffer: this.#sums[k]! } },
        ],
      }),
      scan: this.#device.createBindGroup({
        layout: layoutScan,
        entries: [
          { binding: 0, resource: params },
          { binding: 1, resource: { buffer: input } },
          { binding: 3, resource: { buffer: output } },
          { binding: 4, resource: { buffer: offsets } },
        ],
      }),
    };
  }

  #assertAlive(): void {
    if (this.#destroyed) throw new GpuPrimitivesError('This GpuScan was destroyed; create a new one.');
  }
}
