import type { AllocatorOptions, LiveAllocation } from './api.ts';
import { Allocator } from './allocator.ts';
import { AllocationArgumentError, InvalidFreeError } from './errors.ts';
import { TlsfCore } from './tlsf.ts';
import { checkPositiveInteger, checkRequest, isPowerOfTwo } from './validate.ts';

/** WebGPU's offset rules, as alignments to pass to allocate. */
export interface GpuAlignments {
  /** Dynamic (or any) uniform binding offset: device.limits.minUniformBufferOffsetAlignment, 256 by default. */
  uniform: number;
  /** Storage binding offset: device.limits.minStorageBufferOffsetAlignment, 256 by default. */
  storageBinding: number;
  /** writeBuffer, copyBufferToBuffer, vertex/index data and elements indexed inside one storage binding: 4. */
  copy: number;
}

/** Options of {@link GpuBufferAllocator}: `usage` is required, the rest have defaults. */
export interface GpuBufferAllocatorOptions extends AllocatorOptions {
  /** Usage of every GPUBuffer made (COPY_DST is added, so writes and tests work). */
  usage: GPUBufferUsageFlags;
  /** Bytes per GPUBuffer (default 16 MiB); no single allocation may be bigger. */
  bufferSize?: number;
  /** Most GPUBuffers to create (default 16). */
  maxBuffers?: number;
  /** Smallest unit handed out (default 16). CPU metadata follows the number of blocks, not the buffer size. */
  granule?: number;
  /** Label prefix of the buffers. */
  label?: string;
}

/** The binding of one allocation: spread it into a bind group entry's `resource`. */
export interface GpuRange {
  /** The GPUBuffer holding the allocation. */
  buffer: GPUBuffer;
  /** Byte offset of the allocation inside `buffer`. */
  offset: number;
  /** Bytes of the allocation (what `allocatedSize` answers: the size asked for, rounded up to the granule). */
  size: number;
}

/**
 * Sub-allocates large GPUBuffers. The GPU never sees the metadata: a TLSF core on the CPU
 * tracks every buffer's ranges. An allocation is one number, an address in a virtual space
 * where buffer i starts at i * bufferSize; `range(offset)` turns it into buffer + offset +
 * size for a bind group, `write` uploads into it. A new buffer is created when the others are
 * full. The default alignment is the uniform rule when `usage` has UNIFORM, else 4.
 */
export class GpuBufferAllocator extends Allocator {
  /** Always `'GpuBufferAllocator'`. */
  readonly kind: string = 'GpuBufferAllocator';
  /** The device the GPUBuffers are created on. */
  readonly device: GPUDevice;
  /** Bytes per GPUBuffer (default 16 MiB): a multiple of the granule, at most the device's `maxBufferSize`, and the largest allocation possible. */
  readonly bufferSize: number;
  /** Most GPUBuffers this allocator creates (default 16); when they are full, `tryAllocate` answers null. */
  readonly maxBuffers: number;
  /** Smallest unit handed out in bytes, a power of two of at least 4 (default 16). */
  readonly granule: number;
  /** Usage of every GPUBuffer made: the `usage` option with COPY_DST added. */
  readonly usage: GPUBufferUsageFlags;
  /** This device's offset alignments, to pass as `align` to allocate. */
  readonly alignments: GpuAlignments;
  /** Alignment used when allocate gets none: `alignments.uniform` when `usage` has UNIFORM, else 4. */
  readonly defaultAlign: number;
  private readonly label: string;
  private readonly buffers: GPUBuffer[] = [];
  private readonly core = new TlsfCore();
  private bytes = 0;
  private count = 0;

  constructor(device: GPUDevice, options: GpuBufferAllocatorOptions) {
    super(options.name ?? 'gpu-buffers', null, null);
    const bufferSize = options.bufferSize ?? 16 * 1024 * 1024;
    const granule = options.granule ?? 16;
    checkPositiveInteger(this.name, 'bufferSize', bufferSize);
    checkPositiveInteger(this.name, 'maxBuffers', options.maxBuffers ?? 16);
    if (!isPowerOfTwo(granule) || granule < 4) throw new AllocationArgumentError(`${this.name}: granule must be a power of two >= 4, got ${String(granule)}.`);
    if (bufferSize % granule !== 0 || bufferSize > device.limits.maxBufferSize) {
      throw new AllocationArgumentError(`${this.name}: bufferSize ${bufferSize} must be a multiple of the granule ${granule} and at most maxBufferSize ${device.limits.maxBufferSize}.`);
    }
    this.device = device;
    this.bufferSize = bufferSize;
    this.maxBuffers = options.maxBuffers ?? 16;
    this.granule = granule;
    this.usage = options.usage | GPUBufferUsage.COPY_DST;
    this.label = options.label ?? this.name;
    this.alignments = {
      uniform: device.limits.minUniformBufferOffsetAlignment,
      storageBinding: device.limits.minStorageBufferOffsetAlignment,
      copy: 4,
    };
    this.defaultAlign = (options.usage & GPUBufferUsage.UNIFORM) !== 0 ? this.alignments.uniform : this.alignments.copy;
  }

  /**
   * Returns the virtual offset of `size` bytes aligned to `align` (default `defaultAlign`), creating another GPUBuffer when the others are full, or null once `maxBuffers` buffers are full. Throws {@link AllocationArgumentError} for a bad size or alignment, or one bigger than `bufferSize`.
   */
  tryAllocate(size: number, align: number = this.defaultAlign): number | null {
    checkRequest(this.name, size, align);
    this.checkAlive();
    if (size > this.bufferSize || align > this.bufferSize) {
      throw new AllocationArgumentError(`${this.name}: ${size} B (align ${align}) exceeds bufferSize ${this.bufferSize}; raise bufferSize.`);
    }
    const granule = this.granule;
    const units = Math.ceil(size / granule);
    const alignUnits = align <= granule ? 1 : align / granule;
    let unit = this.core.allocate(units, alignUnits);
    if (unit < 0 && this.addBuffer()) unit = this.core.allocate(units, alignUnits);
    if (unit < 0) return null;
    this.bytes += units * granule;
    this.count++;
    return unit * granule;
  }

  /** {@inheritDoc Allocator.deallocate} */
  deallocate(offset: number): void {
    const units = this.core.sizeOf(offset / this.granule);
    if (units < 0 || !this.core.free(offset / this.granule)) throw this.invalid(offset);
    this.bytes -= units * this.granule;
    this.count--;
  }

  /** {@inheritDoc Allocator.allocatedSize} */
  allocatedSize(offset: number): number {
    const units = this.core.sizeOf(offset / this.granule);
    if (units < 0) throw this.invalid(offset);
    return units * this.granule;
  }

  /** The GPUBuffer, offset inside it and size of an allocation: a ready GPUBufferBinding. */
  range(offset: number): GpuRange {
    const size = this.allocatedSize(offset);
    const index = Math.floor(offset / this.bufferSize);
    return { buffer: this.buffers[index]!, offset: offset - index * this.bufferSize, size };
  }

  /** Uploads `data` into the allocation at `offset` (queue.writeBuffer; byteLength a multiple of 4). */
  write(offset: number, data: ArrayBufferView, byteOffset = 0): void {
    const size = this.allocatedSize(offset);
    if (data.byteLength % 4 !== 0 || byteOffset % 4 !== 0 || byteOffset + data.byteLength > size) {
      throw new AllocationArgumentError(`${this.name}: write of ${data.byteLength} B at +${byteOffset} does not fit the ${size} B allocation or is not 4-byte aligned.`);
    }
    const { buffer, offset: at } = this.range(offset);
    this.device.queue.writeBuffer(buffer, at + byteOffset, data.buffer, data.byteOffset, data.byteLength);
  }

  /** The GPUBuffers made so far. */
  get gpuBuffers(): readonly GPUBuffer[] {
    return this.buffers;
  }

  /** Bytes of live allocations, each rounded up to the granule. */
  get allocatedBytes(): number {
    return this.bytes;
  }

  /** {@inheritDoc Allocator.allocationCount} */
  get allocationCount(): number {
    return this.count;
  }

  /** GPUBuffers created so far times `bufferSize`. */
  get capacityBytes(): number {
    return this.buffers.length * this.bufferSize;
  }

  /** Every live range (virtual offset and size), in offset order. */
  liveAllocations(): LiveAllocation[] {
    const live: LiveAllocation[] = [];
    this.core.forEachUsed((start, units) => live.push({ offset: start * this.granule, size: units * this.granule }));
    return live.sort((a, b) => a.offset - b.offset);
  }

  /** Destroys every GPUBuffer this allocator created. */
  protected override releaseMemory(): void {
    for (const buffer of this.buffers) buffer.destroy();
    this.buffers.length = 0;
  }

  private addBuffer(): boolean {
    if (this.buffers.length >= this.maxBuffers) return false;
    const index = this.buffers.length;
    this.buffers.push(this.device.createBuffer({ label: `${this.label} #${index}`, size: this.bufferSize, usage: this.usage }));
    this.core.addRegion((index * this.bufferSize) / this.granule, this.bufferSize / this.granule);
    return true;
  }

  private invalid(offset: number): InvalidFreeError {
    return new InvalidFreeError(`${this.name}: offset ${String(offset)} is not a live GPU range of this allocator (double free, or a foreign offset).`);
  }
}
