// Kernels of the benchmarks, shared by @cuttle/jobs, the piscina and workerpool workers, and
// the serial baselines, so every contender runs the same loop bodies.
import type { JobDispatchArgs } from '../src/index.ts';

export const FLOATS_PER_ITEM = 16;

/** The post's Spin: keeps a core busy for `milliseconds`. */
export function spin(milliseconds: number): void {
  const end = performance.now() + milliseconds;
  while (performance.now() < end);
}

export function empty(): void {
  // Nothing: what is left is the cost of a job.
}

/** The post's Data::Compute on item `index` of 16 floats. */
export function computeItem(data: Float32Array, index: number): void {
  const base = index * FLOATS_PER_ITEM;
  for (let i = 0; i < FLOATS_PER_ITEM; i++) data[base + i]! += index + i;
}

/** The post's Dispatch body: `dataSet[args.jobIndex].Compute(args.jobIndex)`. */
export function compute(job: JobDispatchArgs, data: Float32Array): void {
  computeItem(data, job.jobIndex);
}

/** What a piscina or workerpool user writes instead: one task per range of items. */
export function computeRange(data: Float32Array, start: number, end: number): void {
  for (let index = start; index < end; index++) computeItem(data, index);
}

/** A small job (a few microseconds): sums 256 floats of slot `slot` into `sums[slot]`. */
export function smallJob(values: Float32Array, sums: Float32Array, slot: number): void {
  let sum = 0;
  const base = slot * 256;
  for (let i = 0; i < 256; i++) sum += values[base + i]!;
  sums[slot] = sum;
}
