// Shared fast-check generators: small key and id domains so that independent documents overlap
// a lot (which is what makes their merges interesting), with the dangerous keys mixed in.
import fc from 'fast-check';
import type { JsonObject, JsonValue } from '../src/index.ts';

export const KEYS = ['x', 'y', 'name', '__proto__', 'constructor', 'prototype', 'mesh', 'quoted key'];
export const IDS = ['a', 'b', 'c', 'd', 'e', 'f'];

const scalar: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -3, max: 3 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom('', 'a', 'b', 'multi\nline', 'quote"d', 'back\\slash', 'uni\u00e9\u{1F600}'),
);

const { tree } = fc.letrec<{ tree: JsonValue; object: JsonObject; array: JsonValue[] }>((tie) => ({
  tree: fc.oneof({ maxDepth: 3, depthIdentifier: 'doc' }, scalar, tie('object'), tie('array')),
  object: fc.dictionary(fc.constantFrom(...KEYS), tie('tree'), { maxKeys: 4 }),
  array: fc.array(tie('tree'), { maxLength: 4 }),
}));
export const anyDocument = tree;

/** An id array of objects: ids drawn without repeats, values small. */
export const unitsArray: fc.Arbitrary<JsonValue[]> = fc
  .uniqueArray(fc.constantFrom(...IDS), { maxLength: IDS.length })
  .chain((ids) => fc.tuple(...ids.map((id) => fc.record({ id: fc.constant(id), x: fc.integer({ min: 0, max: 2 }) }))))
  .map((units): JsonValue[] => units);

/** A level-like document: an id array, a string set, a plain array and a nested settings object. */
export const level: fc.Arbitrary<JsonObject> = fc.record({
  units: unitsArray,
  tags: fc.uniqueArray(fc.constantFrom(...IDS), { maxLength: 5 }),
  path: fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 6 }),
  settings: fc.dictionary(fc.constantFrom(...KEYS), scalar, { maxKeys: 4 }),
});
