// The visual diff's rows: every field (a value, or a short array such as a position) that
// either side changed, with its base, A, B and merged values side by side. Units are found by
// id, as the merge matches them, so a moved unit is one changed `position`, not a removed and
// an added unit; a unit one side added or removed is one row.
import { formatPath, idKindOf, jsonEqual, valueAt, type JsonValue, type Path } from '@cuttle/tools-merge';
import { inGroup, type ConflictGroup } from './conflicts.ts';
import { isLeafArray, isPlainObject } from './json.ts';

export type FieldKind = 'added' | 'removed' | 'changed';
export type FieldOrigin = 'A' | 'B' | 'A+B';

export interface FieldRow {
  key: string;
  path: Path;
  kind: FieldKind;
  /** Who changed it; A+B: both made the same change. */
  origin: FieldOrigin;
  base: JsonValue | undefined;
  a: JsonValue | undefined;
  b: JsonValue | undefined;
  merged: JsonValue | undefined;
}

type Fields = Map<string, { path: Path; value: JsonValue }>;

function collect(value: JsonValue, path: Path, out: Fields): void {
  if (isPlainObject(value) && Object.keys(value).length > 0) {
    for (const key of Object.keys(value)) collect(value[key]!, [...path, key], out);
    return;
  }
  if (Array.isArray(value) && !isLeafArray(value)) {
    const kind = idKindOf(value);
    value.forEach((element, i) => {
      const id = typeof kind === 'object' && isPlainObject(element) ? element[kind.key] : undefined;
      collect(element, [...path, typeof id === 'string' || typeof id === 'number' ? { id } : i], out);
    });
    return;
  }
  out.set(formatPath(path), { path, value });
}

function fieldsOf(doc: JsonValue): Fields {
  const out: Fields = new Map();
  collect(doc, [], out);
  return out;
}

/** The path of the whole id-array element (a unit) that `path` is inside and `doc` lacks, if any. */
function missingElement(path: Path, doc: JsonValue): Path | undefined {
  for (let i = 0; i < path.length; i++) {
    if (typeof path[i] !== 'object') continue;
    const element = path.slice(0, i + 1);
    if (valueAt(doc, element) === undefined) return element;
  }
  return undefined;
}

/** The changed fields outside the conflict groups (those get a row of their own), in merged order. */
export function fieldRows(base: JsonValue, a: JsonValue, b: JsonValue, merged: JsonValue, groups: readonly ConflictGroup[]): FieldRow[] {
  const [fb, fa, fbb, fm] = [base, a, b, merged].map(fieldsOf) as [Fields, Fields, Fields, Fields];
  const keys = new Set([...fm.keys(), ...fb.keys(), ...fa.keys(), ...fbb.keys()]);
  const rows: FieldRow[] = [];
  const wholeElements = new Set<string>();
  for (const key of keys) {
    if (groups.some((g) => inGroup(g, key))) continue;
    let path = (fm.get(key) ?? fb.get(key) ?? fa.get(key) ?? fbb.get(key))!.path;
    // Fields of an added or removed unit collapse into one row for the unit.
    const element = missingElement(path, base) ?? missingElement(path, merged);
    if (element) {
      const elementKey = formatPath(element);
      if (wholeElements.has(elementKey)) continue;
      wholeElements.add(elementKey);
      path = element;
    }
    const row = { base: valueAt(base, path), a: valueAt(a, path), b: valueAt(b, path), merged: valueAt(merged, path) };
    const changedA = !jsonEqual(row.a, row.base);
    const changedB = !jsonEqual(row.b, row.base);
    if (!changedA && !changedB) continue;
    const kind: FieldKind = row.base === undefined ? 'added' : row.merged === undefined ? 'removed' : 'changed';
    rows.push({ key: formatPath(path), path, kind, origin: changedA && changedB ? 'A+B' : changedA ? 'A' : 'B', ...row });
  }
  return rows;
}
