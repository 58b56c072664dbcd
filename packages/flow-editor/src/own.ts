// Keys from files and clipboards are data: `__proto__` must become an own property, never the
// prototype, and `constructor` must not be read off Object.prototype.
import type { JsonObject, JsonValue } from '@cuttle/tools-merge';

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function ownGet(object: JsonObject, key: string): JsonValue | undefined {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

export function ownSet(object: JsonObject, key: string, value: JsonValue): void {
  Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
}

/** A copy of `source` with `changes` applied: keys keep their order, new keys go last, undefined deletes. */
export function patchObject(source: JsonObject | undefined, changes: readonly (readonly [string, JsonValue | undefined])[]): JsonObject {
  const out: JsonObject = {};
  const pending = new Map(changes);
  if (source !== undefined) {
    for (const key of Object.keys(source)) {
      if (pending.has(key)) {
        const value = pending.get(key);
        pending.delete(key);
        if (value !== undefined) ownSet(out, key, value);
      } else ownSet(out, key, source[key]!);
    }
  }
  for (const [key, value] of pending) if (value !== undefined) ownSet(out, key, value);
  return out;
}

/** A copy of `source` without `key`, the other keys in their order. */
export function withoutKey(source: Readonly<Record<string, JsonValue>>, key: string): JsonObject {
  const out: JsonObject = {};
  for (const k of Object.keys(source)) if (k !== key) ownSet(out, k, source[k]!);
  return out;
}

/** A plain record copy of an object with own properties only. */
export function copyRecord(source: Readonly<Record<string, JsonValue>>): JsonObject {
  const out: JsonObject = {};
  for (const key of Object.keys(source)) ownSet(out, key, source[key]!);
  return out;
}
