/** Where a step writes GPU timestamps: at the start of its first pass and the end of its last (either may be left out). */
export interface StepTimestamps {
  /** A `'timestamp'` query set with room for the indices below. */
  querySet: GPUQuerySet;
  /** Query written when the step's first pass begins. */
  beginIndex?: number;
  /** Query written when the step's last pass ends. */
  endIndex?: number;
}

/** A compute pass's `timestampWrites` for the given indices, or nothing (WebGPU rejects writes with neither index). */
export function passTimestampWrites(querySet: GPUQuerySet | undefined, begin: number | undefined, end: number | undefined): { timestampWrites?: GPUComputePassTimestampWrites } {
  if (!querySet || (begin === undefined && end === undefined)) return {};
  const writes: GPUComputePassTimestampWrites = { querySet };
  if (begin !== undefined) writes.beginningOfPassWriteIndex = begin;
  if (end !== undefined) writes.endOfPassWriteIndex = end;
  return { timestampWrites: writes };
}
