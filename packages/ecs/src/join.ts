import type { ComponentManager } from './component-manager.ts';

/**
 * For each row of `from`, the row of the same entity in `to` (or -1): the cached equivalent
 * of calling `to.indexOf(from.getEntity(i))` in a loop. It is rebuilt only when either
 * manager's structure changed since the last call, so a system joining two managers pays
 * one hash lookup per row per structural change, not per frame.
 */
export class Join {
  /** The manager whose rows are joined. */
  readonly from: ComponentManager;
  /** The manager searched for each of `from`'s entities. */
  readonly to: ComponentManager;
  #rows = new Int32Array(0);
  #aligned = false;
  #fromVersion = -1;
  #toVersion = -1;

  constructor(from: ComponentManager, to: ComponentManager) {
    this.from = from;
    this.to = to;
  }

  /**
   * Whether, as of the last `rows()`, every row of `from` holds the same entity as the same
   * row of `to` (components created in lockstep). A system can then index both managers' arrays
   * with one `i` and skip the map.
   */
  get aligned(): boolean {
    return this.#aligned;
  }

  /** The row map, `from.count` entries valid; do not keep it past a structural change. */
  rows(): Int32Array {
    const from = this.from;
    const to = this.to;
    if (from.structureVersion !== this.#fromVersion || to.structureVersion !== this.#toVersion) {
      const count = from.count;
      if (this.#rows.length < count) this.#rows = new Int32Array(Math.max(count, this.#rows.length * 2));
      const rows = this.#rows;
      const entities = from.entities;
      let aligned = count <= to.count;
      for (let i = 0; i < count; i++) {
        const row = to.indexOf(entities[i]!);
        rows[i] = row;
        if (row !== i) aligned = false;
      }
      this.#aligned = aligned;
      this.#fromVersion = from.structureVersion;
      this.#toVersion = to.structureVersion;
    }
    return this.#rows;
  }
}
