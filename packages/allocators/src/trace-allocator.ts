import type { LiveAllocation } from './api.ts';
import { ProxyAllocator } from './proxy-allocator.ts';
import { DEFAULT_ALIGN } from './validate.ts';

/**
 * A ProxyAllocator that also records the call stack of every allocation, so a leak report
 * says where each leaked block came from. Capturing a stack costs microseconds: put it in
 * front of the one subsystem you are hunting a leak in, not everywhere.
 */
export class TraceAllocator extends ProxyAllocator {
  /** Always `'TraceAllocator'`. */
  override readonly kind: string = 'TraceAllocator';
  private readonly stacks = new Map<number, string>();

  /** Like {@link ProxyAllocator.tryAllocate}, and records the caller's stack for the allocation. */
  override tryAllocate(size: number, align: number = DEFAULT_ALIGN): number | null {
    const offset = super.tryAllocate(size, align);
    if (offset !== null) this.stacks.set(offset, captureStack());
    return offset;
  }

  /** Like {@link ProxyAllocator.deallocate}, and forgets the recorded stack. */
  override deallocate(offset: number): void {
    super.deallocate(offset);
    this.stacks.delete(offset);
  }

  /** The stack recorded when `offset` was allocated, if it is live. */
  stackOf(offset: number): string | undefined {
    return this.stacks.get(offset);
  }

  /** This allocator's live allocations in offset order, each with the stack recorded when it was made. */
  override liveAllocations(): LiveAllocation[] {
    return super.liveAllocations().map((a) => {
      const stack = this.stacks.get(a.offset);
      return stack === undefined ? a : { ...a, stack };
    });
  }
}

/** Frames of the allocators themselves, dropped so the stack starts at the caller. */
const OWN_FRAME = /\bat (captureStack|\w*Allocator\.(tryAllocate|allocate))\b/;

function captureStack(): string {
  const lines = (new Error().stack ?? '').split('\n');
  return lines
    .slice(1)
    .filter((line) => !OWN_FRAME.test(line))
    .join('\n');
}
