/** Where a culling run writes GPU timestamps: at the start of its first pass and the end of its last (either may be left out). */
export interface CullTimestamps {
  /** A `'timestamp'` query set with room for the indices below. */
  querySet: GPUQuerySet;
  /** Query written when the first pass begins. */
  beginIndex?: number;
  /** Query written when the last pass ends. */
  endIndex?: number;
}

/** A compute pass's `timestampWrites` for the given indices, or nothing (WebGPU rejects writes with neither index). */
export function passTimestampWrites(timestamps: CullTimestamps | undefined, first: boolean, last: boolean): { timestampWrites?: GPUComputePassTimestampWrites } {
  if (!timestamps) return {};
  const writes: GPUComputePassTimestampWrites = { querySet: timestamps.querySet };
  if (first && timestamps.beginIndex !== undefined) writes.beginningOfPassWriteIndex = timestamps.beginIndex;
  if (last && timestamps.endIndex !== undefined) writes.endOfPassWriteIndex = timestamps.endIndex;
  return writes.beginningOfPassWriteIndex === undefined && writes.endOfPassWriteIndex === undefined ? {} : { timestampWrites: writes };
}
