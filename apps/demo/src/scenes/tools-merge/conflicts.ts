// Conflicts as a person resolves them: one per field. The merge reports a colour whose three
// components both sides changed as three conflicts (color[0], color[1], color[2]); a designer
// picks a colour, so those are grouped under the array's path. Picking a side writes that side's
// value of the whole field into the merged document with the package's own `apply`.
import { apply, formatPath, valueAt, type DiffOp, type JsonValue, type MergeConflict, type Path } from '@cuttle/tools-merge';
import { isLeafArray, isPlainObject } from './json.ts';

export type Side = 'A' | 'B';

export interface ConflictGroup {
  /** `formatPath` of `path`: the key choices are kept under. */
  key: string;
  path: Path;
  base: JsonValue | undefined;
  a: JsonValue | undefined;
  b: JsonValue | undefined;
  /** The merge's words for the first conflict in the group ('both changed', ...). */
  reason: string;
  /** The merge's conflicts inside this field (three for a colour whose r, g and b both changed). */
  conflicts: MergeConflict[];
  /** The side picked, or undefined while the conflict is open (the merge kept B's, the post's right side). */
  choice?: Side;
}

/** The field a conflict belongs to: its path, less indices into an array of plain values. */
function fieldPath(path: Path, docs: readonly JsonValue[]): Path {
  const out = path.slice();
  while (typeof out[out.length - 1] === 'number') {
    const parent = out.slice(0, -1);
    if (!docs.some((doc) => isLeafArray(valueAt(doc, parent)))) break;
    out.pop();
  }
  return out;
}

export function groupConflicts(conflicts: readonly MergeConflict[], base: JsonValue, a: JsonValue, b: JsonValue): ConflictGroup[] {
  const groups = new Map<string, ConflictGroup>();
  for (const c of conflicts) {
    const path = fieldPath(c.path, [base, a, b]);
    const key = formatPath(path);
    const known = groups.get(key);
    if (known) known.conflicts.push(c);
    else groups.set(key, { key, path, base: valueAt(base, path), a: valueAt(a, path), b: valueAt(b, path), reason: c.reason, conflicts: [c] });
  }
  return [...groups.values()];
}

/** True when `key` (a formatPath) is the group's field or inside it. */
export function inGroup(group: ConflictGroup, key: string): boolean {
  if (!key.startsWith(group.key)) return false;
  const next = key.charAt(group.key.length);
  return next === '' || next === '.' || next === '[';
}

const idOf = (element: JsonValue | undefined): string | number | undefined => {
  const id = isPlainObject(element) ? element.id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
};

/** The op that makes `path` in `doc` hold `value` (undefined: absent). */
function opFor(doc: JsonValue, path: Path, value: JsonValue | undefined, side: JsonValue): DiffOp | undefined {
  const current = valueAt(doc, path);
  if (path.length === 0) return value === undefined ? undefined : { op: 'set', path, value };
  const last = path[path.length - 1]!;
  const parent = path.slice(0, -1);
  if (typeof last === 'object') {
    // A whole unit: removed on one side, edited on the other.
    if (value === undefined) return current === undefined ? undefined : { op: 'remove', path: parent, id: last.id };
    if (current !== undefined) return { op: 'set', path, value };
    const siblings = valueAt(side, parent);
    const at = Array.isArray(siblings) ? siblings.findIndex((e) => idOf(e) === last.id) : -1;
    const before = at > 0 && Array.isArray(siblings) ? idOf(siblings[at - 1]) : undefined;
    const after = before !== undefined && valueAt(doc, [...parent, { id: before }]) !== undefined ? before : null;
    return { op: 'insert', path: parent, id: last.id, after, value };
  }
  if (value === undefined) return current === undefined || typeof last === 'number' ? undefined : { op: 'set', path, value: null };
  return value === null ? { op: 'set', path, value, keepNull: true } : { op: 'set', path, value };
}

/** The merged document with every picked side written in. */
export function resolve(merged: JsonValue, groups: readonly ConflictGroup[], a: JsonValue, b: JsonValue): JsonValue {
  let doc = merged;
  for (const group of groups) {
    if (group.choice === undefined) continue;
    const side = group.choice === 'A' ? a : b;
    const op = opFor(doc, group.path, group.choice === 'A' ? group.a : group.b, side);
    if (op) doc = apply(doc, [op]);
  }
  return doc;
}
