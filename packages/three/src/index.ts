export { ThreeError } from './errors.ts';
export { SUPPORTED_THREE, checkThreeRevision, deviceOf, gpuBufferOf, adoptGpuBuffer, gpuTextureOf } from './backend.ts';
export { EcsInstances, EcsObjects, type SyncResult } from './ecs-instances.ts';
export { FluidMesh, type FluidMeshOptions } from './fluid-mesh.ts';
export { SkinnedCrowd, type SkinnedCrowdOptions } from './skinned-crowd.ts';
