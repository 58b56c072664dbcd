import type { Schema } from './api.ts';
import { composeMatrix } from './math.ts';
import { SchemaComponentManager } from './schema-component-manager.ts';

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] as const;

/**
 * TransformComponent: local position, rotation (unit quaternion x, y, z, w) and scale, the
 * world matrix (column-major) and a dirty flag. Set `dirty[i] = 1` after editing the locals.
 */
export const TRANSFORM_SCHEMA = {
  position: { type: 'f32', length: 3 },
  rotation: { type: 'f32', length: 4, default: [0, 0, 0, 1] },
  scale: { type: 'f32', length: 3, default: 1 },
  world: { type: 'f32', length: 16, default: IDENTITY },
  dirty: { type: 'u8', default: 1 },
} as const satisfies Schema;

/** The schema manager of transform components ({@link TRANSFORM_SCHEMA}). */
export type TransformManager = SchemaComponentManager<typeof TRANSFORM_SCHEMA>;

/** A new {@link TransformManager} with room for `capacity` rows (it grows as needed). */
export function createTransformManager(capacity = 0): TransformManager {
  return new SchemaComponentManager(TRANSFORM_SCHEMA, capacity);
}

/**
 * The transform update system: world = translate * rotate * scale for every dirty transform,
 * then clears the flag. Run it before `updateHierarchy`, which overwrites children's worlds.
 */
export function updateTransforms(transforms: TransformManager): void {
  const { position, rotation, scale, world, dirty } = transforms.fields;
  const count = transforms.count;
  for (let i = 0; i < count; i++) {
    if (dirty[i] === 0) continue;
    composeMatrix(world, i * 16, position, i * 3, rotation, i * 4, scale, i * 3);
    dirty[i] = 0;
  }
}
