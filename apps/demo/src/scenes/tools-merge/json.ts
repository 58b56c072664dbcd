// Small JSON helpers the scene's files share (the package keeps its own `isObject` internal).
import type { JsonObject, JsonValue } from '@cuttle/tools-merge';

export type { JsonObject, JsonValue };

export function isPlainObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Arrays of numbers, strings, booleans and nulls are one field (a position, a colour). */
export function isLeafArray(value: JsonValue | undefined): boolean {
  return Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object');
}
