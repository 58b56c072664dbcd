// The two edits the "Simulate edits" button makes, done the way a level tool does them: parse
// the base with its comments, change the data, write it back in the file's own layout. Person A
// moves a crate and makes the pool lamp blue; person B places a new crate and makes the same
// lamp red, the one real conflict.
import { jsonClone, parseSjsonDocument, sjsonStyleOf, writeSjson } from '@cuttle/tools-merge';
import { isPlainObject, type JsonObject, type JsonValue } from './json.ts';

/** The lamp both people recolour, and the crate A moves. */
export const CONFLICT_LAMP = 'lamp_08';
export const MOVED_CRATE = 'crate_001';
export const ADDED_CRATE = 'crate_192';
/** Every component differs from the base's [1 0.7 0.4] on both sides, so the colours conflict as a whole. */
export const COLOR_A = [0.3, 0.55, 0.95];
export const COLOR_B = [0.9, 0.25, 0.2];

function editLevel(text: string, edit: (units: JsonValue[]) => void): string {
  const { value, comments } = parseSjsonDocument(text);
  const level = jsonClone(value);
  if (!isPlainObject(level) || !Array.isArray(level.units)) throw new Error('the level has no units array');
  edit(level.units);
  return writeSjson(level, { ...sjsonStyleOf(text), comments });
}

function unit(units: JsonValue[], id: string): JsonObject {
  const found = units.find((u) => isPlainObject(u) && u.id === id);
  if (!isPlainObject(found)) throw new Error(`the level has no unit "${id}"`);
  return found;
}

function setLampColor(lamp: JsonObject, color: number[]): void {
  const light: JsonObject = isPlainObject(lamp.light) ? lamp.light : {};
  light.color = color;
  lamp.light = light;
}

export function personA(base: string): string {
  return editLevel(base, (units) => {
    unit(units, MOVED_CRATE).position = [-6, 0.5, 10];
    setLampColor(unit(units, CONFLICT_LAMP), COLOR_A);
  });
}

export function personB(base: string): string {
  return editLevel(base, (units) => {
    setLampColor(unit(units, CONFLICT_LAMP), COLOR_B);
    // After the last crate, as an editor's "duplicate" would place it.
    const at = units.findIndex((u) => isPlainObject(u) && u.id === 'crate_018');
    units.splice(at + 1, 0, { id: ADDED_CRATE, unit: 'units/crate', position: [3, 0.5, 9], material: 'materials/painted' });
  });
}
