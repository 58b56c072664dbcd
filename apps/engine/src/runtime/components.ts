// Component schemas of a compiled level's ECS archive. The compiler writes them and the runtime
// registers the same schemas before loading, so a level is one @cuttle/ecs archive. Resource
// references are 32-bit murmur hashes of resource names (the post's static hashes); the level's
// header maps them back to names.
import type { Schema } from '@cuttle/ecs';

export const UNIT_SCHEMA = {
  /** Index of the unit's id string in the level header's `units`. */
  id: 'u32',
  /** Hash of the unit (prefab) resource it was placed from. */
  prefab: 'u32',
} as const satisfies Schema;

export const RENDER_SCHEMA = {
  mesh: 'u32',
  /** The material resource drawing every group of the mesh; 0: the mesh's own materials. */
  material: 'u32',
} as const satisfies Schema;

export const LIGHT_SCHEMA = {
  color: { type: 'f32', length: 3, default: 1 },
  range: { type: 'f32', default: 3 },
  intensity: { type: 'f32', default: 1 },
} as const satisfies Schema;

export const CHARACTER_SCHEMA = {
  mesh: 'u32',
  material: 'u32',
  /** Walking speed in metres per second and radius of the circle walked. */
  speed: { type: 'f32', default: 1.2 },
  radius: { type: 'f32', default: 2 },
  phase: 'f32',
} as const satisfies Schema;

export const SCRIPT_SCHEMA = {
  flow: 'u32',
} as const satisfies Schema;

/** Names and versions the level archive registers; bump a version when its schema changes. */
export const LEVEL_COMPONENTS = {
  unit: { schema: UNIT_SCHEMA, version: 1 },
  render: { schema: RENDER_SCHEMA, version: 1 },
  light: { schema: LIGHT_SCHEMA, version: 1 },
  character: { schema: CHARACTER_SCHEMA, version: 1 },
  script: { schema: SCRIPT_SCHEMA, version: 1 },
} as const;
