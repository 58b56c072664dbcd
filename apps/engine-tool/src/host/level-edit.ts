// Editing a property of a placed unit in a level's SJSON source: parse with comments, change
// one value, write back in the file's own layout with @cuttle/tools-merge's writer, so the
// diff is the changed lines and every comment stays.
import { parseSjsonDocument, sjsonStyleOf, writeSjson, type JsonObject, type JsonValue } from '@cuttle/tools-merge';

export const EDITABLE = ['position', 'rotation', 'scale', 'material'] as const;
export type EditableProperty = (typeof EDITABLE)[number];

export class EditError extends Error {
  override readonly name = 'EditError';
}

export interface UnitProperties {
  id: string;
  unit: string;
  position?: number[];
  rotation?: number[];
  scale?: number[];
  material?: string;
}

function units(doc: JsonValue): JsonObject[] {
  const list = (doc as { units?: unknown }).units;
  if (!Array.isArray(list)) throw new EditError('the level has no units array');
  return list as JsonObject[];
}

export function listUnits(text: string): UnitProperties[] {
  return units(parseSjsonDocument(text).value).map((u) => u as unknown as UnitProperties);
}

function checkValue(property: EditableProperty, value: unknown): JsonValue {
  const lengths = { position: 3, rotation: 4, scale: 3 } as const;
  if (property === 'material') {
    if (value === null) return null;
    if (typeof value !== 'string' || !/^[a-z0-9_\-/]+$/i.test(value)) throw new EditError('material must be a resource name such as materials/wood, or null to use the unit\'s own');
    return value;
  }
  if (!Array.isArray(value) || value.length !== lengths[property] || !value.every((n) => typeof n === 'number' && Number.isFinite(n))) {
    throw new EditError(`${property} must be ${lengths[property]} finite numbers`);
  }
  return value as number[];
}

/** The level text with unit `id`'s `property` set to `value` (null removes an override). */
export function editUnitProperty(text: string, id: string, property: EditableProperty, value: unknown): string {
  if (!(EDITABLE as readonly string[]).includes(property)) throw new EditError(`${property} is not an editable property (${EDITABLE.join(', ')})`);
  const checked = checkValue(property, value);
  const { value: doc, comments } = parseSjsonDocument(text);
  const unit = units(doc).find((u) => u.id === id);
  if (!unit) throw new EditError(`the level has no unit "${id}"`);
  if (checked !== null) unit[property] = checked;
  else if (property === 'material') delete unit.material;
  else throw new EditError(`${property} cannot be removed, only changed`);
  return writeSjson(doc, { ...sjsonStyleOf(text), comments });
}
