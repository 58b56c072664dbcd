// What every lit pass reads besides its surfaces: the culled tiles, the ambient occlusion and
// the shadow maps with their colour filters (all bound in the frame's groups).
import { RESOURCES } from '../frame/targets.ts';
import type { ResourceAccess } from '../graph/pass.ts';

export const LIT_INPUTS: readonly ResourceAccess[] = [
  { resource: RESOURCES.lightTiles, use: 'storage' },
  { resource: RESOURCES.ambientOcclusion, use: 'sampled' },
  { resource: RESOURCES.shadowMaps, use: 'sampled' },
  { resource: RESOURCES.shadowFilters, use: 'sampled' },
  { resource: RESOURCES.transparentShadowMaps, use: 'sampled' },
];
