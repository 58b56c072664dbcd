import { RenderError } from '../errors.ts';
import type { SsaoTimestamps } from './api.ts';

/** Checks the timestamp indices against the query set. */
export function requireTimestamps(timestamps: SsaoTimestamps | undefined): void {
  if (timestamps === undefined) return;
  const { querySet, beginIndex, endIndex } = timestamps;
  if (typeof querySet !== 'object' || querySet.type !== 'timestamp') throw new RenderError("timestamps.querySet must be a GPUQuerySet of type 'timestamp'.");
  for (const [name, index] of [['beginIndex', beginIndex], ['endIndex', endIndex]] as const) {
    if (index !== undefined && !(Number.isInteger(index) && index >= 0 && index < querySet.count)) {
      throw new RenderError(`timestamps.${name} ${index} is not an index of the query set (0..${querySet.count - 1}).`);
    }
  }
}

/** A compute pass descriptor's timestampWrites for the first and/or last pass of a run, or nothing. */
export function passTimestamps(timestamps: SsaoTimestamps | undefined, first: boolean, last: boolean): GPUComputePassDescriptor {
  if (!timestamps) return {};
  const writes: GPUComputePassTimestampWrites = { querySet: timestamps.querySet };
  if (first && timestamps.beginIndex !== undefined) writes.beginningOfPassWriteIndex = timestamps.beginIndex;
  if (last && timestamps.endIndex !== undefined) writes.endOfPassWriteIndex = timestamps.endIndex;
  return writes.beginningOfPassWriteIndex === undefined && writes.endOfPassWriteIndex === undefined ? {} : { timestampWrites: writes };
}
