// How the scene reads placed units out of any version of the level, for the map.
import { isPlainObject, type JsonObject, type JsonValue } from './json.ts';

/** Light colour and range of a lamp that has no override (units/lamp.unit). */
export const LAMP_DEFAULT = { color: [1, 0.7, 0.4] as const, range: 4 };

export interface PlacedUnit {
  id: string;
  /** The unit resource, e.g. `units/crate`. */
  unit: string;
  x: number;
  z: number;
  /** Lamps only: the light colour (the level's override or the unit's own) and range. */
  light?: { color: readonly [number, number, number]; range: number };
}

const numberAt = (array: JsonValue | undefined, i: number, fallback: number): number => {
  const v = Array.isArray(array) ? array[i] : undefined;
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
};

function lightOf(entry: JsonObject): PlacedUnit['light'] {
  if (entry.unit !== 'units/lamp' && !isPlainObject(entry.light)) return undefined;
  const light = isPlainObject(entry.light) ? entry.light : {};
  const d = LAMP_DEFAULT.color;
  return {
    color: [numberAt(light.color, 0, d[0]), numberAt(light.color, 1, d[1]), numberAt(light.color, 2, d[2])],
    range: typeof light.range === 'number' && light.range > 0 ? light.range : LAMP_DEFAULT.range,
  };
}

/**
 * The units of a level document, top-down: x and z of each `position` (y is height). Entries a
 * user's edit left without an id are skipped, not fatal: the text areas are free-form.
 */
export function placedUnits(level: JsonValue | undefined): PlacedUnit[] {
  const units = isPlainObject(level) ? level.units : undefined;
  if (!Array.isArray(units)) return [];
  const out: PlacedUnit[] = [];
  for (const entry of units) {
    if (!isPlainObject(entry) || typeof entry.id !== 'string') continue;
    const unit = typeof entry.unit === 'string' ? entry.unit : '';
    const light = lightOf(entry);
    out.push({ id: entry.id, unit, x: numberAt(entry.position, 0, 0), z: numberAt(entry.position, 2, 0), ...(light ? { light } : {}) });
  }
  return out;
}
