// Who changed each unit of the merged level, for the map's outlines: A, B, both, or an open
// conflict inside it; and where each unit stood in the base, so a moved unit leaves a ghost.
import { jsonEqual, type JsonValue } from '@cuttle/tools-merge';
import { isPlainObject } from './json.ts';
import type { MergeView } from './merge-session.ts';
import { placedUnits, type PlacedUnit } from './placed-units.ts';

export type UnitChange = 'A' | 'B' | 'both' | 'conflict';

function entries(level: JsonValue): Map<string, JsonValue> {
  const out = new Map<string, JsonValue>();
  const units = isPlainObject(level) ? level.units : undefined;
  if (Array.isArray(units)) for (const u of units) if (isPlainObject(u) && typeof u.id === 'string') out.set(u.id, u);
  return out;
}

export function unitChanges(view: MergeView): Map<string, UnitChange> {
  const [base, a, b] = [view.base, view.a, view.b].map(entries) as [Map<string, JsonValue>, Map<string, JsonValue>, Map<string, JsonValue>];
  const out = new Map<string, UnitChange>();
  for (const id of new Set([...a.keys(), ...b.keys(), ...base.keys()])) {
    const byA = !jsonEqual(a.get(id), base.get(id));
    const byB = !jsonEqual(b.get(id), base.get(id));
    if (byA || byB) out.set(id, byA && byB ? 'both' : byA ? 'A' : 'B');
  }
  for (const group of view.groups) {
    const [key, seg] = group.path;
    if (group.choice === undefined && key === 'units' && typeof seg === 'object') out.set(String(seg.id), 'conflict');
  }
  return out;
}

/** The base's units by id. */
export function baseUnits(view: MergeView): Map<string, PlacedUnit> {
  return new Map(placedUnits(view.base).map((u) => [u.id, u]));
}
