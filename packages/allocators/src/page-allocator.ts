import type { AllocatorOptions, LiveAllocation, Memory } from './api.ts';
import { Allocator } from './allocator.ts';
import { AllocationArgumentError, InvalidFreeError } from './errors.ts';
import { TlsfCore } from './tlsf.ts';
import { checkPositiveInteger, checkRequest, DEFAULT_ALIGN, isPowerOfTwo } from './validate.ts';

/** Options of {@link PageAllocator}; every one has a default, so `new PageAllocator()` reserves 16 pages of 64 KiB growable to 1 GiB. */
export interface PageAllocatorOptions extends AllocatorOptions {
  /** Bytes per page, a power of two (default 64 KiB, a WebAssembly page). */
  pageSize?: number;
  /** Pages the memory starts with (default 16). */
  initialPages?: number;
  /** Pages the memory may grow to (default 16384: 1 GiB with 64 KiB pages). */
  maxPages?: number;
  /** Back the pages with a growable SharedArrayBuffer that workers can share (default false). */
  shared?: boolean;
}

// ES2024 resizable buffers (Node 20+, current browsers), typed here because the lib is ES2022.
type ResizableArrayBufferConstructor = new (length: number, options: { maxByteLength: number }) => ArrayBuffer & { resize(length: number): void };
type GrowableSharedArrayBufferConstructor = new (length: number, options: { maxByteLength: number }) => SharedArrayBuffer & { grow(length: number): void };

/**
 * The root of an allocator tree, standing in for the virtual memory a console engine reserves:
 * hands out whole pages of one resizable buffer and grows that buffer in place when full, so
 * offsets (and fixed-length views) stay valid. Page runs are tracked by the same TLSF core as
 * the heap, so freeing pages coalesces them.
 */
export class PageAllocator extends Allocator {
  /** Always `'PageAllocator'`. */
  readonly kind: string = 'PageAllocator';
  /** Bytes per page, a power of two (default 65536): every allocation is a whole number of pages. */
  readonly pageSize: number;
  /** Pages the buffer may grow to (default 16384); beyond it `tryAllocate` answers null. */
  readonly maxPages: number;
  private readonly core = new TlsfCore();
  private readonly grower: (bytes: number) => void;
  private pages: number;
  private bytes = 0;
  private count = 0;

  constructor(options: PageAllocatorOptions = {}) {
    const pageSize = options.pageSize ?? 65536;
    const initialPages = options.initialPages ?? 16;
    const maxPages = options.maxPages ?? 16384;
    if (!isPowerOfTwo(pageSize)) throw new AllocationArgumentError(`PageAllocator: pageSize must be a power of two, got ${String(pageSize)}.`);
    checkPositiveInteger('PageAllocator', 'initialPages', initialPages);
    checkPositiveInteger('PageAllocator', 'maxPages', maxPages);
    if (maxPages < initialPages) throw new AllocationArgumentError(`PageAllocator: maxPages ${maxPages} is below initialPages ${initialPages}.`);
    const maxByteLength = maxPages * pageSize;
    let memory: Memory;
    let grower: (bytes: number) => void;
    if (options.shared === true) {
      const Shared = SharedArrayBuffer as unknown as GrowableSharedArrayBufferConstructor;
      const buffer = new Shared(initialPages * pageSize, { maxByteLength });
      memory = buffer;
      grower = (bytes) => {
        buffer.grow(bytes);
      };
    } else {
      const Resizable = ArrayBuffer as unknown as ResizableArrayBufferConstructor;
      const buffer = new Resizable(initialPages * pageSize, { maxByteLength });
      memory = buffer;
      grower = (bytes) => {
        buffer.resize(bytes);
      };
    }
    super(options.name ?? 'pages', memory, null);
    this.pageSize = pageSize;
    this.maxPages = maxPages;
    this.pages = initialPages;
    this.grower = grower;
    this.core.addRegion(0, initialPages);
  }

  /** Allocates whole pages; `align` may not exceed the page size. */
  tryAllocate(size: number, align: number = DEFAULT_ALIGN): number | null {
    checkRequest(this.name, size, align);
    this.checkAlive();
    if (align > this.pageSize) {
      throw new AllocationArgumentError(`${this.name}: align ${align} exceeds the page size ${this.pageSize}; use a bigger pageSize.`);
    }
    const pages = Math.ceil(size / this.pageSize);
    let page = this.core.allocate(pages, 1);
    if (page < 0 && this.growFor(pages)) page = this.core.allocate(pages, 1);
    if (page < 0) return null;
    this.bytes += pages * this.pageSize;
    this.count++;
    return page * this.pageSize;
  }

  /**
   * Frees the page run starting at `offset` (coalesced with free neighbours); the buffer never shrinks. Throws {@link InvalidFreeError} when `offset` does not start a live run.
   */
  deallocate(offset: number): void {
    const page = offset / this.pageSize;
    const pages = this.core.sizeOf(page);
    if (pages < 0 || !this.core.free(page)) throw this.invalid(offset);
    this.bytes -= pages * this.pageSize;
    this.count--;
  }

  /** Bytes of the page run at `offset` (a multiple of `pageSize`); {@link InvalidFreeError} if none starts there. */
  allocatedSize(offset: number): number {
    const pages = this.core.sizeOf(offset / this.pageSize);
    if (pages < 0) throw this.invalid(offset);
    return pages * this.pageSize;
  }

  /** Bytes in live page runs (whole pages). */
  get allocatedBytes(): number {
    return this.bytes;
  }

  /** {@inheritDoc Allocator.allocationCount} */
  get allocationCount(): number {
    return this.count;
  }

  /** Current byte length of the buffer (pages so far times `pageSize`); it grows up to `maxPages` pages. */
  get capacityBytes(): number {
    return this.pages * this.pageSize;
  }

  /** Every live page run, in offset order. */
  liveAllocations(): LiveAllocation[] {
    const live: LiveAllocation[] = [];
    this.core.forEachUsed((page, pages) => live.push({ offset: page * this.pageSize, size: pages * this.pageSize }));
    return live.sort((a, b) => a.offset - b.offset);
  }

  /** Grows the buffer (at least doubling, up to maxPages) so a run of `pages` fits at the end. */
  private growFor(pages: number): boolean {
    const room = this.maxPages - this.pages;
    if (room <= 0) return false;
    const add = Math.min(room, Math.max(pages, this.pages));
    this.grower((this.pages + add) * this.pageSize);
    this.core.addRegion(this.pages, add, true);
    this.pages += add;
    return true;
  }

  private invalid(offset: number): InvalidFreeError {
    return new InvalidFreeError(`${this.name}: offset ${String(offset)} is not the start of a live page run (double free, or a foreign offset).`);
  }
}
