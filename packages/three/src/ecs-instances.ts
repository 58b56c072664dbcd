// @cuttle/ecs world matrices into three.js: an InstancedMesh's instance matrices, or Object3Ds'
// matrices, copied from the transform manager's flat `world` array each frame. The copy is a
// plain loop over typed arrays (no Matrix4, no Object3D in the loop): 100,000 entities a frame
// is the target (BENCHMARKS.md).
import type { Entity, TransformManager } from '@cuttle/ecs';
import type { InstancedMesh, Object3D } from 'three';
import { ThreeError } from './errors.ts';

/**
 * Which entity drives which slot, in flat arrays that grow by doubling, and each entity's row in
 * the transform manager: looked up again only when the manager's structure (or the pairs)
 * changed, so a frame's sync is a gather over typed arrays with no hash lookups.
 */
class Pairs {
  entities = new Uint32Array(64);
  slots = new Uint32Array(64);
  /** Row of each entity in `#rowsOf`'s manager, -1 for none. */
  rows = new Int32Array(64);
  count = 0;
  #rowsOf: TransformManager | undefined;
  #rowsVersion = -1;

  /** The rows for `transforms`, looked up again when its structure or the pairs changed. */
  rowsFor(transforms: TransformManager): Int32Array {
    if (this.#rowsOf !== transforms || this.#rowsVersion !== transforms.structureVersion) {
      for (let k = 0; k < this.count; k++) this.rows[k] = transforms.indexOf(this.entities[k]!);
      this.#rowsOf = transforms;
      this.#rowsVersion = transforms.structureVersion;
    }
    return this.rows;
  }

  push(entity: Entity, slot: number): void {
    this.#rowsOf = undefined;
    if (this.count === this.entities.length) {
      const entities = new Uint32Array(this.count * 2);
      entities.set(this.entities);
      this.entities = entities;
      const slots = new Uint32Array(this.count * 2);
      slots.set(this.slots);
      this.slots = slots;
      this.rows = new Int32Array(this.count * 2);
    }
    this.entities[this.count] = entity;
    this.slots[this.count++] = slot;
  }
}

/** What one `sync` did. */
export interface SyncResult {
  /** Bound entities whose matrices were copied. */
  moved: number;
  /** Bound entities with no transform (destroyed): left as they were, counted. */
  missing: number;
}

// The two copies are written out in each sync, not shared: one function taking a Float32Array
// and a number[] (Matrix4.elements) in turn went polymorphic and ran 20x slower.

/** Keeps an InstancedMesh's instances where `@cuttle/ecs` entities are. */
export class EcsInstances {
  /** The mesh whose instance matrices follow the bound entities. */
  readonly mesh: InstancedMesh;
  readonly #pairs = new Pairs();

  constructor(mesh: InstancedMesh) {
    this.mesh = mesh;
  }

  /** Bound (entity, instance) pairs. */
  get count(): number {
    return this.#pairs.count;
  }

  /** `entity`'s world matrix places instance `instance` from now on. */
  bind(entity: Entity, instance: number): void {
    if (!Number.isInteger(instance) || instance < 0 || instance >= this.mesh.count) throw new ThreeError(`instance must be an integer in 0..${this.mesh.count - 1} (the mesh's count), got ${instance}.`);
    this.#pairs.push(entity, instance);
  }

  /**
   * Copies every bound entity's world matrix (after `updateTransforms` / `updateHierarchy`) into
   * its instance and marks the instance matrices for upload.
   */
  sync(transforms: TransformManager): SyncResult {
    const world = transforms.fields.world;
    const target = this.mesh.instanceMatrix.array as Float32Array;
    const rows = this.#pairs.rowsFor(transforms);
    const { slots, count } = this.#pairs;
    let moved = 0;
    for (let k = 0; k < count; k++) {
      const row = rows[k]!;
      if (row === -1) continue;
      const from = row * 16, to = slots[k]! * 16;
      for (let c = 0; c < 16; c++) target[to + c] = world[from + c]!;
      moved++;
    }
    if (moved > 0) this.mesh.instanceMatrix.needsUpdate = true;
    return { moved, missing: count - moved };
  }
}

/** Keeps Object3Ds where `@cuttle/ecs` entities are (objects whose parent applies no transform: the Scene). */
export class EcsObjects {
  readonly #objects: Object3D[] = [];
  readonly #pairs = new Pairs();

  /** Bound (entity, object) pairs. */
  get count(): number {
    return this.#pairs.count;
  }

  /** `entity`'s world matrix places `object` from now on; three no longer composes its matrix from position, rotation and scale. */
  bind(entity: Entity, object: Object3D): void {
    object.matrixAutoUpdate = false;
    this.#pairs.push(entity, this.#objects.length);
    this.#objects.push(object);
  }

  /** Copies every bound entity's world matrix (after `updateTransforms` / `updateHierarchy`) into its object's `matrix` and marks the object's world matrix for update. */
  sync(transforms: TransformManager): SyncResult {
    const world = transforms.fields.world;
    const rows = this.#pairs.rowsFor(transforms);
    const { slots, count } = this.#pairs;
    let moved = 0;
    for (let k = 0; k < count; k++) {
      const row = rows[k]!;
      if (row === -1) continue;
      const object = this.#objects[slots[k]!]!;
      const elements = object.matrix.elements;
      const from = row * 16;
      for (let c = 0; c < 16; c++) elements[c] = world[from + c]!;
      object.matrixWorldNeedsUpdate = true;
      moved++;
    }
    return { moved, missing: count - moved };
  }
}
