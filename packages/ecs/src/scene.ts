import { INVALID_ENTITY, type Entity } from './api.ts';
import { ComponentLibrary } from './component-library.ts';
import { EcsError } from './errors.ts';
import { createHierarchyManager, updateHierarchy, updateHierarchyRows, type HierarchyManager } from './hierarchy.ts';
import { decomposeMatrix, identity, invertMatrix } from './math.ts';
import { loadLibrary, saveLibrary, type LoadOptions, type LoadResult } from './serialize.ts';
import { createTransformManager, updateTransforms, type TransformManager } from './transform.ts';

/** Options of {@link Scene}'s constructor. */
export interface SceneOptions {
  /** Library to register the managers in; a new one when left out. */
  library?: ComponentLibrary;
  /** Seed of a new library's entity generator. */
  seed?: number;
}

/** Local transform values for `Scene.createTransform`. */
export interface TransformInit {
  /** Local position x, y, z (default 0, 0, 0). */
  position?: readonly [number, number, number];
  /** Local rotation as a unit quaternion x, y, z, w (default 0, 0, 0, 1). */
  rotation?: readonly [number, number, number, number];
  /** Local scale x, y, z (default 1, 1, 1). */
  scale?: readonly [number, number, number];
}

/**
 * The post's scene graph: a 'transform' and a 'hierarchy' manager in a component library,
 * attach/detach keeping parents before children, and the two update systems.
 */
export class Scene {
  /** The library holding the scene's managers (registered as `'transform'` and `'hierarchy'`). */
  readonly library: ComponentLibrary;
  /** The `'transform'` manager. */
  readonly transforms: TransformManager;
  /** The `'hierarchy'` manager: parents and child links. */
  readonly hierarchy: HierarchyManager;
  #walk = new Uint32Array(64);

  constructor(options: SceneOptions = {}) {
    this.library = options.library ?? new ComponentLibrary(options.seed === undefined ? {} : { seed: options.seed });
    this.transforms = this.library.register('transform', createTransformManager());
    this.hierarchy = this.library.register('hierarchy', createHierarchyManager(), {
      ordered: true,
      remove: (entity) => {
        this.#removeFromHierarchy(entity);
      },
    });
  }

  /** A new unique entity, without components. */
  createEntity(): Entity {
    return this.library.createEntity();
  }

  /** A new entity with a transform; returns the entity. */
  createNode(init: TransformInit = {}): Entity {
    const entity = this.library.createEntity();
    this.createTransform(entity, init);
    return entity;
  }

  /** Adds a transform to `entity` with the given locals; returns its row. */
  createTransform(entity: Entity, init: TransformInit = {}): number {
    const index = this.transforms.create(entity);
    const { position, rotation, scale } = this.transforms.fields;
    if (init.position) position.set(init.position, index * 3);
    if (init.rotation) rotation.set(init.rotation, index * 4);
    if (init.scale) scale.set(init.scale, index * 3);
    return index;
  }

  /** The parent of `entity`, or INVALID_ENTITY. */
  parentOf(entity: Entity): Entity {
    const index = this.hierarchy.indexOf(entity);
    return index === -1 ? INVALID_ENTITY : this.hierarchy.fields.parent[index]!;
  }

  /** The direct children of `entity` (most recently attached first). Allocates: not for hot loops. */
  childrenOf(entity: Entity): Entity[] {
    const out: Entity[] = [];
    const { firstChild, nextSibling } = this.hierarchy.fields;
    const index = this.hierarchy.indexOf(entity);
    let child = index === -1 ? INVALID_ENTITY : firstChild[index]!;
    while (child !== INVALID_ENTITY) {
      out.push(child);
      child = nextSibling[this.hierarchy.indexOf(child)]!;
    }
    return out;
  }

  /** `entity` and all its descendants, parents before children. */
  subtreeOf(entity: Entity): Uint32Array {
    this.#checkEntity(entity, 'subtreeOf');
    return this.#collectSubtree(entity).slice();
  }

  /**
   * Makes `entity` a child of `parent`, as in the post: it is detached first, both get a
   * transform if they lack one, and the parent's current inverse world is stored so the child
   * stays where it is. Costs O(depth) when `entity`'s row already follows `parent`'s (always
   * true for a childless entity); otherwise the rows from `entity`'s onwards are partitioned
   * once, moving its subtree after the parent: O(rows after it), never O(rows x depth).
   */
  attach(entity: Entity, parent: Entity): void {
    this.#checkEntity(entity, 'attach');
    this.#checkEntity(parent, 'attach');
    if (entity === parent) throw new EcsError(`attach: entity ${entity} cannot be its own parent.`);
    const h = this.hierarchy;
    for (let up = parent; up !== INVALID_ENTITY; ) {
      if (up === entity) throw new EcsError(`attach: ${parent} is a descendant of ${entity}; attaching would make a cycle. Detach it first.`);
      const index = h.indexOf(up);
      up = index === -1 ? INVALID_ENTITY : h.fields.parent[index]!;
    }
    this.detach(entity);
    if (!this.transforms.contains(entity)) this.transforms.create(entity);
    if (!this.transforms.contains(parent)) this.transforms.create(parent);
    if (!h.contains(parent)) h.create(parent);
    let index = h.indexOf(entity);
    if (index === -1) {
      index = h.create(entity);
    } else if (index < h.indexOf(parent)) {
      this.#moveSubtreeToEnd(entity, index);
    }
    this.#link(entity, parent);
    const row = h.indexOf(entity);
    const parentTransform = this.transforms.indexOf(parent);
    invertMatrix(h.fields.worldParentInverseBind, row * 16, this.transforms.fields.world, parentTransform * 16);
    // Its world is now parent x bind x local: the next update recomputes it (and its subtree).
    this.transforms.fields.dirty[this.transforms.indexOf(entity)] = 1;
  }

  /**
   * Detaches `entity` from its parent, baking its current world matrix into its local
   * position, rotation and scale (the post's ApplyTransform). Its own children stay attached.
   */
  detach(entity: Entity): void {
    this.#checkEntity(entity, 'detach');
    const h = this.hierarchy;
    const index = h.indexOf(entity);
    if (index === -1 || h.fields.parent[index] === INVALID_ENTITY) return;
    const t = this.transforms.indexOf(entity);
    if (t !== -1) {
      const { position, rotation, scale, world, dirty } = this.transforms.fields;
      decomposeMatrix(world, t * 16, position, t * 3, rotation, t * 4, scale, t * 3);
      dirty[t] = 1;
    }
    const parent = h.fields.parent[index]!;
    this.#unlink(entity);
    this.#dropIfIsolated(entity);
    this.#dropIfIsolated(parent);
  }

  /**
   * Removes `entity` from every manager of the library. With `recursive`, its descendants go
   * too; otherwise its children are detached first (keeping their world placement).
   */
  removeEntity(entity: Entity, options: { recursive?: boolean } = {}): void {
    this.#checkEntity(entity, 'removeEntity');
    if (options.recursive !== true || !this.hierarchy.contains(entity)) {
      this.library.removeEntity(entity);
      return;
    }
    const subtree = this.#collectSubtree(entity).slice();
    const parent = this.parentOf(entity);
    if (parent !== INVALID_ENTITY) this.#unlink(entity);
    this.hierarchy.removeManyKeepSorted(subtree);
    if (parent !== INVALID_ENTITY) this.#dropIfIsolated(parent);
    for (const entry of this.library.entries) {
      if (entry.manager === this.hierarchy) continue;
      for (let i = 0; i < subtree.length; i++) {
        const e = subtree[i]!;
        if (entry.remove !== undefined) entry.remove(e);
        else if (entry.ordered) entry.manager.removeKeepSorted(e);
        else entry.manager.remove(e);
      }
    }
  }

  /**
   * Runs the transform update system, then the hierarchy update system. When few transforms are
   * dirty (an eighth or fewer), only the subtrees under them are recomputed, in the same order
   * and with the same arithmetic as the full pass: moving one unit of a large level costs its
   * subtree, not the level. With none dirty, nothing has moved and nothing runs.
   */
  update(): void {
    const t = this.transforms;
    const dirty = t.fields.dirty;
    const count = t.count;
    // One pass: the dirty rows, or the full update as soon as there are more than an eighth.
    const limit = count >> 3;
    let rows = this.#dirtyRows;
    if (rows.length <= limit) rows = this.#dirtyRows = new Int32Array(2 * limit + 1);
    let n = 0;
    for (let i = 0; i < count; i++) {
      if (dirty[i] === 0) continue;
      if (n === limit) {
        updateTransforms(t);
        updateHierarchy(this.hierarchy, t);
        return;
      }
      rows[n++] = i;
    }
    if (n === 0) return;
    // Their hierarchy rows, sorted: parents come before their children.
    const h = this.hierarchy;
    const entities = t.entities;
    let inHierarchy = 0;
    for (let k = 0; k < n; k++) {
      const row = h.indexOf(entities[rows[k]!]!);
      if (row !== -1) rows[inHierarchy++] = row;
    }
    n = inHierarchy;
    updateTransforms(t);
    const sorted = rows.subarray(0, n).sort();
    if (this.#done.length < h.count) this.#done = new Uint8Array(h.count * 2);
    const done = this.#done;
    let visited = 0;
    for (let k = 0; k < n; k++) {
      if (done[sorted[k]!] !== 0) continue; // inside a subtree already listed
      // Breadth-first from the dirty entity: every parent is listed before its children. A later
      // subtree never holds a row listed before (it would be inside the earlier one).
      const subtree = this.#collectSubtree(h.entities[sorted[k]!]!);
      for (let j = 0; j < subtree.length; j++) {
        const row = h.indexOf(subtree[j]!);
        done[row] = 1;
        this.#visited = pushRow(this.#visited, visited++, row);
      }
    }
    updateHierarchyRows(h, t, this.#visited, visited);
    for (let j = 0; j < visited; j++) done[this.#visited[j]!] = 0;
  }

  /** The dirty transforms' rows, then their hierarchy rows (update's scratch). */
  #dirtyRows = new Int32Array(64);
  /** Per hierarchy row, 1 once update recomputed it (cleared before update returns). */
  #done = new Uint8Array(64);
  #visited = new Int32Array(64);

  /** Saves `entity` and its descendants (every saveable component type) to an archive. */
  saveEntityTree(entity: Entity): ArrayBuffer {
    this.#checkEntity(entity, 'saveEntityTree');
    const subtree = this.hierarchy.contains(entity) ? this.#collectSubtree(entity).slice() : Uint32Array.of(entity);
    return saveLibrary(this.library, { entities: subtree, root: entity });
  }

  /** Loads an archive from `saveEntityTree` as a new copy; returns the copy's root entity. */
  loadEntityTree(archive: ArrayBuffer | Uint8Array, options: LoadOptions = {}): LoadResult {
    return loadLibrary(this.library, archive, options);
  }

  #checkEntity(entity: Entity, what: string): void {
    if ((entity >>> 0) !== entity || entity === INVALID_ENTITY) throw new EcsError(`${what} needs a valid entity (a non-zero u32), got ${String(entity)}.`);
  }

  /** Walks the child links from `root`, parents first; the result is valid until the next call. */
  #collectSubtree(root: Entity): Uint32Array {
    const h = this.hierarchy;
    const { firstChild, nextSibling } = h.fields;
    let out = this.#walk;
    let n = 0;
    out[n++] = root;
    // The output doubles as a queue: breadth-first keeps every parent before its children.
    for (let read = 0; read < n; read++) {
      const index = h.indexOf(out[read]!);
      let child = index === -1 ? INVALID_ENTITY : firstChild[index]!;
      while (child !== INVALID_ENTITY) {
        if (n === out.length) {
          const grown = new Uint32Array(out.length * 2);
          grown.set(out);
          out = grown;
          this.#walk = grown;
        }
        out[n++] = child;
        child = nextSibling[h.indexOf(child)]!;
      }
    }
    return out.subarray(0, n);
  }

  /** Stable partition of rows [start, count): rows outside `root`'s subtree first, then the subtree. */
  #moveSubtreeToEnd(root: Entity, start: number): void {
    const h = this.hierarchy;
    const subtree = this.#collectSubtree(root);
    const span = h.count - start;
    const inSubtree = new Uint8Array(span);
    for (let k = 0; k < subtree.length; k++) inSubtree[h.indexOf(subtree[k]!) - start] = 1;
    const order = new Int32Array(span);
    let write = 0;
    for (let k = 0; k < span; k++) if (inSubtree[k] === 0) order[write++] = start + k;
    for (let k = 0; k < span; k++) if (inSubtree[k] === 1) order[write++] = start + k;
    h.permuteTail(start, order);
  }

  #link(child: Entity, parent: Entity): void {
    const h = this.hierarchy;
    const { parent: parents, firstChild, nextSibling, prevSibling } = h.fields;
    const c = h.indexOf(child);
    const p = h.indexOf(parent);
    const head = firstChild[p]!;
    parents[c] = parent;
    prevSibling[c] = INVALID_ENTITY;
    nextSibling[c] = head;
    if (head !== INVALID_ENTITY) prevSibling[h.indexOf(head)] = child;
    firstChild[p] = child;
  }

  #unlink(child: Entity): void {
    const h = this.hierarchy;
    const { parent: parents, firstChild, nextSibling, prevSibling, worldParentInverseBind } = h.fields;
    const c = h.indexOf(child);
    const parent = parents[c]!;
    const prev = prevSibling[c]!;
    const next = nextSibling[c]!;
    if (prev !== INVALID_ENTITY) nextSibling[h.indexOf(prev)] = next;
    else firstChild[h.indexOf(parent)] = next;
    if (next !== INVALID_ENTITY) prevSibling[h.indexOf(next)] = prev;
    parents[c] = INVALID_ENTITY;
    prevSibling[c] = INVALID_ENTITY;
    nextSibling[c] = INVALID_ENTITY;
    identity(worldParentInverseBind, c * 16);
  }

  /** Removes a hierarchy row that has neither parent nor children (post's Remove_KeepSorted). */
  #dropIfIsolated(entity: Entity): void {
    const h = this.hierarchy;
    const index = h.indexOf(entity);
    if (index !== -1 && h.fields.parent[index] === INVALID_ENTITY && h.fields.firstChild[index] === INVALID_ENTITY) h.removeKeepSorted(entity);
  }

  /** Library removal hook: detach the entity's children and the entity, then drop its row. */
  #removeFromHierarchy(entity: Entity): void {
    const h = this.hierarchy;
    let index = h.indexOf(entity);
    if (index === -1) return;
    for (let child = h.fields.firstChild[index]!; child !== INVALID_ENTITY; child = h.fields.firstChild[index]!) {
      this.detach(child);
      index = h.indexOf(entity);
      if (index === -1) return;
    }
    this.detach(entity);
    h.removeKeepSorted(entity);
  }
}

/** `rows` with `row` at `at`, grown (doubled) when full. */
function pushRow(rows: Int32Array<ArrayBuffer>, at: number, row: number): Int32Array<ArrayBuffer> {
  if (at === rows.length) {
    const grown = new Int32Array(rows.length * 2);
    grown.set(rows);
    rows = grown;
  }
  rows[at] = row;
  return rows;
}
