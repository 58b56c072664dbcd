// Kernels of the scaling benchmark: one bound by arithmetic, one by memory bandwidth.
import type { JobDispatchArgs } from '../src/index.ts';

/** A dependent chain of square roots per item: no memory traffic, no vectorization. */
export function computeBound(job: JobDispatchArgs, out: Float64Array, iterations: number): void {
  let x = job.jobIndex + 1;
  for (let i = 0; i < iterations; i++) x = Math.sqrt(x * 1.000001 + i);
  out[job.jobIndex] = x;
}

/** The post's Data::Compute: read-modify-write of 16 floats per item, streaming through memory. */
export function memoryBound(job: JobDispatchArgs, data: Float32Array): void {
  const base = job.jobIndex * 16;
  for (let i = 0; i < 16; i++) data[base + i]! += job.jobIndex + i;
}
