/** Where a pass writes GPU timestamps: at its start and its end (either may be left out). */
export interface PassTimestamps {
  /** A `'timestamp'` query set with room for the indices below. */
  querySet: GPUQuerySet;
  /** Query written when the pass begins. */
  beginIndex?: number;
  /** Query written when the pass ends. */
  endIndex?: number;
}

/** A compute pass's `timestampWrites` for the given indices, or nothing (WebGPU rejects writes with neither index). */
export function passTimestampWrites(timestamps: PassTimestamps | undefined): { timestampWrites?: GPUComputePassTimestampWrites } {
  if (!timestamps || (timestamps.beginIndex === undefined && timestamps.endIndex === undefined)) return {};
  const writes: GPUComputePassTimestampWrites = { querySet: timestamps.querySet };
  if (timestamps.beginIndex !== undefined) writes.beginningOfPassWriteIndex = timestamps.beginIndex;
  if (timestamps.endIndex !== undefined) writes.endOfPassWriteIndex = timestamps.endIndex;
  return { timestampWrites: writes };
}
