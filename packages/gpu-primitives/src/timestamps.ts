import type { PassTimestamps } from './api.ts';

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
