// Shared memory the main thread hands to the frame workers and keeps from frame to frame or load
// to load: workers keep every SharedArrayBuffer they are sent until it is released, so a buffer
// is reused while it is big enough and, when it is outgrown, replaced by one twice the size and
// released from the workers.
import type { JobSystem } from '@cuttle/jobs';

/** Uint8Array, Int32Array, Float64Array... over a whole SharedArrayBuffer. */
interface SharedArrayType<T> {
  new (buffer: SharedArrayBuffer): T;
  readonly BYTES_PER_ELEMENT: number;
}

/**
 * `current` when it holds at least `length` elements; otherwise a new array of `Type` on a new
 * SharedArrayBuffer of at least `length`, `minimum` and twice `current`'s length (the new view
 * spans the whole buffer), with `current`'s buffer released from `jobs`.
 */
export function sharedAtLeast<T extends Uint8Array | Int32Array | Float64Array>(jobs: JobSystem, current: T | undefined, length: number, Type: SharedArrayType<T>, minimum = 1): T {
  if (current && current.length >= length) return current;
  const capacity = Math.max(length, 2 * (current?.length ?? 0), minimum);
  if (current) jobs.release(current);
  return new Type(new SharedArrayBuffer(capacity * Type.BYTES_PER_ELEMENT));
}
