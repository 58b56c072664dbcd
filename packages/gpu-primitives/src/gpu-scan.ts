import scanCommonWgsl from './shaders/scan-common.wgsl?raw';
import scanPortableWgsl from './shaders/scan-portable.wgsl?raw';
import scanSubgroupsWgsl from './shaders/scan-subgroups.wgsl?raw';
import { BufferPairCache } from './buffer-pair-cache.ts';
import { dispatchGrid } from './dispatch-grid.ts';
import { GpuPrimitivesError } from './errors.ts';
import { maxScanStatusWords, scanBlockFor, scanStatusWords, scanTiles, SMALL_SCAN_MAX, type ScanVariant } from './scan-plan.ts';
import type { PassTimestamps } from './api.ts';
import { passTimestampWrites } from './timestamps.ts';
import { gridLimitFor, requireCapacity, requireCount, requireInteger, requireWordBuffer } from './validate.ts';

/** Options of {@link GpuScan}'s constructor; only `maxCount` is required. */
export interface GpuScanOptions {
  /** The largest count this instance will scan; sizes the tile status buffer. */
  maxCount: number;
  /** Recordings allowed per submit (default 8); see GpuReduce's `slots`. */
  slots?: number;
  /**
   * Largest workgroup count per dispatch dimension (default: the device's
   * maxComputeWorkgroupsPerDimension). Larger scans spread their tiles over a 2D grid.
   */
  maxWorkgroupsPerDimension?: number;
  /**
   * Look-back tuning, for tests and experiments. `spinLimit` (default 256): polls of a tile
   * that has published nothing before this workgroup sums that tile's input itself.
   * `alwaysFallBack`: ignore published tile totals entirely (slow; proves the fallback path).
   * `tileOrder`: `'dispatch'` (default; each workgroup takes the tile of its place in the
   * dispatch) or `'ticket'` (an atomic counter hands out tiles: one global atomic more per tile,
   * for GPUs that start workgroups out of order).
   */
  lookback?: { spinLimit?: number; alwaysFallBack?: boolean; tileOrder?: 'ticket' | 'dispatch' };
  /**
   * Use the subgroup variant when the device was created with the `subgroups` feature (default
   * true): a whole subgroup looks back over many tiles per poll. `false` forces the portable one.
   */
  subgroups?: boolean;
  /**
   * `false`: `encode` records no clear of the tile status words. The caller zeroes the first
   * `scanStatusWords(count, scan.variant)` words of `statusBuffer` after each scan (it starts zeroed), inside
   * a kernel it runs anyway, and saves a clear command per scan. Default `true`.
   */
  clearsStatus?: boolean;
}

export type { ScanVariant } from './scan-plan.ts';

/** Invocations of a scan workgroup (WORKGROUP_SIZE in scan-common.wgsl). */
const SCAN_WORKGROUP_SIZE = 256;

/**
 * The module source of `variant` with tiles of `block` elements: the tile's shape, the shared
 * part, then the variant's look-back and entry point.
 */
export function scanSource(variant: ScanVariant, block: number): string {
  const vecs = block / (SCAN_WORKGROUP_SIZE * 4);
  const shape = `// A tile: ${SCAN_WORKGROUP_SIZE} invocations x ${vecs} vec4 loads = ${block} elements.\nconst VECS: u32 = ${vecs}u;\nconst TILE_VECS: u32 = ${block / 4}u;\n`;
  if (variant === 'portable') return `${shape}${scanCommonWgsl}\n${scanPortableWgsl}`;
  // The subgroup look-back runs in one subgroup, which WGSL's uniformity analysis cannot see.
  return `enable subgroups;\ndiagnostic(off, subgroup_uniformity);\n${shape}${scanCommonWgsl}\n${scanSubgroupsWgsl}`;
}

const SLOT_BYTES = 256;
const WORD = 4;
/** A vec4 binding needs 16 bytes; buffers smaller than that bind these instead (never read: no full vec4 fits). */
const VEC4_BYTES = 16;

/**
 * Exclusive prefix sum of u32 values (wrapping at 2^32) for any count up to `maxCount`, in one
 * pass over the data: a chained scan with decoupled look-back over tiles of 8192 elements, or of
 * 4096 in subgroup scans of up to SMALL_SCAN_MAX (see shaders/scan-common.wgsl and
 * scanBlockFor). `totalBuffer` receives the sum of all elements, which is what counting sorts
 * and stream compaction need next.
 */
export class GpuScan {
  /** The largest count one scan may take, as given in the options. */
  readonly maxCount: number;
  /** The kernel this instance runs. */
  readonly variant: ScanVariant;
  readonly #device: GPUDevice;
  readonly #layout: GPUBindGroupLayout;
  /** The kernel for each tile size this instance may use (scanBlockFor). */
  readonly #pipelines = new Map<number, GPUComputePipeline>();
  readonly #params: GPUBuffer;
  /** The tile ticket counter and two status words per tile; zero before every scan (see clearsStatus). */
  readonly #status: GPUBuffer;
  readonly #clearsStatus: boolean;
  readonly #total: GPUBuffer;
  /** The output's last 1 to 3 words when the count is not a multiple of 4, copied into place. */
  readonly #tail: GPUBuffer;
  readonly #tinyInput: GPUBuffer;
  readonly #tinyOutput: GPUBuffer;
  readonly #slots: number;
  readonly #gridLimit: number;
  /** Bind groups per (input, output) pair, one per slot. */
  readonly #groups = new BufferPairCache<GPUBindGroup[]>();
  #nextSlot = 0;
  #destroyed = false;

  constructor(device: GPUDevice, options: GpuScanOptions) {
    const maxCount = requireCapacity(device, options.maxCount);
    this.maxCount = maxCount;
    this.#device = device;
    this.#slots = requireInteger('slots', options.slots ?? 8, 1);
    this.#gridLimit = gridLimitFor(device, options.maxWorkgroupsPerDimension);
    this.variant = (options.subgroups ?? true) && device.features.has('subgroups') ? 'subgroups' : 'portable';
    const spinLimit = requireInteger('lookback.spinLimit', options.lookback?.spinLimit ?? 256, 1);
    const tileOrder: string = options.lookback?.tileOrder ?? 'dispatch';
    if (tileOrder !== 'ticket' && tileOrder !== 'dispatch') throw new GpuPrimitivesError(`lookback.tileOrder must be 'ticket' or 'dispatch', got ${tileOrder}.`);
    const constants = {
      SPIN_LIMIT: spinLimit,
      ALWAYS_FALL_BACK: options.lookback?.alwaysFallBack === true ? 1 : 0,
      TILES_BY_TICKET: tileOrder === 'ticket' ? 1 : 0,
    };
    // One layout for both tile sizes, so that a bind group serves either pipeline.
    const buffer = (type: GPUBufferBindingType): GPUBindGroupLayoutEntry['buffer'] => ({ type });
    this.#layout = device.createBindGroupLayout({
      label: 'cuttle.scan',
      entries: [
        { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: buffer('uniform') },
        { binding: 1, visibility: GPUShaderStage.COMPUTE, buffer: buffer('read-only-storage') },
        { binding: 2, visibility: GPUShaderStage.COMPUTE, buffer: buffer('read-only-storage') },
        ...[3, 4, 5, 6].map((binding) => ({ binding, visibility: GPUShaderStage.COMPUTE, buffer: buffer('storage') })),
      ],
    });
    const layout = device.createPipelineLayout({ label: 'cuttle.scan', bindGroupLayouts: [this.#layout] });
    // The small tiles serve counts up to SMALL_SCAN_MAX, the large ones the rest (scanBlockFor).
    const blocks = new Set([scanBlockFor(Math.min(maxCount, SMALL_SCAN_MAX), this.variant), scanBlockFor(maxCount, this.variant)]);
    for (const block of blocks) {
      const module = device.createShaderModule({ label: `cuttle.scan.${this.variant}.${block}`, code: scanSource(this.variant, block) });
      this.#pipelines.set(block, device.createComputePipeline({ label: `cuttle.scan.${block}`, layout, compute: { module, entryPoint: 'chained_scan', constants } }));
    }
    this.#clearsStatus = options.clearsStatus ?? true;
    this.#status = device.createBuffer({
      label: 'cuttle.scan.status',
      size: maxScanStatusWords(maxCount) * WORD,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC,
    });
    this.#total = device.createBuffer({ label: 'cuttle.scan.total', size: WORD, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
    this.#tail = device.createBuffer({ label: 'cuttle.scan.tail', size: VEC4_BYTES, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
    this.#tinyInput = device.createBuffer({ label: 'cuttle.scan.tiny-input', size: VEC4_BYTES, usage: GPUBufferUsage.STORAGE });
    this.#tinyOutput = device.createBuffer({ label: 'cuttle.scan.tiny-output', size: VEC4_BYTES, usage: GPUBufferUsage.STORAGE });
    this.#params = device.createBuffer({ label: 'cuttle.scan.params', size: this.#slots * SLOT_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  }

  /** The tile status words (STORAGE | COPY_DST | COPY_SRC); see `clearsStatus`. */
  get statusBuffer(): GPUBuffer {
    return this.#status;
  }

  /** Holds the sum of all elements of the latest recorded scan (4 bytes, STORAGE | COPY_SRC). */
  get totalBuffer(): GPUBuffer {
    return this.#total;
  }

  /**
   * Records the exclusive scan of the first `count` u32 of `input` into `output` (both
   * STORAGE, distinct buffers; `output` also COPY_DST when `count` is not a multiple of 4);
   * `totalBuffer` receives the total when the commands run.
   * `timestamps` are written at the start and end of the scan's compute pass.
   */
  encode(encoder: GPUCommandEncoder, input: GPUBuffer, output: GPUBuffer, count: number, timestamps?: PassTimestamps): void {
    this.#assertAlive();
    requireCount(count, this.maxCount, 'this GpuScan');
    requireWordBuffer('input', input, count);
    requireWordBuffer('output', output, count, count % 4 === 0 ? 0 : GPUBufferUsage.COPY_DST, `With a count that is not a multiple of 4 (${count}) `);
    if (input === output) throw new GpuPrimitivesError('input and output must be different buffers (WebGPU forbids binding one buffer as both read and read-write).');
    if (count === 0) return;

    const slot = this.#nextSlot;
    this.#nextSlot = (slot + 1) % this.#slots;
    const block = scanBlockFor(count, this.variant);
    const tiles = scanTiles(count, this.variant);
    const grid = dispatchGrid(tiles, this.#gridLimit);
    this.#device.queue.writeBuffer(this.#params, slot * SLOT_BYTES, new Uint32Array([count, tiles, grid.x]));
    if (this.#clearsStatus) encoder.clearBuffer(this.#status, 0, scanStatusWords(count, this.variant) * WORD);
    const pass = encoder.beginComputePass({ label: 'cuttle.scan', ...passTimestampWrites(timestamps) });
    pass.setPipeline(this.#pipelines.get(block)!);
    pass.setBindGroup(0, this.#bindGroup(slot, input, output));
    pass.dispatchWorkgroups(grid.x, grid.y);
    pass.end();
    const ragged = count % 4;
    if (ragged !== 0) encoder.copyBufferToBuffer(this.#tail, 0, output, (count - ragged) * WORD, ragged * WORD);
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

  /** Frees the instance's status, total and uniform buffers; later calls do nothing. */
  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    for (const buffer of [this.#status, this.#total, this.#tail, this.#tinyInput, this.#tinyOutput, this.#params]) buffer.destroy();
    this.#groups.clear();
  }

  #bindGroup(slot: number, input: GPUBuffer, output: GPUBuffer): GPUBindGroup {
    const perSlot = this.#groups.get(input, output, () => []);
    perSlot[slot] ??= this.#device.createBindGroup({
      label: 'cuttle.scan',
      layout: this.#layout,
      entries: [
        { binding: 0, resource: { buffer: this.#params, offset: slot * SLOT_BYTES, size: 12 } },
        { binding: 1, resource: { buffer: input } },
        { binding: 2, resource: { buffer: input.size >= VEC4_BYTES ? input : this.#tinyInput } },
        { binding: 3, resource: { buffer: this.#tail } },
        { binding: 4, resource: { buffer: output.size >= VEC4_BYTES ? output : this.#tinyOutput } },
        { binding: 5, resource: { buffer: this.#status } },
        { binding: 6, resource: { buffer: this.#total } },
      ],
    });
    return perSlot[slot];
  }

  #assertAlive(): void {
    if (this.#destroyed) throw new GpuPrimitivesError('This GpuScan was destroyed; create a new one.');
  }
}
