import type { AllocatorOptions, FragmentationStats, LiveAllocation, Memory } from './api.ts';
import { Allocator } from './allocator.ts';
import { AllocationArgumentError, InvalidFreeError } from './errors.ts';
import { TlsfCore } from './tlsf.ts';
import { checkPositiveInteger, checkRequest, DEFAULT_ALIGN, isPowerOfTwo } from './validate.ts';

/** Options of {@link HeapAllocator}: `size` is required unless `memory` is given; give either `backing` or `memory`, not both. */
export interface HeapAllocatorOptions extends AllocatorOptions {
  /** Bytes to manage (rounded up to the granule). Defaults to `memory.byteLength` when memory is given. */
  size?: number;
  /** Take the range from this allocator (BitSquid's backing allocator) instead of owning one. */
  backing?: Allocator;
  /**
   * Without a backing: the buffer to manage from offset 0 (default: a new ArrayBuffer of
   * `size`), or null to manage a bare range whose bytes live elsewhere (a GPUBuffer).
   */
  memory?: Memory | null;
  /** Smallest unit handed out, a power of two (default 16). Metadata costs 4 bytes per granule. */
  granule?: number;
  /** With a backing: when full, take another chunk of at least `size` bytes instead of failing. */
  grow?: boolean;
}

/**
 * General-purpose allocator: two-level segregated fit with immediate coalescing, O(1)
 * allocate and free, metadata entirely in typed arrays outside the managed memory.
 */
export class HeapAllocator extends Allocator {
  /** Always `'HeapAllocator'`. */
  readonly kind: string = 'HeapAllocator';
  /** Smallest unit handed out, in bytes (a power of two, default 16): every allocation's size is rounded up to it. */
  readonly granule: number;
  private readonly core = new TlsfCore();
  private readonly chunks: number[] = [];
  private readonly chunkSize: number;
  private readonly canGrow: boolean;
  private bytes = 0;
  private count = 0;

  constructor(options: HeapAllocatorOptions) {
    const name = options.name ?? 'heap';
    const granule = options.granule ?? 16;
    if (!isPowerOfTwo(granule)) throw new AllocationArgumentError(`HeapAllocator: granule must be a power of two, got ${String(granule)}.`);
    const size = options.size ?? (options.memory ? options.memory.byteLength : Number.NaN);
    checkPositiveInteger('HeapAllocator', 'size (bytes to manage)', size);
    const backing = options.backing ?? null;
    if (backing && options.memory !== undefined) {
      throw new AllocationArgumentError('HeapAllocator: give either backing or memory, not both.');
    }
    const rounded = Math.ceil(size / granule) * granule;
    const memory = backing ? backing.memory : options.memory === undefined ? new ArrayBuffer(rounded) : options.memory;
    if (memory && !backing && memory.byteLength < rounded) {
      throw new AllocationArgumentError(`HeapAllocator: memory holds ${memory.byteLength} B, fewer than size ${rounded} B.`);
    }
    super(name, memory, backing);
    this.granule = granule;
    this.chunkSize = rounded;
    this.canGrow = backing !== null && options.grow === true;
    if (backing) {
      this.addChunk(rounded);
    } else {
      this.core.addRegion(0, rounded / granule);
    }
  }

  /** {@inheritDoc Allocator.tryAllocate} */
  tryAllocate(size: number, align: number = DEFAULT_ALIGN): number | null {
    checkRequest(this.name, size, align);
    this.checkAlive();
    const granule = this.granule;
    const units = Math.ceil(size / granule);
    const alignUnits = align <= granule ? 1 : align / granule;
    let unit = this.core.allocate(units, alignUnits);
    if (unit < 0 && this.canGrow && this.addChunk(Math.max(this.chunkSize, (units + alignUnits) * granule))) {
      unit = this.core.allocate(units, alignUnits);
    }
    if (unit < 0) return null;
    this.bytes += units * granule;
    this.count++;
    return unit * granule;
  }

  /** {@inheritDoc Allocator.deallocate} */
  deallocate(offset: number): void {
    const unit = offset / this.granule;
    const units = this.core.sizeOf(unit);
    if (units < 0 || !this.core.free(unit)) throw this.invalid(offset);
    this.bytes -= units * this.granule;
    this.count--;
  }

  /** {@inheritDoc Allocator.allocatedSize} */
  allocatedSize(offset: number): number {
    const units = this.core.sizeOf(offset / this.granule);
    if (units < 0) throw this.invalid(offset);
    return units * this.granule;
  }

  /** Bytes of live allocations, each rounded up to the granule. */
  get allocatedBytes(): number {
    return this.bytes;
  }

  /** {@inheritDoc Allocator.allocationCount} */
  get allocationCount(): number {
    return this.count;
  }

  /** Bytes managed: `size` rounded up to the granule, plus every chunk a growable heap has added. */
  get capacityBytes(): number {
    return this.core.capacity * this.granule;
  }

  /** Every live allocation (size rounded up to the granule), in offset order. */
  liveAllocations(): LiveAllocation[] {
    const live: LiveAllocation[] = [];
    const granule = this.granule;
    this.core.forEachUsed((start, units) => live.push({ offset: start * granule, size: units * granule }));
    return live.sort((a, b) => a.offset - b.offset);
  }

  /** Free-space figures: how much is free and how much of it one allocation could use. */
  stats(): FragmentationStats {
    const core = this.core;
    const freeBytes = core.freeUnits * this.granule;
    const largestFreeBlock = core.largestFree() * this.granule;
    return {
      capacityBytes: core.capacity * this.granule,
      freeBytes,
      largestFreeBlock,
      freeBlockCount: core.freeBlocks,
      usedBlockCount: core.usedBlocks,
      fragmentation: freeBytes === 0 ? 0 : 1 - largestFreeBlock / freeBytes,
    };
  }

  /** Gives every chunk taken from the backing allocator back to it. */
  protected override releaseMemory(): void {
    const backing = this.backing;
    if (!backing) return;
    for (const chunk of this.chunks) backing.deallocate(chunk);
    this.chunks.length = 0;
  }

  private addChunk(bytes: number): boolean {
    const backing = this.backing;
    if (!backing) return false;
    const size = Math.ceil(bytes / this.granule) * this.granule;
    const chunk = backing.tryAllocate(size, Math.max(this.granule, DEFAULT_ALIGN));
    if (chunk === null) {
      if (this.chunks.length === 0) {
        throw new AllocationArgumentError(`HeapAllocator ${this.name}: backing ${backing.name} has no room for ${size} B.`);
      }
      return false;
    }
    this.chunks.push(chunk);
    this.core.addRegion(chunk / this.granule, backing.allocatedSize(chunk) / this.granule);
    return true;
  }

  private invalid(offset: number): InvalidFreeError {
    return new InvalidFreeError(
      `${this.name}: offset ${String(offset)} is not a live allocation of this heap (double free, or an offset from another allocator).`,
    );
  }
}
