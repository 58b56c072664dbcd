import type { Allocator } from './allocator.ts';
import { AllocationArgumentError } from './errors.ts';

/**
 * The bytes a shared allocator manages: taken from `backing` (which must be over a
 * SharedArrayBuffer) when there is one, else a SharedArrayBuffer of its own.
 */
export function sharedRegion(who: string, backing: Allocator | undefined, bytes: number, align: number): { memory: SharedArrayBuffer; base: number } {
  if (!backing) return { memory: new SharedArrayBuffer(bytes), base: 0 };
  if (!(backing.memory instanceof SharedArrayBuffer)) {
    throw new AllocationArgumentError(`${who}: backing ${backing.name} is not over a SharedArrayBuffer (use PageAllocator({ shared: true })).`);
  }
  return { memory: backing.memory, base: backing.allocate(bytes, align) };
}
