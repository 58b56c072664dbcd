// Builds of the chained scan with another tile shape, for the benchmark only: invocations per
// workgroup and vec4 loads per invocation (the shipped scan: 256 x 8, tiles of 8192 elements).
// The WGSL is the shipped kernel's (either variant) with its shape constants replaced; the host side
// does what GpuScan.encode does, for counts that are a multiple of 4 (no ragged end).
import { readBuffer } from '@cuttle/test-utils/gpu-buffers';
import type { PassTimestamps } from '../src/index.ts';
import { BufferPairCache } from '../src/buffer-pair-cache.ts';
import { dispatchGrid } from '../src/dispatch-grid.ts';
import { scanSource } from '../src/gpu-scan.ts';
import { passTimestampWrites } from '../src/timestamps.ts';
import { replaceOnce } from './wgsl-edit.ts';

export interface ScanShape {
  /** Invocations per workgroup: 128, 256 (shipped) or 512. */
  workgroupSize: number;
  /** vec4 loads per invocation (shipped: 8). */
  vecs: number;
  /** The portable variant (no subgroups) instead of the subgroup one. */
  portable?: boolean;
}

const WORD = 4;
const SLOT_BYTES = 256;

/** The scan's WGSL (subgroup or portable variant) with the tile shape `shape`. */
export function scanShapeSource(shape: ScanShape): string {
  const source = scanSource(shape.portable ? 'portable' : 'subgroups', 256 * shape.vecs * 4);
  const sized = replaceOnce(source, 'const WORKGROUP_SIZE: u32 = 256u;', `const WORKGROUP_SIZE: u32 = ${shape.workgroupSize}u;`, 'scan shape');
  return replaceOnce(sized, `const TILE_VECS: u32 = ${256 * shape.vecs}u;`, `const TILE_VECS: u32 = ${shape.workgroupSize * shape.vecs}u;`, 'scan shape');
}

/** The chained scan with tiles of `shape`, recorded the way GpuScan records its own. */
export class ScanShapeBuild {
  readonly name: string;
  /** Elements a tile (workgroup) scans. */
  readonly block: number;
  readonly #device: GPUDevice;
  readonly #pipeline: GPUComputePipeline;
  readonly #params: GPUBuffer;
  readonly #status: GPUBuffer;
  readonly #total: GPUBuffer;
  readonly #tail: GPUBuffer;
  readonly #slots: number;
  #nextSlot = 0;
  readonly #groups = new BufferPairCache<GPUBindGroup[]>();

  constructor(device: GPUDevice, shape: ScanShape, maxCount: number, slots: number) {
    if (!shape.portable && !device.features.has('subgroups')) throw new Error('ScanShapeBuild needs a device with subgroups.');
    this.block = shape.workgroupSize * shape.vecs * 4;
    this.name = `${shape.portable ? 'portable, ' : ''}${shape.workgroupSize} invocations x ${shape.vecs} vec4s (tiles of ${this.block})`;
    this.#device = device;
    this.#slots = slots;
    const module = device.createShaderModule({ label: `bench.scan.${shape.workgroupSize}x${shape.vecs}`, code: scanShapeSource(shape) });
    this.#pipeline = device.createComputePipeline({ label: 'bench.scan', layout: 'auto', compute: { module, entryPoint: 'chained_scan', constants: { SPIN_LIMIT: 256, ALWAYS_FALL_BACK: 0, TILES_BY_TICKET: 0 } } });
    const statusWords = 1 + 2 * Math.ceil(maxCount / this.block);
    this.#status = device.createBuffer({ label: 'bench.scan.status', size: statusWords * WORD, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
    this.#total = device.createBuffer({ size: WORD, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
    this.#tail = device.createBuffer({ size: 16, usage: GPUBufferUsage.STORAGE });
    this.#params = device.createBuffer({ size: slots * SLOT_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  }

  /** Records the exclusive scan of `count` words (a multiple of 4) of `input` into `output`. */
  encode(encoder: GPUCommandEncoder, input: GPUBuffer, output: GPUBuffer, count: number, timestamps?: PassTimestamps): void {
    if (count <= 0 || count % 4 !== 0) throw new Error(`ScanShapeBuild: the count must be a positive multiple of 4, got ${count}.`);
    const slot = this.#nextSlot;
    this.#nextSlot = (slot + 1) % this.#slots;
    const tiles = Math.ceil(count / this.block);
    const grid = dispatchGrid(tiles, this.#device.limits.maxComputeWorkgroupsPerDimension);
    this.#device.queue.writeBuffer(this.#params, slot * SLOT_BYTES, new Uint32Array([count, tiles, grid.x]));
    encoder.clearBuffer(this.#status, 0, (1 + 2 * tiles) * WORD);
    const pass = encoder.beginComputePass({ label: 'bench.scan', ...passTimestampWrites(timestamps) });
    pass.setPipeline(this.#pipeline);
    pass.setBindGroup(0, this.#bindGroup(slot, input, output));
    pass.dispatchWorkgroups(grid.x, grid.y);
    pass.end();
  }

  /** Scans and reads the result back. */
  async scan(input: GPUBuffer, output: GPUBuffer, count: number): Promise<Uint32Array> {
    const encoder = this.#device.createCommandEncoder();
    this.encode(encoder, input, output, count);
    this.#device.queue.submit([encoder.finish()]);
    return new Uint32Array(await readBuffer(this.#device, output, 0, count * WORD));
  }

  destroy(): void {
    for (const buffer of [this.#params, this.#status, this.#total, this.#tail]) buffer.destroy();
  }

  #bindGroup(slot: number, input: GPUBuffer, output: GPUBuffer): GPUBindGroup {
    const perSlot = this.#groups.get(input, output, () => []);
    perSlot[slot] ??= this.#device.createBindGroup({
      layout: this.#pipeline.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: this.#params, offset: slot * SLOT_BYTES, size: 12 } },
        { binding: 1, resource: { buffer: input } },
        { binding: 2, resource: { buffer: input } },
        { binding: 3, resource: { buffer: this.#tail } },
        { binding: 4, resource: { buffer: output } },
        { binding: 5, resource: { buffer: this.#status } },
        { binding: 6, resource: { buffer: this.#total } },
      ],
    });
    return perSlot[slot];
  }
}
