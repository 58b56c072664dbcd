import type { FluidParameters, ParticleState } from '../api.ts';
import { GpuFluidError } from '../errors.ts';
import { kernelConstants, resolveParameters } from '../parameters.ts';

/** Scratch a reference step writes into, so repeated steps allocate nothing. */
export interface SphScratch {
  /** One density per particle. */
  densities: Float64Array;
  /** One acceleration per particle, xyz (3 x count), in world units per second squared. */
  accelerations: Float64Array;
}

/** Scratch for reference steps of up to `count` particles (a non-negative integer). */
export function createSphScratch(count: number): SphScratch {
  return { densities: new Float64Array(count), accelerations: new Float64Array(count * 3) };
}

/**
 * One whole SPH step in plain TypeScript, every pair tested (O(n^2)): the ground truth the GPU
 * kernels are held to. In order, as in the post:
 * 1. density with Poly6, the particle itself included, clamped up to rho0;
 * 2. pressure K (density - rho0), pressure force with Spiky's gradient and viscosity with its
 *    Laplacian, skipping pairs with r = 0 (the post's divide-by-zero guard), plus gravity;
 * 3. a separate integration (velocity, then position) with box collisions.
 * `state` is updated in place (xyz triplets); returns the densities of step 1.
 */
export function sphStepReference(state: ParticleState, count: number, parameters: FluidParameters, scratchIn?: SphScratch): Float64Array {
  const p = resolveParameters(parameters);
  if (!Number.isInteger(count) || count < 0) throw new GpuFluidError(`count must be a non-negative integer, got ${count}.`);
  const scratch = scratchIn ?? createSphScratch(count);
  if (state.positions.length < count * 3 || state.velocities.length < count * 3) throw new GpuFluidError(`positions and velocities need ${count * 3} floats (xyz per particle).`);
  if (scratch.densities.length < count || scratch.accelerations.length < count * 3) throw new GpuFluidError(`scratch holds fewer than ${count} particles; use createSphScratch(count).`);
  const { positions: pos, velocities: vel } = state;
  const { densities: rho, accelerations: acc } = scratch;
  const { h, mass, rho0, k } = p;
  const h2 = h * h;
  const { poly6, spiky, viscosityLaplacian } = kernelConstants(h);

  for (let a = 0; a < count; a++) {
    const ax = pos[a * 3]!, ay = pos[a * 3 + 1]!, az = pos[a * 3 + 2]!;
    let density = 0;
    for (let b = 0; b < count; b++) {
      const dx = ax - pos[b * 3]!, dy = ay - pos[b * 3 + 1]!, dz = az - pos[b * 3 + 2]!;
      const r2 = dx * dx + dy * dy + dz * dz;
      if (r2 < h2) {
        const w = h2 - r2;
        density += mass * poly6 * w * w * w;
      }
    }
    rho[a] = Math.max(rho0, density);
  }

  for (let a = 0; a < count; a++) {
    const ax = pos[a * 3]!, ay = pos[a * 3 + 1]!, az = pos[a * 3 + 2]!;
    const avx = vel[a * 3]!, avy = vel[a * 3 + 1]!, avz = vel[a * 3 + 2]!;
    const rhoA = rho[a]!;
    const pressureA = k * (rhoA - rho0);
    let px = 0, py = 0, pz = 0, vx = 0, vy = 0, vz = 0;
    for (let b = 0; b < count; b++) {
      const dx = ax - pos[b * 3]!, dy = ay - pos[b * 3 + 1]!, dz = az - pos[b * 3 + 2]!;
      const r = Math.sqrt(dx * dx + dy * dy + dz * dz);
      if (r > 0 && r < h) {
        const rhoB = rho[b]!;
        const pressureB = k * (rhoB - rho0);
        // Uniform mass: the post's mass ratio mB / mA is 1.
        const gradient = (((pressureA + pressureB) / (2 * rhoA * rhoB)) * spiky * (h - r) * (h - r)) / r;
        px += gradient * dx;
        py += gradient * dy;
        pz += gradient * dz;
        const laplacian = (viscosityLaplacian * (h - r)) / rhoB;
        vx += laplacian * (vel[b * 3]! - avx);
        vy += laplacian * (vel[b * 3 + 1]! - avy);
        vz += laplacian * (vel[b * 3 + 2]! - avz);
      }
    }
    const e = p.viscosity;
    acc[a * 3] = (-px + e * vx) / rhoA + p.gravity[0];
    acc[a * 3 + 1] = (-py + e * vy) / rhoA + p.gravity[1];
    acc[a * 3 + 2] = (-pz + e * vz) / rhoA + p.gravity[2];
  }

  const { dt, restitution } = p;
  const { min, max } = p.bounds;
  for (let a = 0; a < count; a++) {
    for (let axis = 0; axis < 3; axis++) {
      const i = a * 3 + axis;
      let v = vel[i]! + dt * acc[i]!;
      let x = pos[i]! + dt * v;
      if (x < min[axis]!) {
        x = min[axis]!;
        v = Math.abs(v) * restitution;
      } else if (x > max[axis]!) {
        x = max[axis]!;
        v = -Math.abs(v) * restitution;
      }
      vel[i] = v;
      pos[i] = x;
    }
  }
  return rho.subarray(0, count);
}
