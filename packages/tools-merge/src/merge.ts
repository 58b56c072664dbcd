// The 3-way merge of the post: changes from both sides combine; where both sides changed the
// same key of the same object differently, one side wins (the right, by default) and the losing
// change is reported, so nothing disappears silently. Objects merge key by key, id arrays merge
// by id, number arrays of one length (vectors, colours, quaternions) merge index by index, other
// arrays merge hunk by hunk from a Myers sequence diff (diff3-style).
import type { JsonObject, JsonValue, MergeConflict, MergeOptions, MergePolicy, MergeResult, Path } from './api.ts';
import { jsonEqual } from './equal.ts';
import { ToolsMergeError } from './errors.ts';
import { checkIdKeys, commonIdKind, indexById, keepsOrder, type Id, type IdKind } from './id-array.ts';
import { isObject, ownGet, ownSet } from './own.ts';
import { diffSequence, TokenTable, type Hunk } from './sequence-diff.ts';

interface Context {
  policy: MergePolicy;
  idKeys: readonly string[];
  conflicts: MergeConflict[];
}

/**
 * Merges the changes `left` and `right` made to `base`. The result shares unchanged subtrees
 * with the inputs (clone it before mutating). Never throws on valid JSON values.
 */
export function merge(base: JsonValue, left: JsonValue, right: JsonValue, options: MergeOptions = {}): MergeResult {
  const policy = options.policy ?? 'right';
  if ((policy as string) !== 'right' && (policy as string) !== 'left') {
    throw new ToolsMergeError(`policy must be 'right' or 'left', got ${JSON.stringify(policy)}`);
  }
  const ctx: Context = { policy, idKeys: checkIdKeys(options.idKeys), conflicts: [] };
  const merged = merge3(base, left, right, [], ctx);
  return { merged: merged === undefined ? null : merged, conflicts: ctx.conflicts };
}

type Maybe = JsonValue | undefined;

function conflict(b: Maybe, l: Maybe, r: Maybe, path: Path, ctx: Context, reason: string): Maybe {
  ctx.conflicts.push({ path: path.slice(), base: b, left: l, right: r, winner: ctx.policy, reason });
  return ctx.policy === 'right' ? r : l;
}

function merge3(b: Maybe, l: Maybe, r: Maybe, path: Path, ctx: Context): Maybe {
  if (jsonEqual(l, r)) return l;
  if (jsonEqual(l, b)) return r;
  if (jsonEqual(r, b)) return l;
  if (isObject(l) && isObject(r)) return mergeObjects(isObject(b) ? b : {}, l, r, path, ctx);
  if (Array.isArray(l) && Array.isArray(r)) return mergeArrays(Array.isArray(b) ? b : [], l, r, path, ctx);
  const reason = l === undefined || r === undefined ? 'removed on one side, changed on the other' : b === undefined ? 'both added different values' : 'both changed';
  return conflict(b, l, r, path, ctx, reason);
}

function mergeObjects(b: JsonObject, l: JsonObject, r: JsonObject, path: Path, ctx: Context): JsonObject {
  const out: JsonObject = {};
  // The winner's key order first, then the other side's new keys.
  const first = ctx.policy === 'right' ? r : l;
  const second = ctx.policy === 'right' ? l : r;
  const firstKeys = Object.keys(first);
  const secondKeys = Object.keys(second);
  const depth = path.length;
  for (let pass = 0; pass < 2; pass++) {
    const keys = pass === 0 ? firstKeys : secondKeys;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (pass === 1 && Object.hasOwn(first, key)) continue;
      path.push(key);
      const value = merge3(ownGet(b, key), ownGet(l, key), ownGet(r, key), path, ctx);
      path.length = depth;
      if (value !== undefined) ownSet(out, key, value);
    }
  }
  return out;
}

function mergeArrays(b: JsonValue[], l: JsonValue[], r: JsonValue[], path: Path, ctx: Context): JsonValue[] {
  const kind = commonIdKind(ctx.idKeys, b, l, r);
  if (kind !== 'none' && kind !== 'empty') return mergeIdArrays(b, l, r, kind, path, ctx);
  if (isNumberTuple(b, l, r)) return mergeByIndex(b, l, r, path, ctx);
  return mergeSequences(b, l, r, path, ctx);
}

/** Numbers only, one length on all three sides: a vector, a colour, a quaternion, a matrix. */
function isNumberTuple(b: JsonValue[], l: JsonValue[], r: JsonValue[]): boolean {
  const n = b.length;
  if (l.length !== n || r.length !== n) return false;
  for (let i = 0; i < n; i++) {
    if (typeof b[i] !== 'number' || typeof l[i] !== 'number' || typeof r[i] !== 'number') return false;
  }
  return true;
}

/**
 * A number at a fixed position is a component, not a list element: a sequence diff matches equal
 * values wherever they are, so a recoloured [1 0.7 0.4] -> [0.35 0.6 1] reads as "insert two, keep
 * the 1, remove two", which silently drops or splices components. Index by index, each component
 * is the side that changed it, or a reported conflict.
 */
function mergeByIndex(b: JsonValue[], l: JsonValue[], r: JsonValue[], path: Path, ctx: Context): JsonValue[] {
  const out: JsonValue[] = new Array<JsonValue>(b.length);
  const depth = path.length;
  for (let i = 0; i < b.length; i++) {
    path.push(i);
    out[i] = merge3(b[i], l[i], r[i], path, ctx)!;
    path.length = depth;
  }
  return out;
}

function mergeIdArrays(b: JsonValue[], l: JsonValue[], r: JsonValue[], kind: IdKind, path: Path, ctx: Context): JsonValue[] {
  const bm = indexById(b, kind);
  const lm = indexById(l, kind);
  const rm = indexById(r, kind);
  const depth = path.length;
  // Decide every id's fate and merged value.
  const kept = new Map<Id, JsonValue>();
  const decide = (id: Id): void => {
    if (kept.has(id)) return;
    path.push({ id });
    const value = merge3(bm.get(id), lm.get(id), rm.get(id), path, ctx);
    path.length = depth;
    if (value !== undefined) kept.set(id, value);
  };
  for (const id of lm.keys()) decide(id);
  for (const id of rm.keys()) decide(id);
  // Ids deleted on both sides are simply gone; deleted on one side and changed on the other
  // went through merge3 above, which reported the loser.

  // Order: the side that reordered its shared ids (the winner if both did) is the skeleton; the
  // other side's extra ids slot in after their nearest preceding neighbour.
  const lKeeps = keepsOrder(bm, lm);
  const rKeeps = keepsOrder(bm, rm);
  let skeleton = rm;
  let other = lm;
  if ((!lKeeps && rKeeps) || (!lKeeps && !rKeeps && ctx.policy === 'left') || (lKeeps && rKeeps && ctx.policy === 'left')) {
    skeleton = lm;
    other = rm;
  }
  const attached = new Map<Id | null, Id[]>();
  const placed = new Set<Id>();
  for (const id of skeleton.keys()) if (kept.has(id)) placed.add(id);
  // Each kept id not yet placed hangs after the kept id that precedes it in `order`.
  const attach = (order: Iterable<Id>): void => {
    let anchor: Id | null = null;
    for (const id of order) {
      if (!kept.has(id)) continue;
      if (!placed.has(id)) {
        let list = attached.get(anchor);
        if (list === undefined) attached.set(anchor, (list = []));
        list.push(id);
        placed.add(id);
      }
      anchor = id;
    }
  };
  attach(other.keys());
  // Ids kept only through the base (a policy resurrecting a removal) follow the base order.
  attach(bm.keys());
  const out: JsonValue[] = [];
  const stack: Id[] = [];
  const emitAttached = (from: Id | null): void => {
    const list = attached.get(from);
    if (list === undefined) return;
    for (let i = list.length - 1; i >= 0; i--) stack.push(list[i]!);
    while (stack.length > 0) {
      const id = stack.pop()!;
      out.push(kept.get(id)!);
      const more = attached.get(id);
      if (more !== undefined) for (let i = more.length - 1; i >= 0; i--) stack.push(more[i]!);
    }
  };
  emitAttached(null);
  for (const id of skeleton.keys()) {
    if (!kept.has(id)) continue;
    out.push(kept.get(id)!);
    emitAttached(id);
  }
  return out;
}

/** Left and right hunks against the base, merged diff3-style. */
function mergeSequences(b: JsonValue[], l: JsonValue[], r: JsonValue[], path: Path, ctx: Context): JsonValue[] {
  const table = new TokenTable();
  const bt = table.tokenize(b);
  const lh = diffSequence(bt, table.tokenize(l));
  const rh = diffSequence(bt, table.tokenize(r));
  const out: JsonValue[] = [];
  let li = 0;
  let ri = 0;
  let cursor = 0;
  const depth = path.length;
  while (li < lh.length || ri < rh.length) {
    // A group is a run of hunks of either side that overlap or touch (diff3's unstable chunk: no
    // base element both sides kept lies between them). Grouping only overlapping hunks let one
    // side's insertion next to a stretch both changed go through on its own, so the winner's
    // stretch landed beside the loser's insertion: a splice of both. Touching hunks still merge
    // cleanly when no two of different sides overlap.
    const group: Hunk[] = [];
    const fromLeft: boolean[] = [];
    let start = -1;
    let end = -1;
    let clash = false;
    let lastL: Hunk | undefined;
    let lastR: Hunk | undefined;
    for (;;) {
      const takeLeft = li < lh.length && (ri >= rh.length || before(lh[li]!, rh[ri]!));
      const h = takeLeft ? lh[li] : rh[ri];
      if (h === undefined || (group.length > 0 && h.aStart > end)) break;
      if (takeLeft) li++;
      else ri++;
      if (group.length === 0) start = h.aStart;
      // Hunks come in base order and a side's hunks are disjoint, so only the other side's
      // latest hunk can overlap this one.
      const other = takeLeft ? lastR : lastL;
      if (other !== undefined && overlaps(h, other.aStart, other.aEnd)) clash = true;
      if (takeLeft) lastL = h;
      else lastR = h;
      group.push(h);
      fromLeft.push(takeLeft);
      end = Math.max(end, h.aEnd);
    }
    for (let i = cursor; i < start; i++) out.push(b[i]!);
    if (!clash) {
      // Every hunk lands as its side wrote it, in base order (an insertion before a replacement at one spot).
      let at = start;
      for (let g = 0; g < group.length; g++) {
        const h = group[g]!;
        const side = fromLeft[g] ? l : r;
        for (let i = at; i < h.aStart; i++) out.push(b[i]!);
        for (let i = h.bStart; i < h.bEnd; i++) out.push(side[i]!);
        at = h.aEnd;
      }
      cursor = at;
      continue;
    }
    cursor = end;
    const groupL = group.filter((_, g) => fromLeft[g]);
    const groupR = group.filter((_, g) => !fromLeft[g]);
    const lv: JsonValue[] = [];
    const rv: JsonValue[] = [];
    pushVersion(lv, b, l, groupL, start, end);
    pushVersion(rv, b, r, groupR, start, end);
    if (jsonEqual(lv, rv)) {
      for (const v of lv) out.push(v);
    } else if (lv.length === end - start && rv.length === end - start) {
      // Both sides edited the same elements in place: merge them element by element (the
      // post's heuristic for arrays without ids).
      for (let i = 0; i < lv.length; i++) {
        path.push(start + i);
        const v = merge3(b[start + i], lv[i], rv[i], path, ctx);
        path.length = depth;
        if (v !== undefined) out.push(v);
      }
    } else if (start === 0 && end === b.length && b.length > 0) {
      // The stretch is the whole array (so lv is l and rv is r): report it as the array's conflict.
      const winner = conflict(b, l, r, path, ctx, 'both changed') as JsonValue[];
      for (const v of winner) out.push(v);
    } else {
      path.push(start);
      const winner = conflict(b.slice(start, end), lv, rv, path, ctx, 'both edited the same stretch of the array') as JsonValue[];
      path.length = depth;
      for (const v of winner) out.push(v);
    }
  }
  for (let i = cursor; i < b.length; i++) out.push(b[i]!);
  return out;
}

/** Does hunk `h` come first (by base start; an insertion before a replacement at the same spot)? */
function before(h: Hunk, g: Hunk): boolean {
  if (h.aStart !== g.aStart) return h.aStart < g.aStart;
  return h.aEnd - h.aStart <= g.aEnd - g.aStart;
}

/** Does `h` conflict with a group covering base [start, end)? Touching at an edge is fine, two insertions at one spot are not. */
function overlaps(h: Hunk, start: number, end: number): boolean {
  if (h.aStart < end && start < h.aEnd) return true;
  if (h.aStart === h.aEnd) return h.aStart > start && h.aStart < end || (h.aStart === start && start === end);
  return start === end && start > h.aStart && start < h.aEnd;
}

/** The side's content for base [start, end): base elements outside its hunks, hunk contents inside. */
function pushVersion(out: JsonValue[], b: JsonValue[], side: JsonValue[], hunks: Hunk[], start: number, end: number): void {
  let cursor = start;
  for (const h of hunks) {
    for (let i = cursor; i < h.aStart; i++) out.push(b[i]!);
    for (let i = h.bStart; i < h.bEnd; i++) out.push(side[i]!);
    cursor = h.aEnd;
  }
  for (let i = cursor; i < end; i++) out.push(b[i]!);
}
