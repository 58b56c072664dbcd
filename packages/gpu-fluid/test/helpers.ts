// Shared by the GPU tests: a reproducible scene and the comparison against the reference.
import { createSphScratch, damBreakPositions, sphStepReference, type FluidParameters, type FluidSnapshot } from '../src/index.ts';

export const SCENE_PARAMETERS: Partial<FluidParameters> = { bounds: { min: [0, 0, 0], max: [20, 20, 10] } };

/** A dam-break block of `count` particles with small pseudo-random velocities. */
export function scene(count: number, parameters: FluidParameters): { positions: Float32Array; velocities: Float32Array } {
  const positions = damBreakPositions(count, parameters);
  const velocities = new Float32Array(count * 3);
  let x = 987654321;
  for (let i = 0; i < velocities.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    velocities[i] = ((x >>> 0) / 2 ** 32 - 0.5) * 0.5;
  }
  return { positions, velocities };
}

/** Runs `steps` reference steps in float64 on copies of the inputs. */
export function referenceSteps(positions: Float32Array, velocities: Float32Array, parameters: FluidParameters, steps: number): { positions: Float64Array; velocities: Float64Array; densities: Float64Array } {
  const count = positions.length / 3;
  const state = { positions: Float64Array.from(positions), velocities: Float64Array.from(velocities) };
  const scratch = createSphScratch(count);
  let densities: Float64Array = new Float64Array(0);
  for (let s = 0; s < steps; s++) densities = sphStepReference(state, count, parameters, scratch);
  return { ...state, densities: Float64Array.from(densities) };
}

/** Largest |gpu - ref| / (1 + |ref|) per quantity, matching GPU slots to reference particles by id. */
export function compare(gpu: FluidSnapshot, ref: { positions: Float64Array; velocities: Float64Array; densities: Float64Array }): { positions: number; velocities: number; densities: number } {
  const worst = { positions: 0, velocities: 0, densities: 0 };
  const count = gpu.ids.length;
  for (let slot = 0; slot < count; slot++) {
    const id = gpu.ids[slot]!;
    for (let axis = 0; axis < 3; axis++) {
      const p = ref.positions[id * 3 + axis]!;
      const v = ref.velocities[id * 3 + axis]!;
      worst.positions = Math.max(worst.positions, Math.abs(gpu.positions[slot * 3 + axis]! - p) / (1 + Math.abs(p)));
      worst.velocities = Math.max(worst.velocities, Math.abs(gpu.velocities[slot * 3 + axis]! - v) / (1 + Math.abs(v)));
    }
    const rho = ref.densities[id]!;
    worst.densities = Math.max(worst.densities, Math.abs(gpu.densities[slot]! - rho) / (1 + Math.abs(rho)));
  }
  return worst;
}
