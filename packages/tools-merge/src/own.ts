// Object keys are data. `__proto__` as a plain assignment would change the prototype, and a read
// of `constructor` would find Object's: these helpers make every key an own, plain property.
import type { JsonObject, JsonValue } from './api.ts';

const hasOwn = Object.hasOwn;

/** The own value of `key`, or undefined when the object has no such own key. */
export function ownGet(object: JsonObject, key: string): JsonValue | undefined {
  return hasOwn(object, key) ? object[key] : undefined;
}

/** Sets `key` as an own enumerable property, `__proto__` included. */
export function ownSet(object: JsonObject, key: string, value: JsonValue): void {
  if (key === '__proto__') {
    Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    object[key] = value;
  }
}

export function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
