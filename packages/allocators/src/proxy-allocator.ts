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
  readonly kind: string = 'ProxyAllocator';
  protected readonly live = new Set<number>();
  private bytes = 0;
  private readonly target: Allocator;

  constructor(name: string, backing: Allocator) {
    super(name, backing.memory, backing);
    this.target = backing;
  }

  tryAllocate(size: number, align: number = DEFAULT_ALIGN): number | null {
    checkRequest(this.name, size, align);
    this.checkAlive();
    const offset = this.target.tryAllocate(size, align);
    if (offset === null) return null;
    this.live.add(offset);
    this.bytes += this.target.allocatedSize(offset);
    return offset;
  }

  deallocate(offset: number): void {
    if (!this.live.has(offset)) {
      throw new InvalidFreeError(`${this.name}: offset ${String(offset)} was not allocated through this proxy (double free, or another subsystem's memory).`);
    }
    const size = this.target.allocatedSize(offset);
    this.target.deallocate(offset);
    this.live.delete(offset);
    this.bytes -= size;
  }

  allocatedSize(offset: number): number {
    if (!this.live.has(offset)) throw new InvalidFreeError(`${this.name}: offset ${String(offset)} was not allocated through this proxy.`);
    return this.target.allocatedSize(offset);
  }

  get allocatedBytes(): number {
    return this.bytes;
  }

  get allocationCount(): number {
    return this.live.size;
  }

  readonly capacityBytes: number | null = null;

  liveAllocations(): LiveAllocation[] {
    return [...this.live].sort((a, b) => a - b).map((offset) => ({ offset, size: this.target.allocatedSize(offset) }));
  }
}
