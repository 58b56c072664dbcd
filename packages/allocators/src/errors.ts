import type { LiveAllocation } from './api.ts';

/** Base class of every error `@cuttle/allocators` throws. */
export class AllocatorError extends Error {
  /** Always `'AllocatorError'`. */
  override readonly name: string = 'AllocatorError';
}

/** A size or alignment that no allocator accepts (0, negative, NaN, fractional, not a power of two). */
export class AllocationArgumentError extends AllocatorError {
  /** Always `'AllocationArgumentError'`. */
  override readonly name: string = 'AllocationArgumentError';
}

/** Double free, or an offset this allocator never handed out. The allocator is left unchanged. */
export class InvalidFreeError extends AllocatorError {
  /** Always `'InvalidFreeError'`. */
  override readonly name: string = 'InvalidFreeError';
}

/** `allocate` found no room. `tryAllocate` answers null instead of throwing this. */
export class OutOfMemoryError extends AllocatorError {
  /** Always `'OutOfMemoryError'`. */
  override readonly name: string = 'OutOfMemoryError';
}

/** `destroy()` found live allocations; `allocations` lists each with its size and stack if traced. */
export class MemoryLeakError extends AllocatorError {
  /** Always `'MemoryLeakError'`. */
  override readonly name: string = 'MemoryLeakError';
  /** Name of the destroyed allocator, followed by `(still backing: ...)` with the allocators it still backs, if any. */
  readonly allocator: string;
  /** Every allocation live at `destroy()`, with its offset, size and (from a TraceAllocator) stack. */
  readonly allocations: readonly LiveAllocation[];

  /**
   * @param allocator - Name of the allocator that was destroyed (shown in the message).
   * @param allocations - The allocations still live; the message lists each and their total bytes.
   */
  constructor(allocator: string, allocations: readonly LiveAllocation[]) {
    const bytes = allocations.reduce((sum, a) => sum + a.size, 0);
    const lines = allocations.map((a) => `  offset ${a.offset}: ${a.size} B${a.stack === undefined ? '' : `\n${indent(a.stack)}`}`);
    super(
      `${allocator} was destroyed with ${allocations.length} live allocation(s), ${bytes} B. ` +
        `Deallocate them (or destroy the allocators they back) first:\n${lines.join('\n')}`,
    );
    this.allocator = allocator;
    this.allocations = allocations;
  }
}

function indent(stack: string): string {
  return stack
    .split('\n')
    .map((line) => `      ${line.trim()}`)
    .join('\n');
}
