import { GpuPrimitivesError } from './errors.ts';

/** Workgroups per dimension every WebGPU device accepts (maxComputeWorkgroupsPerDimension). */
export const MAX_WORKGROUPS_PER_DIMENSION = 65535;

/**
 * Lays `workgroups` out as x * y with x at most the per-dimension limit. Kernels recover the
 * linear index as `id.x + id.y * x` and let padding workgroups (index at least `workgroups`)
 * return.
 * @throws {@link GpuPrimitivesError} when `workgroups` exceeds `limit * limit`.
 */
export function dispatchGrid(workgroups: number, limit = MAX_WORKGROUPS_PER_DIMENSION): { x: number; y: number } {
  if (workgroups <= limit) return { x: Math.max(1, workgroups), y: 1 };
  if (workgroups > limit * limit) throw new GpuPrimitivesError(`${workgroups} workgroups do not fit a ${limit} x ${limit} grid.`);
  const y = Math.ceil(workgroups / limit);
  return { x: Math.ceil(workgroups / y), y };
}
