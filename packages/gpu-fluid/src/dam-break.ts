import type { FluidParameters } from './api.ts';
import { GpuFluidError } from './errors.ts';

/**
 * Positions (xyz triplets) for a dam break: `count` particles stacked on a cubic lattice of
 * `spacing` in the low corner of the bounds, filling x and z first so the column is tall.
 * A small deterministic jitter keeps particles off exact lattice symmetry (and off r = 0).
 */
export function damBreakPositions(count: number, parameters: Pick<FluidParameters, 'h' | 'bounds'>, spacing = parameters.h * 0.5): Float32Array {
  if (!Number.isInteger(count) || count < 0) throw new GpuFluidError(`count must be a non-negative integer, got ${count}.`);
  if (!(spacing > 0) || !Number.isFinite(spacing)) throw new GpuFluidError(`spacing must be a positive number, got ${spacing}.`);
  const { min, max } = parameters.bounds;
  // The column takes the low 40% of x and all of z.
  const nx = Math.max(1, Math.floor(((max[0] - min[0]) * 0.4) / spacing));
  const nz = Math.max(1, Math.floor((max[2] - min[2]) / spacing) - 1);
  const out = new Float32Array(count * 3);
  let seed = 12345;
  for (let i = 0; i < count; i++) {
    const ix = i % nx;
    const iz = Math.floor(i / nx) % nz;
    const iy = Math.floor(i / (nx * nz));
    seed = (seed * 1664525 + 1013904223) >>> 0;
    const jitter = (seed / 2 ** 32 - 0.5) * spacing * 0.02;
    out[i * 3] = min[0] + (ix + 0.5) * spacing + jitter;
    out[i * 3 + 1] = min[1] + (iy + 0.5) * spacing - jitter;
    out[i * 3 + 2] = min[2] + (iz + 0.5) * spacing + jitter * 0.5;
  }
  return out;
}
