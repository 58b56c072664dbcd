export { FluidSimulation, type FluidSimulationOptions, type FluidSnapshot } from './fluid-simulation.ts';
export { sphStepReference, createSphScratch, type SphScratch } from './reference/sph-step.ts';
export { resolveParameters, gridDimensions, kernelConstants, type KernelConstants } from './parameters.ts';
export type { StepTimestamps } from './timestamps.ts';
export { FluidPointRenderer, type PointRenderOptions } from './point-renderer.ts';
export { damBreakPositions } from './dam-break.ts';
export { GpuFluidError } from './errors.ts';
export {
  DEFAULT_PARAMETERS,
  NEIGHBOUR_MODES,
  WORKGROUP_SIZE,
  type Bounds,
  type FluidParameters,
  type NeighbourMode,
  type ParticleState,
} from './api.ts';
