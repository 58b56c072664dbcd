// Arrays whose elements carry identity: objects with an `id` (or `Id`, `ID`) field of string or
// number type, unique within the array, or strings, which are their own ids. Such arrays merge
// by id, which tells an update of an element from a removal plus an addition.
import type { JsonValue } from './api.ts';
import { isObject } from './own.ts';

export type Id = string | number;

/** How an array's elements are identified: by an id field, as strings, or not at all. */
export type IdKind = 'id' | 'Id' | 'ID' | 'string' | 'empty' | 'none';

const ID_KEYS = ['id', 'Id', 'ID'] as const;

/** The id scheme of an array, checking that ids are present and unique. */
export function idKindOf(array: readonly JsonValue[]): IdKind {
  if (array.length === 0) return 'empty';
  const first = array[0]!;
  if (typeof first === 'string') {
    const seen = new Set<string>();
    for (let i = 0; i < array.length; i++) {
      const s = array[i];
      if (typeof s !== 'string' || seen.has(s)) return 'none';
      seen.add(s);
    }
    return 'string';
  }
  if (!isObject(first)) return 'none';
  let key: 'id' | 'Id' | 'ID' | undefined;
  for (const k of ID_KEYS) {
    if (Object.hasOwn(first, k)) {
      key = k;
      break;
    }
  }
  if (key === undefined) return 'none';
  const seen = new Set<Id>();
  for (let i = 0; i < array.length; i++) {
    const e = array[i]!;
    if (!isObject(e) || !Object.hasOwn(e, key)) return 'none';
    const id = e[key];
    if ((typeof id !== 'string' && typeof id !== 'number') || seen.has(id)) return 'none';
    seen.add(id);
  }
  return key;
}

/** The kind shared by several arrays (empty arrays fit any), or 'none'. */
export function commonIdKind(...arrays: (readonly JsonValue[] | undefined)[]): IdKind {
  let kind: IdKind = 'empty';
  for (const a of arrays) {
    if (a === undefined) continue;
    const k = idKindOf(a);
    if (k === 'none') return 'none';
    if (k === 'empty') continue;
    if (kind === 'empty') kind = k;
    else if (kind !== k) return 'none';
  }
  return kind;
}

/** The id of an element under a (non-empty, non-none) kind. */
export function elementId(element: JsonValue, kind: IdKind): Id {
  if (kind === 'string') return element as string;
  return (element as Record<string, JsonValue>)[kind] as Id;
}

/** Map from id to element; the order of insertion is the array's order. */
export function indexById(array: readonly JsonValue[] | undefined, kind: IdKind): Map<Id, JsonValue> {
  const map = new Map<Id, JsonValue>();
  if (array === undefined) return map;
  for (let i = 0; i < array.length; i++) map.set(elementId(array[i]!, kind), array[i]!);
  return map;
}

/** True when `side` keeps the ids it shares with `base` in base's relative order. */
export function keepsOrder(base: Map<Id, JsonValue>, side: Map<Id, JsonValue>): boolean {
  const it = base.keys();
  for (const id of side.keys()) {
    if (!base.has(id)) continue;
    // Advance through base to the next id that side still has.
    for (;;) {
      const next = it.next();
      if (next.done === true) return false;
      if (next.value === id) break;
      if (side.has(next.value)) return false;
    }
  }
  return true;
}
