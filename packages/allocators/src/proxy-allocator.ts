import type { LiveAllocation } from './api.ts';
import { Allocator } from './allocator.ts';
import { InvalidFreeError } from './errors.ts';
import { checkRequest, DEFAULT_ALIGN } from './validate.ts';

/**
 * Forwards every call to its backing allocator and keeps its own totals, so a subsystem's
 * memory shows up under its name in memory overviews (`new ProxyAllocator('sound', heap)`),
 * and a leak is blamed on the subsystem that made it.
 */
export class ProxyAllocator extends Allocator {
  /** Always `'ProxyAllocator'`. */
  readonly kind: string = 'ProxyAllocator';
  /** Offsets of the allocations made through this proxy and not yet freed. */
  protected readonly live = new Set<number>();
  private bytes = 0;
  private readonly target: Allocator;

  constructor(name: string, backing: Allocator) {
    super(name, backing.memory, backing);
    this.target = backing;
  }

  /** Allocates from the backing allocator and counts the allocation as this proxy's; null when the backing has no room. */
  tryAllocate(size: number, align: number = DEFAULT_ALIGN): number | null {
    checkRequest(this.name, size, align);
    this.checkAlive();
    const offset = this.target.tryAllocate(size, align);
    if (offset === null) return null;
    this.live.add(offset);
    this.bytes += this.target.allocatedSize(offset);
    return offset;
  }

  /**
   * Frees through the backing allocator. Throws {@link InvalidFreeError} for an offset not allocated through this proxy (a double free, or another subsystem's memory).
   */
  deallocate(offset: number): void {
    if (!this.live.has(offset)) {
      throw new InvalidFreeError(`${this.name}: offset ${String(offset)} was not allocated through this proxy (double free, or another subsystem's memory).`);
    }
    const size = this.target.allocatedSize(offset);
    this.target.deallocate(offset);
    this.live.delete(offset);
    this.bytes -= size;
  }

  /** The backing allocator's size for `offset`; {@link InvalidFreeError} if it was not allocated through this proxy. */
  allocatedSize(offset: number): number {
    if (!this.live.has(offset)) throw new InvalidFreeError(`${this.name}: offset ${String(offset)} was not allocated through this proxy.`);
    return this.target.allocatedSize(offset);
  }

  /** Sum of the backing allocator's `allocatedSize` over this proxy's live allocations. */
  get allocatedBytes(): number {
    return this.bytes;
  }

  /** Live allocations made through this proxy. */
  get allocationCount(): number {
    return this.live.size;
  }

  /** Always null: a proxy manages no fixed range of its own. */
  readonly capacityBytes: number | null = null;

  /** This proxy's live allocations, in offset order. */
  liveAllocations(): LiveAllocation[] {
    return [...this.live].sort((a, b) => a - b).map((offset) => ({ offset, size: this.target.allocatedSize(offset) }));
  }
}
