import type { Memory } from './api.ts';
import type { Allocator } from './allocator.ts';
import { AllocationArgumentError, AllocatorError } from './errors.ts';
import { checkPositiveInteger } from './validate.ts';

/** Any typed-array class (Float32Array, Uint8Array, BigInt64Array, ...). */
export interface TypedArrayConstructor<T> {
  /** Makes a view of `length` elements of `buffer` from `byteOffset` (bytes). */
  new (buffer: ArrayBufferLike, byteOffset: number, length: number): T;
  /** Bytes per element: the alignment and size unit of views of this type. */
  readonly BYTES_PER_ELEMENT: number;
  /** The class name, shown in error messages. */
  readonly name: string;
}

export function memoryOf(allocator: Allocator): Memory {
  const memory = allocator.memory;
  if (memory === null) {
    throw new AllocatorError(`${allocator.name} (${allocator.kind}) manages a range without CPU memory (a GPU buffer?); it has no views.`);
  }
  return memory;
}

/**
 * A typed-array view of the allocation at `offset`: no copy, writes land in the allocator's
 * memory. `length` defaults to as many elements as allocatedSize(offset) holds.
 */
export function viewOf<T>(allocator: Allocator, offset: number, type: TypedArrayConstructor<T>, length?: number): T {
  const memory = memoryOf(allocator);
  const size = allocator.allocatedSize(offset);
  const bytes = type.BYTES_PER_ELEMENT;
  const count = length ?? Math.floor(size / bytes);
  if (!Number.isInteger(count) || count < 0 || count * bytes > size) {
    throw new AllocationArgumentError(`viewOf: ${String(length)} ${type.name} elements do not fit the ${size} B at offset ${offset}.`);
  }
  if (offset % bytes !== 0) {
    throw new AllocationArgumentError(`viewOf: offset ${offset} is not aligned for ${type.name}; allocate with align ${bytes} or more.`);
  }
  return new type(memory, offset, count);
}

/**
 * Allocates `length` elements of `type` (aligned to the element size) and returns the view. The
 * elements are not zeroed: they hold what the memory held (call `fill(0)` if you read before you
 * write), unlike `new Float32Array(n)`.
 */
export function allocateView<T>(allocator: Allocator, type: TypedArrayConstructor<T>, length: number): T {
  checkPositiveInteger('allocateView', 'length', length);
  const bytes = type.BYTES_PER_ELEMENT;
  const offset = allocator.allocate(length * bytes, Math.max(bytes, 4));
  return new type(memoryOf(allocator), offset, length);
}

/** Frees the allocation a view from allocateView (or viewOf) starts at. */
export function deallocateView(allocator: Allocator, view: ArrayBufferView): void {
  allocator.deallocate(view.byteOffset);
}
