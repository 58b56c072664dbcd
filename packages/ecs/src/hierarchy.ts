import { INVALID_ENTITY, type Schema } from './api.ts';
import { composeMatrix, multiplyMatrices } from './math.ts';
import { SchemaComponentManager } from './schema-component-manager.ts';
import type { TransformManager } from './transform.ts';

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] as const;

/**
 * HierarchyComponent: the post's parent and the parent's inverse world matrix at attach time,
 * plus intrusive child links (first child, next and previous sibling) so that a subtree can
 * be walked in O(its size). An entity has a row while it has a parent or children; a row
 * always comes after its parent's row, so one pass in row order updates the whole graph.
 */
export const HIERARCHY_SCHEMA = {
  parent: 'entity',
  worldParentInverseBind: { type: 'f32', length: 16, default: IDENTITY },
  firstChild: 'entity',
  nextSibling: 'entity',
  prevSibling: 'entity',
} as const satisfies Schema;

/** The schema manager of the scene graph's hierarchy components ({@link HIERARCHY_SCHEMA}). */
export type HierarchyManager = SchemaComponentManager<typeof HIERARCHY_SCHEMA>;

/** A new {@link HierarchyManager} with room for `capacity` rows (it grows as needed). */
export function createHierarchyManager(capacity = 0): HierarchyManager {
  return new SchemaComponentManager(HIERARCHY_SCHEMA, capacity);
}

const scratch = new Float32Array(32);

/**
 * The hierarchy update system: in row order (parents first), each child's world becomes
 * parentWorld * worldParentInverseBind * local(position, rotation, scale).
 */
export function updateHierarchy(hierarchy: HierarchyManager, transforms: TransformManager): void {
  updateHierarchyRows(hierarchy, transforms, null, hierarchy.count);
}

/**
 * The hierarchy update over some rows: `rows[0..count)` (hierarchy rows, each after its parent's
 * when both are listed), or every row `0..count` when `rows` is null. A child's world becomes
 * parentWorld * worldParentInverseBind * local; a root is left as it is.
 */
export function updateHierarchyRows(hierarchy: HierarchyManager, transforms: TransformManager, rows: Int32Array | null, count: number): void {
  const { parent, worldParentInverseBind } = hierarchy.fields;
  const entities = hierarchy.entities;
  const { position, rotation, scale, world } = transforms.fields;
  // The full pass keeps its plain counter; the listed rows come from Scene.update.
  if (rows === null) {
    for (let i = 0; i < count; i++) childWorld(i, parent, entities, worldParentInverseBind, transforms, position, rotation, scale, world);
  } else {
    for (let k = 0; k < count; k++) childWorld(rows[k]!, parent, entities, worldParentInverseBind, transforms, position, rotation, scale, world);
  }
}

function childWorld(i: number, parent: Uint32Array, entities: Uint32Array, bind: Float32Array, transforms: TransformManager, position: Float32Array, rotation: Float32Array, scale: Float32Array, world: Float32Array): void {
  const parentEntity = parent[i]!;
  if (parentEntity === INVALID_ENTITY) return;
  const child = transforms.indexOf(entities[i]!);
  const up = transforms.indexOf(parentEntity);
  if (child === -1 || up === -1) return;
  multiplyMatrices(scratch, 0, world, up * 16, bind, i * 16);
  composeMatrix(scratch, 16, position, child * 3, rotation, child * 4, scale, child * 3);
  multiplyMatrices(world, child * 16, scratch, 0, scratch, 16);
}
