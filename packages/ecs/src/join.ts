import type { ComponentManager } from './component-manager.ts';
import { EcsError } from './errors.ts';

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
  #offset = -1;
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
    return this.#offset === 0;
  }

  /**
   * As of the last `rows()`: when row `i` of `from` holds the same entity as row `offset + i`
   * of `to` for every `i` (a run, as `group` leaves it), that offset; otherwise -1. A system
   * can then index `to`'s arrays with `offset + i` and skip the map.
   */
  get offset(): number {
    return this.#offset;
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
      for (let i = 0; i < count; i++) rows[i] = to.indexOf(entities[i]!);
      this.#offset = runOffset(rows, count);
      this.#fromVersion = from.structureVersion;
      this.#toVersion = to.structureVersion;
    }
    return this.#rows;
  }

  /**
   * Reorders `to` so that `from`'s entities take its rows `[start, start + from.count)`, in
   * `from`'s order; `to`'s other rows keep their order around that run. Afterwards `offset` is
   * `start`, and a system walks both managers with plain indices (EnTT calls this a group).
   * Grouping a second `from` into the same `to` at a start past the first run keeps the first
   * run where it is. Every entity of `from` must have a component in `to`; otherwise, or with
   * `start` out of range, it throws and changes nothing. Costs one pass over `to`; the order
   * lasts until `to` next changes structure (a removal moves its last row).
   */
  group(start = 0): void {
    const from = this.from;
    const to = this.to;
    const count = from.count;
    if (count > to.count) {
      throw new EcsError(`Join.group: from holds ${count} components and to only ${to.count}; every entity of from must have a component in to.`);
    }
    if (!Number.isInteger(start) || start < 0 || start + count > to.count) {
      throw new EcsError(`Join.group needs a start in [0, ${to.count - count}] (${count} rows into ${to.count}), got ${start}.`);
    }
    const rows = this.rows();
    const member = new Uint8Array(to.count);
    for (let i = 0; i < count; i++) {
      const row = rows[i]!;
      if (row === -1) throw new EcsError(`Join.group: entity ${from.entities[i]} (row ${i} of from) has no component in to; only entities both managers hold can be grouped.`);
      member[row] = 1;
    }
    const order = new Int32Array(to.count);
    let other = 0;
    for (let position = 0; position < to.count; position++) {
      if (position >= start && position < start + count) {
        order[position] = rows[position - start]!;
        continue;
      }
      while (member[other] === 1) other++;
      order[position] = other++;
    }
    to.permuteTail(0, order);
  }
}

/** `offset` when rows[i] === offset + i for every i < count (and count > 0), else -1. */
function runOffset(rows: Int32Array, count: number): number {
  if (count === 0) return 0;
  const offset = rows[0]!;
  if (offset < 0) return -1;
  for (let i = 1; i < count; i++) if (rows[i] !== offset + i) return -1;
  return offset;
}
