import type { PassTimestamps, PerPassTimestamps } from './api.ts';

/**
 * The `timestampWrites` of a compute pass descriptor for `timestamps`, or nothing when no index
 * is set (WebGPU rejects timestampWrites with neither index).
 */
export function passTimestampWrites(timestamps: PassTimestamps | undefined): { timestampWrites?: GPUComputePassTimestampWrites } {
  if (!timestamps || (timestamps.beginIndex === undefined && timestamps.endIndex === undefined)) return {};
  const writes: GPUComputePassTimestampWrites = { querySet: timestamps.querySet };
  if (timestamps.beginIndex !== undefined) writes.beginningOfPassWriteIndex = timestamps.beginIndex;
  if (timestamps.endIndex !== undefined) writes.endOfPassWriteIndex = timestamps.endIndex;
  return { timestampWrites: writes };
}

/**
 * The timestamps of compute pass `index` of `count` in a multi-pass recording: around each pass
 * for per-pass timestamps, else the begin on the first pass and the end on the last. Returns
 * nothing when that pass writes none (so callers that hand it on can tell).
 */
export function timestampsOfPass(timestamps: PassTimestamps | PerPassTimestamps | undefined, index: number, count: number): PassTimestamps | undefined {
  if (!timestamps) return undefined;
  if ('perPass' in timestamps) return { querySet: timestamps.querySet, beginIndex: timestamps.firstIndex + 2 * index, endIndex: timestamps.firstIndex + 2 * index + 1 };
  const beginIndex = index === 0 ? timestamps.beginIndex : undefined;
  const endIndex = index === count - 1 ? timestamps.endIndex : undefined;
  if (beginIndex === undefined && endIndex === undefined) return undefined;
  return { querySet: timestamps.querySet, ...(beginIndex === undefined ? {} : { beginIndex }), ...(endIndex === undefined ? {} : { endIndex }) };
}
