// Scene input from @cuttle/ecs: entities bound to render instances take their world matrices
// from the ECS's transform components each frame (after updateTransforms and updateHierarchy).
import type { Entity, TransformManager } from '@cuttle/ecs';
import { RenderError } from './errors.ts';
import type { RenderScene } from './scene/render-scene.ts';

/** Which entity drives which instance, in flat arrays; `sync` copies their world matrices. */
export class EcsBinding {
  #entities = new Uint32Array(64);
  #instances = new Uint32Array(64);
  #count = 0;

  /** Number of bound entities. */
  get count(): number {
    return this.#count;
  }

  /** `entity`'s world matrix places `instance` from now on. */
  bind(entity: Entity, instance: number): void {
    if (!Number.isInteger(instance) || instance < 0) throw new RenderError(`instance must be a non-negative integer, got ${instance}.`);
    if (this.#count === this.#entities.length) {
      const entities = new Uint32Array(this.#count * 2);
      entities.set(this.#entities);
      this.#entities = entities;
      const instances = new Uint32Array(this.#count * 2);
      instances.set(this.#instances);
      this.#instances = instances;
    }
    this.#entities[this.#count] = entity;
    this.#instances[this.#count++] = instance;
  }

  /**
   * Copies every bound entity's world matrix into its instance. Entities without a transform
   * (destroyed, say) are skipped and counted in the result.
   */
  sync(scene: RenderScene, transforms: TransformManager): { moved: number; missing: number } {
    const world = transforms.fields.world;
    let moved = 0, missing = 0;
    for (let k = 0; k < this.#count; k++) {
      const row = transforms.indexOf(this.#entities[k]!);
      if (row === -1) {
        missing++;
        continue;
      }
      scene.setTransform(this.#instances[k]!, world.subarray(row * 16, row * 16 + 16));
      moved++;
    }
    return { moved, missing };
  }
}
