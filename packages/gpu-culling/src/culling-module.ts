// The WGSL users include in their shading to walk the culled tiles, and the bindings it needs.
import moduleCommonWgsl from './shaders/module-common.wgsl?raw';
import moduleFlatCommonWgsl from './shaders/module-flat-common.wgsl?raw';
import moduleFlatWgsl from './shaders/module-flat.wgsl?raw';
import moduleFlatSparseWgsl from './shaders/module-flat-sparse.wgsl?raw';
import moduleCompactionWgsl from './shaders/module-compaction.wgsl?raw';
import moduleScalarWgsl from './shaders/module-scalar.wgsl?raw';
import moduleLaneWgsl from './shaders/module-lane.wgsl?raw';
import moduleShadingWgsl from './shaders/module-shading.wgsl?raw';
import moduleWalkWgsl from './shaders/module-walk.wgsl?raw';
import { CULL_WALKS, SPARSE_WALK_MAX_ENTITIES, TECHNIQUES, type CullWalk, type Technique } from './api.ts';
import { GpuCullingError } from './errors.ts';

/** Options of `cullingShaderModule`: what the WGSL it returns must match in the culler. */
export interface CullingModuleOptions {
  /** The culler's technique (`culler.technique`). */
  technique: Technique;
  /** Bind group of the module's three bindings (default 0). */
  group?: number;
  /** First of three consecutive bindings: view uniform, entities, tiles (default 0). */
  binding?: number;
  /**
   * Walk tiles with subgroup operations (default false; needs a device with `subgroups`): the
   * subgroup walks one tile at a time with uniform loads, and lanes of the other tiles get
   * CULL_SKIP meanwhile, for both techniques.
   */
  scalarize?: boolean;
  /** Include `cull_shade`, the default decal, probe and light shading (default true). */
  shading?: boolean;
  /** How flat-bit tiles are walked (default `'auto'`; ignored for compaction): see {@link CullWalk}. */
  walk?: CullWalk;
  /** The culler's `maxEntities`, which `walk: 'auto'` chooses by; without it `'auto'` is `'dense'`. */
  maxEntities?: number;
}

/** The walk `walk` means for a culler of `maxEntities` (`'auto'` resolved). */
export function resolveWalk(walk: CullWalk, maxEntities: number | undefined): 'sparse' | 'dense' {
  if (walk !== 'auto') return walk;
  return maxEntities !== undefined && maxEntities <= SPARSE_WALK_MAX_ENTITIES ? 'sparse' : 'dense';
}

/**
 * WGSL for your shader: the bindings, `cull_tile`, the iterators `cull_decals`, `cull_probes`,
 * `cull_lights` with `cull_next`, entity access through `cull_entities`, and `cull_shade`. Put
 * it first in your module: with `scalarize` it starts with `enable subgroups;`.
 */
export function cullingShaderModule(options: CullingModuleOptions): string {
  const { technique, group = 0, binding = 0, scalarize = false, shading = true, walk = 'auto', maxEntities } = options;
  if (!(TECHNIQUES as readonly string[]).includes(technique)) throw new GpuCullingError(`technique must be 'flat-bits' or 'compaction', got ${technique}.`);
  if (!(CULL_WALKS as readonly string[]).includes(walk)) throw new GpuCullingError(`walk must be 'auto', 'sparse' or 'dense', got ${walk}.`);
  if (maxEntities !== undefined && !(Number.isInteger(maxEntities) && maxEntities > 0)) throw new GpuCullingError(`maxEntities must be a positive integer, got ${maxEntities}.`);
  for (const [name, value] of [['group', group], ['binding', binding]] as const) {
    if (!Number.isInteger(value) || value < 0) throw new GpuCullingError(`${name} must be a non-negative integer, got ${value}.`);
  }
  const common = moduleCommonWgsl
    .replaceAll('CULL_GROUP', String(group))
    .replaceAll('CULL_BINDING_ENTITIES', String(binding + 1))
    .replaceAll('CULL_BINDING_TILES', String(binding + 2))
    .replaceAll('CULL_BINDING', String(binding));
  return [
    // The walk is uniform across the subgroup by construction, which static analysis cannot see.
    scalarize ? 'enable subgroups;\ndiagnostic(off, subgroup_uniformity);' : '',
    common,
    scalarize ? moduleScalarWgsl : moduleLaneWgsl,
    technique === 'compaction' ? moduleCompactionWgsl : moduleFlatCommonWgsl,
    technique === 'compaction' ? '' : resolveWalk(walk, maxEntities) === 'sparse' ? moduleFlatSparseWgsl : moduleFlatWgsl,
    moduleWalkWgsl,
    shading ? moduleShadingWgsl : '',
  ].join('\n');
}
