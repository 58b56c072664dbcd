// Argument checks shared by the primitives: each throws GpuPrimitivesError naming the value.
import { GpuPrimitivesError } from './errors.ts';

const WORD = 4;

/** `value` must be an integer >= `min`. */
export function requireInteger(name: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min) {
    const what = min === 0 ? 'a non-negative integer' : min === 1 ? 'a positive integer' : `an integer >= ${min}`;
    throw new GpuPrimitivesError(`${name} must be ${what}, got ${value}.`);
  }
  return value;
}

/** A capacity in u32 words that one storage binding of `device` can hold. */
export function requireCapacity(device: GPUDevice, maxCount: number): number {
  requireInteger('maxCount', maxCount, 1);
  if (maxCount * WORD > device.limits.maxStorageBufferBindingSize) {
    throw new GpuPrimitivesError(`maxCount ${maxCount} needs ${maxCount * WORD} bytes per buffer, above this device's maxStorageBufferBindingSize (${device.limits.maxStorageBufferBindingSize}).`);
  }
  return maxCount;
}

/** The per-dimension workgroup limit to plan grids with: the device's unless a smaller one is asked for. */
export function gridLimitFor(device: GPUDevice, requested: number | undefined): number {
  const deviceLimit = device.limits.maxComputeWorkgroupsPerDimension;
  const limit = requested ?? deviceLimit;
  if (!Number.isInteger(limit) || limit < 1 || limit > deviceLimit) {
    throw new GpuPrimitivesError(`maxWorkgroupsPerDimension must be an integer in 1..${deviceLimit}, got ${limit}.`);
  }
  return limit;
}

/** `count` must be a non-negative integer no larger than `maxCount` (when given). */
export function requireCount(count: number, maxCount?: number, owner = 'this instance'): void {
  requireInteger('count', count, 0);
  if (maxCount !== undefined && count > maxCount) {
    throw new GpuPrimitivesError(`count ${count} is above ${owner}'s maxCount ${maxCount}; create one with a larger maxCount.`);
  }
}

/** `buffer` must hold `count` words and carry STORAGE (and `extraUsage`, explained by `why`). */
export function requireWordBuffer(name: string, buffer: GPUBuffer, count: number, extraUsage = 0, why = ''): void {
  if (count * WORD > buffer.size) throw new GpuPrimitivesError(`count ${count} needs ${count * WORD} bytes but the ${name} buffer holds ${buffer.size}.`);
  if ((buffer.usage & GPUBufferUsage.STORAGE) === 0) throw new GpuPrimitivesError(`The ${name} buffer needs GPUBufferUsage.STORAGE.`);
  if ((buffer.usage & extraUsage) !== extraUsage) throw new GpuPrimitivesError(`${why}the ${name} buffer also needs GPUBufferUsage.COPY_DST.`);
}
