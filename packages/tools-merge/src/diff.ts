// diff(a, b): the list of operations that turns `a` into `b`, in the post's vocabulary: object
// keys are set (null deletes), id-array elements are updated in place, inserted and removed by
// id, other arrays are spliced from a sequence diff.
import type { DiffOp, DiffOptions, JsonObject, JsonValue, Path } from './api.ts';
import { jsonEqual } from './equal.ts';
import { checkIdKeys, commonIdKind, indexById, keepsOrder, type Id } from './id-array.ts';
import { isObject } from './own.ts';
import { diffSequence, TokenTable } from './sequence-diff.ts';

/** The operations turning `a` into `b`; `apply(a, diff(a, b))` equals `b`. */
export function diff(a: JsonValue, b: JsonValue, options: DiffOptions = {}): DiffOp[] {
  const ops: DiffOp[] = [];
  diffValue(a, b, [], ops, checkIdKeys(options.idKeys));
  return ops;
}

function setOp(path: Path, value: JsonValue): DiffOp {
  return value === null ? { op: 'set', path: path.slice(), value, keepNull: true } : { op: 'set', path: path.slice(), value };
}

function diffValue(a: JsonValue, b: JsonValue, path: Path, ops: DiffOp[], idKeys: readonly string[]): void {
  if (jsonEqual(a, b)) return;
  if (isObject(a) && isObject(b)) {
    diffObjects(a, b, path, ops, idKeys);
  } else if (Array.isArray(a) && Array.isArray(b)) {
    diffArrays(a, b, path, ops, idKeys);
  } else {
    ops.push(setOp(path, b));
  }
}

function diffObjects(a: JsonObject, b: JsonObject, path: Path, ops: DiffOp[], idKeys: readonly string[]): void {
  const depth = path.length;
  const aKeys = Object.keys(a);
  for (let i = 0; i < aKeys.length; i++) {
    const key = aKeys[i]!;
    if (!Object.hasOwn(b, key)) {
      path.push(key);
      ops.push({ op: 'set', path: path.slice(), value: null });
      path.length = depth;
    }
  }
  const bKeys = Object.keys(b);
  for (let i = 0; i < bKeys.length; i++) {
    const key = bKeys[i]!;
    path.push(key);
    if (Object.hasOwn(a, key)) diffValue(a[key]!, b[key]!, path, ops, idKeys);
    else ops.push(setOp(path, b[key]!));
    path.length = depth;
  }
}

function diffArrays(a: JsonValue[], b: JsonValue[], path: Path, ops: DiffOp[], idKeys: readonly string[]): void {
  const kind = commonIdKind(idKeys, a, b);
  if (kind === 'none' || kind === 'empty') {
    const table = new TokenTable();
    const hunks = diffSequence(table.tokenize(a), table.tokenize(b));
    for (const h of hunks) {
      ops.push({ op: 'splice', path: path.slice(), index: h.aStart, remove: h.aEnd - h.aStart, insert: b.slice(h.bStart, h.bEnd) });
    }
    return;
  }
  const am = indexById(a, kind);
  const bm = indexById(b, kind);
  const depth = path.length;
  for (const id of am.keys()) if (!bm.has(id)) ops.push({ op: 'remove', path: path.slice(), id });
  for (const [id, value] of bm) {
    const old = am.get(id);
    if (old === undefined) continue;
    path.push({ id });
    diffValue(old, value, path, ops, idKeys);
    path.length = depth;
  }
  let previous: Id | null = null;
  for (const [id, value] of bm) {
    if (!am.has(id)) ops.push({ op: 'insert', path: path.slice(), id, after: previous, value });
    previous = id;
  }
  if (!keepsOrder(am, bm)) ops.push({ op: 'order', path: path.slice(), ids: [...bm.keys()] });
}
