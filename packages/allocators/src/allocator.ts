import type { LiveAllocation, Memory, MemoryReport } from './api.ts';
import { AllocatorError, MemoryLeakError, OutOfMemoryError } from './errors.ts';

/**
 * The one allocator interface (BitSquid's `Allocator`): allocate(size, align) gives a byte
 * offset, deallocate(offset) gives it back, allocatedSize(offset) answers how big it is, and
 * every allocator counts its live bytes and allocations. Allocators are plain objects: make as
 * many as you like, hand them to the code that needs memory, destroy them in order.
 *
 * `destroy()` is the destructor's assert: it throws MemoryLeakError listing every allocation
 * still live, so a leak is found along the first code path that introduces it.
 */
export abstract class Allocator {
  /** Shown in memory reports and leak messages. */
  readonly name: string;
  /** The allocator's class, kept explicit so minified builds still report it. */
  abstract readonly kind: string;
  /**
   * The bytes offsets point into, for CPU memory; null where the range is not CPU memory
   * (GPU buffer ranges), or where the allocator only counts (a backing-less heap over a range).
   */
  readonly memory: Memory | null;
  /** The allocator this one takes its memory from, or null for a root. */
  readonly backing: Allocator | null;
  private readonly backed: Allocator[] = [];
  private destroyedFlag = false;

  /**
   * @param name - Shown in memory reports and leak messages.
   * @param memory - The CPU bytes offsets point into, or null (GPU ranges, counting-only heaps).
   * @param backing - The allocator this one takes its memory from (registered as its child), or null for a root.
   */
  protected constructor(name: string, memory: Memory | null, backing: Allocator | null) {
    this.name = name;
    this.memory = memory;
    this.backing = backing;
    backing?.backed.push(this);
  }

  /**
   * Returns the offset of `size` bytes aligned to `align`, or null when there is no room
   * (exhaustion is the one failure that is not an error: the caller may free and retry, or
   * fall back). Bad arguments throw AllocationArgumentError.
   */
  abstract tryAllocate(size: number, align?: number): number | null;

  /**
   * Like tryAllocate, but throws OutOfMemoryError when there is no room. Without `align`, the
   * allocator's default applies (DEFAULT_ALIGN, a pool's block alignment, a GPU usage's rule).
   */
  allocate(size: number, align?: number): number {
    const offset = this.tryAllocate(size, align);
    if (offset === null) {
      throw new OutOfMemoryError(
        `${this.name} (${this.kind}) has no room for ${size} B aligned to ${align ?? 'the default'}; ` +
          'free something, give it a bigger or growable backing, or use tryAllocate to handle null.',
      );
    }
    return offset;
  }

  /** Gives back an allocation. A double free or an offset this allocator never gave throws InvalidFreeError. */
  abstract deallocate(offset: number): void;

  /** Bytes reserved for the allocation at `offset` (at least what was asked); InvalidFreeError if none. */
  abstract allocatedSize(offset: number): number;

  /** Sum of allocatedSize over live allocations. */
  abstract get allocatedBytes(): number;

  /** Number of live allocations. */
  abstract get allocationCount(): number;

  /** Bytes this allocator manages, or null where that is not a fixed figure. */
  abstract get capacityBytes(): number | null;

  /** Every live allocation with its size (and stack, where recorded), for leak reports. */
  abstract liveAllocations(): LiveAllocation[];

  /** Allocators created over this one, in creation order (the memory report's children). */
  get children(): readonly Allocator[] {
    return this.backed;
  }

  /** True once {@link Allocator.destroy} has succeeded; every later call on the allocator throws {@link AllocatorError}. */
  get destroyed(): boolean {
    return this.destroyedFlag;
  }

  /**
   * Tears the allocator down. Throws MemoryLeakError (and stays usable) while anything is
   * allocated; otherwise returns its memory to the backing allocator.
   */
  destroy(): void {
    this.checkAlive();
    if (this.allocationCount > 0) {
      const live = this.liveAllocations();
      const names = this.backed.map((child) => child.name);
      throw new MemoryLeakError(
        names.length > 0 ? `${this.name} (still backing: ${names.join(', ')})` : this.name,
        live,
      );
    }
    this.releaseMemory();
    if (this.backing) {
      const siblings = this.backing.backed;
      siblings.splice(siblings.indexOf(this), 1);
    }
    this.destroyedFlag = true;
  }

  /** The tree of allocators from this one down, with bytes and counts. */
  report(): MemoryReport {
    return {
      name: this.name,
      kind: this.kind,
      allocatedBytes: this.allocatedBytes,
      allocationCount: this.allocationCount,
      capacityBytes: this.capacityBytes,
      children: this.backed.map((child) => child.report()),
    };
  }

  /** Returns chunks taken from the backing allocator; called by destroy() once nothing is live. */
  protected releaseMemory(): void {
    // Root allocators own nothing to give back.
  }

  /** Throws {@link AllocatorError} when the allocator was destroyed; subclasses call it before touching their memory. */
  protected checkAlive(): void {
    if (this.destroyedFlag) throw new AllocatorError(`${this.name} (${this.kind}) was destroyed; create a new allocator.`);
  }
}
