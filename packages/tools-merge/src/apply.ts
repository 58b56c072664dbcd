// apply(doc, ops): runs a diff on a copy of `doc`. Paths are checked as they are walked, so an
// op list that does not fit the document fails with a typed error naming the op, rather than
// writing somewhere unexpected.
import type { DiffOp, DiffOptions, JsonValue, Path, PathSegment } from './api.ts';
import { jsonClone } from './equal.ts';
import { ToolsMergeError } from './errors.ts';
import { checkIdKeys, elementId, idKindOf, type Id, type IdKind } from './id-array.ts';
import { isObject, ownSet } from './own.ts';

/** Applies `ops` (from `diff`, or hand-written) to a copy of `doc` and returns the copy. */
export function apply(doc: JsonValue, ops: readonly DiffOp[], options: DiffOptions = {}): JsonValue {
  const given: unknown = ops;
  if (!Array.isArray(given)) throw new ToolsMergeError('ops must be an array of diff operations');
  let root = jsonClone(doc);
  const states = new States(checkIdKeys(options.idKeys));
  let i = 0;
  while (i < ops.length) {
    const op = ops[i]!;
    if (op.op === 'splice') {
      // Splices of one array come together, ascending, against the original indices: run them
      // from the last so earlier indices stay valid.
      let j = i + 1;
      while (j < ops.length && ops[j]!.op === 'splice' && samePath(ops[j]!.path, op.path)) j++;
      const target = resolve(root, op.path, states, op);
      if (!Array.isArray(target)) fail(op, 'splice target is not an array');
      settle(target, states);
      for (let k = j - 1; k >= i; k--) {
        const s = ops[k] as Extract<DiffOp, { op: 'splice' }>;
        if (s.index < 0 || s.index + s.remove > target.length) fail(s, 'splice range is outside the array');
        target.splice(s.index, s.remove, ...s.insert.map(jsonClone));
      }
      states.delete(target);
      i = j;
      continue;
    }
    if (op.op === 'set') {
      if (op.path.length === 0) {
        root = jsonClone(op.value);
        states.clear();
      } else {
        const parent = resolve(root, op.path.slice(0, -1), states, op);
        setIn(parent, op.path[op.path.length - 1]!, op, states);
      }
    } else {
      const target = resolve(root, op.path, states, op);
      if (!Array.isArray(target)) fail(op, 'target is not an array');
      const state = stateOf(target, states);
      if (op.op === 'remove') {
        let at = state.index.get(op.id);
        if (at === undefined && state.pendingIds.has(op.id)) at = stateOf(settle(target, states), states).index.get(op.id);
        if (at === undefined) fail(op, `no element with id ${JSON.stringify(op.id)}`);
        const current = states.get(target)!;
        target[at] = REMOVED;
        current.index.delete(op.id);
        current.dirty = true;
      } else if (op.op === 'insert') {
        if (state.index.has(op.id) || state.pendingIds.has(op.id)) fail(op, `the array already has an element with id ${JSON.stringify(op.id)}`);
        if (op.after !== null && !state.index.has(op.after) && !state.pendingIds.has(op.after)) fail(op, `no element with id ${JSON.stringify(op.after)} to insert after`);
        let list = state.inserts.get(op.after);
        if (list === undefined) state.inserts.set(op.after, (list = []));
        list.push(jsonClone(op.value));
        state.pendingIds.add(op.id);
        state.dirty = true;
      } else {
        settle(target, states);
        const { kind } = stateOf(target, states);
        const order = new Map<Id, number>();
        op.ids.forEach((id: Id, n: number) => order.set(id, n));
        const keyed = target.map((e) => ({ e, n: order.get(idOf(e, kind)) ?? Number.MAX_SAFE_INTEGER }));
        keyed.sort((x, y) => x.n - y.n);
        for (let k = 0; k < keyed.length; k++) target[k] = keyed[k]!.e;
        states.delete(target);
      }
    }
    i++;
  }
  for (const array of [...states.keys()]) settle(array, states);
  return root;
}

// Removals and insertions by id are recorded, not spliced: removed slots hold REMOVED and
// insertions wait by their `after` id, so the id index stays valid across a whole op list and
// each array is rebuilt once (settle), instead of once per op.
const REMOVED = Object.freeze({ removed: true }) as JsonValue;

interface ArrayState {
  kind: IdKind;
  index: Map<Id, number>;
  inserts: Map<Id | null, JsonValue[]>;
  pendingIds: Set<Id>;
  dirty: boolean;
}
/** Per-array states of one apply call, and the id keys it runs with. */
class States extends Map<JsonValue[], ArrayState> {
  constructor(readonly idKeys: readonly string[]) {
    super();
  }
}

function stateOf(array: JsonValue[], states: States): ArrayState {
  let state = states.get(array);
  if (state === undefined) {
    const kind = idKindOf(array, states.idKeys);
    const index = new Map<Id, number>();
    if (kind !== 'none' && kind !== 'empty') for (let i = 0; i < array.length; i++) index.set(idOf(array[i]!, kind), i);
    state = { kind, index, inserts: new Map(), pendingIds: new Set(), dirty: false };
    states.set(array, state);
  }
  return state;
}

/** Carries out the recorded removals and insertions of `array` in place; returns it. */
function settle(array: JsonValue[], states: States): JsonValue[] {
  const state = states.get(array);
  if (state === undefined) return array;
  states.delete(array);
  if (!state.dirty) return array;
  const out: JsonValue[] = [];
  const stack: JsonValue[] = [];
  const emitAfter = (id: Id | null): void => {
    const list = state.inserts.get(id);
    if (list === undefined) return;
    for (let i = list.length - 1; i >= 0; i--) stack.push(list[i]!);
    while (stack.length > 0) {
      const e = stack.pop()!;
      out.push(e);
      const kind = state.kind === 'empty' || state.kind === 'none' ? idKindOf([e], states.idKeys) : state.kind;
      const more = kind === 'none' || kind === 'empty' ? undefined : state.inserts.get(idOf(e, kind));
      if (more !== undefined) for (let i = more.length - 1; i >= 0; i--) stack.push(more[i]!);
    }
  };
  emitAfter(null);
  for (let i = 0; i < array.length; i++) {
    const e = array[i]!;
    if (e === REMOVED) continue;
    out.push(e);
    if (state.kind !== 'none' && state.kind !== 'empty') emitAfter(idOf(e, state.kind));
  }
  array.length = 0;
  for (let i = 0; i < out.length; i++) array.push(out[i]!);
  return array;
}

function samePath(a: Path, b: Path): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (typeof x === 'object' && typeof y === 'object') {
      if (x.id !== y.id) return false;
    } else if (x !== y) {
      return false;
    }
  }
  return true;
}

function fail(op: DiffOp, what: string): never {
  throw new ToolsMergeError(`cannot apply ${op.op} at ${formatPath(op.path)}: ${what}; was the op list made for another document?`);
}

/** A readable path: `units.{id:"a"}.position[2]`. */
export function formatPath(path: Path): string {
  if (path.length === 0) return '(root)';
  let s = '';
  for (const seg of path) {
    if (typeof seg === 'number') s += `[${seg}]`;
    else if (typeof seg === 'string') s += (s.length > 0 ? '.' : '') + (/^[A-Za-z_][A-Za-z0-9_]*$/.test(seg) ? seg : JSON.stringify(seg));
    else s += `[id=${JSON.stringify(seg.id)}]`;
  }
  return s;
}

function idOf(e: JsonValue, kind: IdKind): Id {
  return elementId(e, kind);
}

/** Index of the element with `id`, settling pending insertions if that is where it is. */
function findId(array: JsonValue[], id: Id, states: States): number | undefined {
  const state = stateOf(array, states);
  const at = state.index.get(id);
  if (at !== undefined || !state.pendingIds.has(id)) return at;
  settle(array, states);
  return stateOf(array, states).index.get(id);
}

function step(node: JsonValue, seg: PathSegment, states: States, op: DiffOp): JsonValue {
  if (typeof seg === 'string') {
    if (!isObject(node) || !Object.hasOwn(node, seg)) fail(op, `no key ${JSON.stringify(seg)}`);
    return node[seg]!;
  }
  if (!Array.isArray(node)) fail(op, 'path runs into a non-array');
  if (typeof seg === 'number') {
    settle(node, states);
    if (seg < 0 || seg >= node.length) fail(op, `index ${seg} is outside the array`);
    return node[seg]!;
  }
  const at = findId(node, seg.id, states);
  if (at === undefined) fail(op, `no element with id ${JSON.stringify(seg.id)}`);
  return node[at]!;
}

function resolve(root: JsonValue, path: Path, states: States, op: DiffOp): JsonValue {
  let node = root;
  for (const seg of path) node = step(node, seg, states, op);
  return node;
}

function setIn(parent: JsonValue, seg: PathSegment, op: Extract<DiffOp, { op: 'set' }>, states: States): void {
  if (typeof seg === 'string') {
    if (!isObject(parent)) fail(op, 'parent is not an object');
    if (op.value === null && op.keepNull !== true) Reflect.deleteProperty(parent, seg);
    else ownSet(parent, seg, jsonClone(op.value));
    return;
  }
  if (!Array.isArray(parent)) fail(op, 'parent is not an array');
  // Replacing a whole element may change its id: settle first, then forget the index.
  settle(parent, states);
  let at: number | undefined;
  if (typeof seg === 'number') at = seg >= 0 && seg < parent.length ? seg : undefined;
  else at = findId(parent, seg.id, states);
  settle(parent, states);
  if (at === undefined) fail(op, 'no such element');
  parent[at] = jsonClone(op.value);
  states.delete(parent);
}
