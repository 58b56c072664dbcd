import { DEFAULT_PARAMETERS, type FluidParameters } from './api.ts';
import { GpuFluidError } from './errors.ts';

function requireFinite(name: string, value: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new GpuFluidError(`${name} must be a finite number, got ${String(value)}.`);
}

function requirePositive(name: string, value: number): void {
  requireFinite(name, value);
  if (value <= 0) throw new GpuFluidError(`${name} must be greater than 0, got ${value}.`);
}

function requireVector(name: string, value: readonly number[]): void {
  if (typeof value !== 'object' || value.length !== 3) throw new GpuFluidError(`${name} must be three numbers [x, y, z].`);
  for (let axis = 0; axis < 3; axis++) requireFinite(`${name}[${axis}]`, value[axis]!);
}

/**
 * Merges `changes` over `base` and checks every field, so nothing bad reaches the GPU: h, mass,
 * rho0 and dt positive; K and viscosity non-negative; restitution in [0, 1]; finite everywhere;
 * bounds.max above bounds.min on every axis.
 */
export function resolveParameters(changes: Partial<FluidParameters> = {}, base: FluidParameters = DEFAULT_PARAMETERS): FluidParameters {
  const p: FluidParameters = { ...base, ...changes };
  requirePositive('h', p.h);
  requirePositive('rho0', p.rho0);
  requirePositive('mass', p.mass);
  requirePositive('dt', p.dt);
  requireFinite('k', p.k);
  if (p.k < 0) throw new GpuFluidError(`k must be 0 or more, got ${p.k}.`);
  requireFinite('viscosity', p.viscosity);
  if (p.viscosity < 0) throw new GpuFluidError(`viscosity must be 0 or more, got ${p.viscosity}.`);
  requireFinite('restitution', p.restitution);
  if (p.restitution < 0 || p.restitution > 1) throw new GpuFluidError(`restitution must be in [0, 1], got ${p.restitution}.`);
  requireVector('gravity', p.gravity);
  if (typeof p.bounds !== 'object') throw new GpuFluidError('bounds must be { min: [x, y, z], max: [x, y, z] }.');
  requireVector('bounds.min', p.bounds.min);
  requireVector('bounds.max', p.bounds.max);
  for (let axis = 0; axis < 3; axis++) {
    if (p.bounds.max[axis]! <= p.bounds.min[axis]!) {
      throw new GpuFluidError(`bounds.max[${axis}] (${p.bounds.max[axis]}) must be greater than bounds.min[${axis}] (${p.bounds.min[axis]}).`);
    }
  }
  return { ...p, gravity: [...p.gravity], bounds: { min: [...p.bounds.min], max: [...p.bounds.max] } };
}

/** Cells per axis of the counting-sort grid: the bounds cut into cubes of side h (at least 1). */
export function gridDimensions(p: FluidParameters): [number, number, number] {
  const dims: [number, number, number] = [1, 1, 1];
  for (let axis = 0; axis < 3; axis++) dims[axis] = Math.max(1, Math.ceil((p.bounds.max[axis]! - p.bounds.min[axis]!) / p.h));
  return dims;
}

/** The kernels' constant factors, precomputed once per parameter change as the post advises. */
export interface KernelConstants {
  /** 315 / (64 pi h^9) */
  poly6: number;
  /** -45 / (pi h^6) */
  spiky: number;
  /** 45 / (pi h^6): the viscosity kernel's Laplacian is this times (h - r). */
  viscosityLaplacian: number;
}

/** The SPH kernels' normalisation constants for smoothing radius `h` (positive, world units). */
export function kernelConstants(h: number): KernelConstants {
  return {
    poly6: 315 / (64 * Math.PI * h ** 9),
    spiky: -45 / (Math.PI * h ** 6),
    viscosityLaplacian: 45 / (Math.PI * h ** 6),
  };
}
