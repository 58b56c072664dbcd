import { INVALID_ENTITY, type Entity } from './api.ts';
import { EntityLookup } from './entity-lookup.ts';
import { EcsError } from './errors.ts';

/**
 * The post's ComponentManager: components and their entities in parallel linear arrays, plus
 * an entity-to-index lookup. This base class owns the entity array and the lookup and keeps
 * them in step; the two subclasses own the component storage (typed-array columns for schema
 * components, an object array for factory components) and move rows when told to.
 */
export abstract class ComponentManager {
  #entities = new Uint32Array(0);
  #count = 0;
  #lookup = new EntityLookup();
  #structureVersion = 0;

  /** What kind of storage this manager uses: `'schema'` or `'object'`. */
  abstract readonly kind: 'schema' | 'object';

  /** Components (and entities) held. */
  get count(): number {
    return this.#count;
  }

  /** Allocated rows; grows geometrically. */
  get capacity(): number {
    return this.#entities.length;
  }

  /**
   * The entity of each row, `count` of them valid. For hot loops; it is replaced on growth,
   * so read it again after anything that adds components.
   */
  get entities(): Uint32Array {
    return this.#entities;
  }

  /** Bumped by every change of which entity sits in which row; caches (Join) compare it. */
  get structureVersion(): number {
    return this.#structureVersion;
  }

  /** Whether `entity` has a component in this manager. */
  contains(entity: Entity): boolean {
    return this.#lookup.get(entity) !== -1;
  }

  /** Row of `entity`'s component, or -1 when it has none: the post's GetComponent. */
  indexOf(entity: Entity): number {
    return this.#lookup.get(entity);
  }

  /** The entity whose component is at `index`. */
  getEntity(index: number): Entity {
    this.#checkIndex(index, 'getEntity');
    return this.#entities[index]!;
  }

  /** Removes `entity`'s component by moving the last one into its row. Returns whether it had one. */
  remove(entity: Entity): boolean {
    const index = this.#lookup.get(entity);
    if (index === -1) return false;
    const last = this.#count - 1;
    if (index < last) {
      const moved = this.#entities[last]!;
      this.copyRow(last, index);
      this.#entities[index] = moved;
      this.#lookup.set(moved, index);
    }
    this.releaseRows(last, last + 1);
    this.#lookup.delete(entity);
    this.#count = last;
    this.#structureVersion++;
    return true;
  }

  /** Removes `entity`'s component and shifts the later ones left by one, keeping their order. */
  removeKeepSorted(entity: Entity): boolean {
    const index = this.#lookup.get(entity);
    if (index === -1) return false;
    const count = this.#count;
    this.moveRows(index, index + 1, count);
    const entities = this.#entities;
    entities.copyWithin(index, index + 1, count);
    for (let i = index; i < count - 1; i++) this.#lookup.set(entities[i]!, i);
    this.releaseRows(count - 1, count);
    this.#lookup.delete(entity);
    this.#count = count - 1;
    this.#structureVersion++;
    return true;
  }

  /**
   * Removes the components of every listed entity that has one in a single pass that keeps
   * the order of the rest: O(count) instead of O(count) per entity.
   */
  removeManyKeepSorted(entities: ArrayLike<Entity>): number {
    let first = this.#count;
    const marked = new EntityLookup(entities.length);
    for (let i = 0; i < entities.length; i++) {
      const index = this.#lookup.get(entities[i]!);
      if (index === -1) continue;
      marked.set(entities[i]!, index);
      if (index < first) first = index;
    }
    if (marked.size === 0) return 0;
    const list = this.#entities;
    let write = first;
    for (let read = first; read < this.#count; read++) {
      const entity = list[read]!;
      if (marked.get(entity) !== -1) {
        this.#lookup.delete(entity);
        continue;
      }
      if (write !== read) {
        this.copyRow(read, write);
        list[write] = entity;
        this.#lookup.set(entity, write);
      }
      write++;
    }
    this.releaseRows(write, this.#count);
    this.#count = write;
    this.#structureVersion++;
    return marked.size;
  }

  /** Moves the row at `from` to `to`, shifting the rows between by one: the post's MoveItem. */
  moveItem(from: number, to: number): void {
    this.#checkIndex(from, 'moveItem');
    this.#checkIndex(to, 'moveItem');
    if (from === to) return;
    const entities = this.#entities;
    const moved = entities[from]!;
    this.stashRow(from);
    if (from < to) {
      this.moveRows(from, from + 1, to + 1);
      entities.copyWithin(from, from + 1, to + 1);
      for (let i = from; i < to; i++) this.#lookup.set(entities[i]!, i);
    } else {
      this.moveRows(to + 1, to, from);
      entities.copyWithin(to + 1, to, from);
      for (let i = to + 1; i <= from; i++) this.#lookup.set(entities[i]!, i);
    }
    this.unstashRow(to);
    entities[to] = moved;
    this.#lookup.set(moved, to);
    this.#structureVersion++;
  }

  /**
   * Reorders the rows from `start` to the end: afterwards row `start + k` holds what row
   * `order[k]` held. `order` must be a permutation of [start, count).
   */
  permuteTail(start: number, order: ArrayLike<number>): void {
    const count = this.#count;
    if (!Number.isInteger(start) || start < 0 || start > count || order.length !== count - start) {
      throw new EcsError(`permuteTail needs start in [0, ${count}] and ${count - start} source rows, got start ${start} and ${order.length}.`);
    }
    if (order.length === 0) return;
    const seen = new Uint8Array(order.length);
    for (let k = 0; k < order.length; k++) {
      const source = order[k]! - start;
      if (!Number.isInteger(source) || source < 0 || source >= order.length || seen[source] === 1) {
        throw new EcsError(`permuteTail order must be a permutation of [${start}, ${count}); row ${order[k]} is out of range or repeated.`);
      }
      seen[source] = 1;
    }
    this.gatherRows(start, order);
    const entities = this.#entities;
    const saved = entities.slice(start, count);
    for (let k = 0; k < order.length; k++) {
      const entity = saved[order[k]! - start]!;
      entities[start + k] = entity;
      this.#lookup.set(entity, start + k);
    }
    this.#structureVersion++;
  }

  /** Removes the components in rows [count, this.count), newest first: undoes appends. */
  truncate(count: number): void {
    if (!Number.isInteger(count) || count < 0 || count > this.#count) throw new EcsError(`truncate needs a count in [0, ${this.#count}], got ${count}.`);
    if (count === this.#count) return;
    for (let i = count; i < this.#count; i++) this.#lookup.delete(this.#entities[i]!);
    this.releaseRows(count, this.#count);
    this.#count = count;
    this.#structureVersion++;
  }

  /** Removes every component. Capacity is kept. */
  clear(): void {
    this.releaseRows(0, this.#count);
    this.#lookup.clear();
    this.#count = 0;
    this.#structureVersion++;
  }

  /** Makes room for `capacity` components so that creating them allocates nothing. */
  reserve(capacity: number): void {
    if (!Number.isInteger(capacity) || capacity < 0) throw new EcsError(`reserve needs a non-negative integer, got ${capacity}.`);
    if (capacity <= this.#entities.length) return;
    const entities = new Uint32Array(capacity);
    entities.set(this.#entities.subarray(0, this.#count));
    this.#entities = entities;
    this.growStorage(capacity);
    this.#lookup.reserve(capacity);
  }

  /** Replaces this manager's contents with a copy of `other`'s (same schema or factory). */
  copy(other: this): void {
    this.checkCompatible(other);
    if (other === this) return;
    this.clear();
    this.#append(other, false);
  }

  /**
   * Moves all of `other`'s components to the end of this one and leaves `other` empty. Throws,
   * changing nothing, if an entity has a component in both.
   */
  merge(other: this): void {
    this.checkCompatible(other);
    if (other === this) throw new EcsError('merge needs two different managers.');
    const list = other.#entities;
    for (let i = 0; i < other.#count; i++) {
      if (this.#lookup.get(list[i]!) !== -1) throw new EcsError(`merge: entity ${list[i]} has a component in both managers; remove it from one first.`);
    }
    this.#append(other, true);
    other.clear();
  }

  /**
   * Appends rows for many entities at once and returns the first new row; subclasses fill
   * the rows. Throws, changing nothing, on an invalid, present or repeated entity.
   */
  protected addRows(entities: ArrayLike<Entity>): number {
    const start = this.#count;
    const added = entities.length;
    if (start + added > this.#entities.length) this.reserve(Math.max(start + added, this.#entities.length * 2));
    const lookup = this.#lookup;
    for (let i = 0; i < added; i++) {
      const entity = entities[i]!;
      if ((entity >>> 0) !== entity || entity === INVALID_ENTITY || !lookup.insertNew(entity, start + i)) {
        for (let k = 0; k < i; k++) lookup.delete(entities[k]!);
        throw new EcsError(`entity ${String(entity)} is invalid or already has a component in this manager (or is listed twice).`);
      }
      this.#entities[start + i] = entity;
    }
    this.#count = start + added;
    this.#structureVersion++;
    return start;
  }

  /** Appends a component row for `entity`, growing storage; subclasses initialize the row. */
  protected addRow(entity: Entity): number {
    if ((entity >>> 0) !== entity || entity === INVALID_ENTITY) {
      throw new EcsError(`create needs a valid entity (a non-zero u32), got ${String(entity)}.`);
    }
    const index = this.#count;
    if (!this.#lookup.insertNew(entity, index)) {
      throw new EcsError(`entity ${entity} already has a component in this manager; an entity holds at most one of each type.`);
    }
    if (index === this.#entities.length) this.reserve(Math.max(16, index * 2));
    this.#entities[index] = entity;
    this.#count = index + 1;
    this.#structureVersion++;
    return index;
  }

  #append(other: this, move: boolean): void {
    const start = this.#count;
    const added = other.#count;
    if (start + added > this.#entities.length) this.reserve(Math.max(start + added, this.#entities.length * 2));
    this.appendRows(other, added, move);
    this.#entities.set(other.#entities.subarray(0, added), start);
    for (let i = 0; i < added; i++) this.#lookup.set(this.#entities[start + i]!, start + i);
    this.#count = start + added;
    this.#structureVersion++;
  }

  #checkIndex(index: number, what: string): void {
    if (!Number.isInteger(index) || index < 0 || index >= this.#count) {
      throw new EcsError(`${what}: index ${index} is out of range [0, ${this.#count}).`);
    }
  }

  /** Storage grows to `capacity` rows, keeping the first `count`. */
  protected abstract growStorage(capacity: number): void;
  /** Copies row `from` over row `to`. */
  protected abstract copyRow(from: number, to: number): void;
  /** Copies rows [start, end) to `target` like `copyWithin`. */
  protected abstract moveRows(target: number, start: number, end: number): void;
  /** Saves row `index` aside for `unstashRow` (MoveItem). */
  protected abstract stashRow(index: number): void;
  /** Puts the row saved by `stashRow` into row `index`. */
  protected abstract unstashRow(index: number): void;
  /** Rows [start, count) become the old rows `order[k]`. */
  protected abstract gatherRows(start: number, order: ArrayLike<number>): void;
  /** Rows [start, end) are no longer in use. */
  protected abstract releaseRows(start: number, end: number): void;
  /** Appends `other`'s first `count` rows after this manager's `count` (capacity is ready). */
  protected abstract appendRows(other: this, count: number, move: boolean): void;
  /** Throws an EcsError unless `other` stores the same component type. */
  protected abstract checkCompatible(other: this): void;
}
