// Arrays whose elements carry identity: objects with an id field (the first of the id keys,
// by default `id`, `Id`, `ID`, `_guid`, `_id`, that every element has, with unique string or
// number values), or strings, which are their own ids. Such arrays merge by id, which tells an
// update of an element from a removal plus an addition.
import type { JsonValue } from './api.ts';
import { ToolsMergeError } from './errors.ts';
import { isObject } from './own.ts';

/** An element's id in an id array: the value of its id key. */
export type Id = string | number;

/** An array keyed by the field `key` of its elements. One object per key name, so `===` compares. */
export interface IdKeyKind {
  /** The id key's name. */
  readonly key: string;
}

/** How an array's elements are identified: by an id field, as strings, or not at all. */
export type IdKind = IdKeyKind | 'string' | 'empty' | 'none';

/** The id keys tried when none are given: BitSquid's `id` spellings, then Stingray's and Crown's `_guid`, then `_id`. */
export const DEFAULT_ID_KEYS: readonly string[] = Object.freeze(['id', 'Id', 'ID', '_guid', '_id']);

const kinds = new Map<string, IdKeyKind>();

/** The (interned) kind for arrays keyed by `key`. */
export function idKeyKind(key: string): IdKeyKind {
  let kind = kinds.get(key);
  if (kind === undefined) kinds.set(key, (kind = Object.freeze({ key })));
  return kind;
}

/** Checks a user's `idKeys` option; returns the defaults for undefined. */
export function checkIdKeys(idKeys: readonly string[] | undefined): readonly string[] {
  if (idKeys === undefined) return DEFAULT_ID_KEYS;
  const given: unknown = idKeys;
  if (!Array.isArray(given) || given.length === 0 || !given.every((k) => typeof k === 'string' && k.length > 0)) {
    throw new ToolsMergeError(`idKeys must be a non-empty array of key names such as ['_guid', 'id'], got ${JSON.stringify(given)}`);
  }
  return idKeys;
}

/** True when every element is an object with a unique string or number under `key`. */
function keyedBy(array: readonly JsonValue[], key: string): boolean {
  const seen = new Set<Id>();
  for (let i = 0; i < array.length; i++) {
    const e = array[i]!;
    if (!isObject(e) || !Object.hasOwn(e, key)) return false;
    const id = e[key];
    if ((typeof id !== 'string' && typeof id !== 'number') || seen.has(id)) return false;
    seen.add(id);
  }
  return true;
}

/** The id scheme of an array under the id keys (first that fits), checking ids are present and unique. */
export function idKindOf(array: readonly JsonValue[], idKeys: readonly string[] = DEFAULT_ID_KEYS): IdKind {
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
  for (let k = 0; k < idKeys.length; k++) {
    const key = idKeys[k]!;
    if (Object.hasOwn(first, key) && keyedBy(array, key)) return idKeyKind(key);
  }
  return 'none';
}

/** The kind shared by several arrays (empty arrays fit any), or 'none'. */
export function commonIdKind(idKeys: readonly string[], ...arrays: (readonly JsonValue[] | undefined)[]): IdKind {
  let kind: IdKind = 'empty';
  for (const a of arrays) {
    if (a === undefined) continue;
    const k = idKindOf(a, idKeys);
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
  return (element as Record<string, JsonValue>)[(kind as IdKeyKind).key] as Id;
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
