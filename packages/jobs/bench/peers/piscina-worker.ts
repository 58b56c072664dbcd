// piscina's worker: named exports taking one task object, as piscina users write them.
import { computeRange as computeRangeKernel, smallJob as smallJobKernel } from '../kernels.ts';

export function empty(): null {
  return null;
}

export function computeRange(task: { data: Float32Array; start: number; end: number }): null {
  computeRangeKernel(task.data, task.start, task.end);
  return null;
}

export function smallJob(task: { values: Float32Array; sums: Float32Array; slot: number }): null {
  smallJobKernel(task.values, task.sums, task.slot);
  return null;
}
