// Checks a 3-way merge of the generated levels against what the two edits mean, independently of
// the merge under test: a unit survives when neither side removed it, each side's additions
// arrive, and every value one side changed takes that side's value. Where both sides changed a
// value differently, or one removed a unit the other changed (conflicts), either side's outcome
// is accepted. Units are matched by id and
// their order is not checked, since the two merges order concurrent inserts differently.
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface MergeTally {
  /** Units that should be in the merge and are not. */
  unitsMissing: number;
  /** Units in the merge that a side removed, or that neither side had. */
  unitsExtra: number;
  /** Units that appear more than once. */
  unitsDuplicated: number;
  /** Units present on both sides whose merged contents contradict an edit. */
  unitsWrong: number;
  /** Paths outside the units that contradict an edit. */
  otherWrong: string[];
}

const isObject = (v: Json | undefined): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

function equal(a: Json | undefined, b: Json | undefined): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => equal(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && equal(a[k], b[k]));
  }
  return false;
}

/** Appends to `wrong` the paths under which `merged` contradicts the edits from `base` to `left` and `right`. */
function checkValue(base: Json | undefined, left: Json | undefined, right: Json | undefined, merged: Json | undefined, path: string, wrong: string[]): void {
  if (isObject(base) && isObject(left) && isObject(right) && isObject(merged)) {
    const keys = new Set([...Object.keys(base), ...Object.keys(left), ...Object.keys(right), ...Object.keys(merged)]);
    for (const key of keys) checkValue(base[key], left[key], right[key], merged[key], `${path}.${key}`, wrong);
    return;
  }
  const leftChanged = !equal(base, left);
  const rightChanged = !equal(base, right);
  const ok = leftChanged && rightChanged && !equal(left, right) ? equal(merged, left) || equal(merged, right) : equal(merged, leftChanged ? left : right);
  if (!ok) wrong.push(path);
}

function unitsOf(doc: Json): Json[] {
  const units = isObject(doc) ? doc.units : undefined;
  if (!Array.isArray(units)) throw new TypeError('a generated level has a units array');
  return units;
}

function unitsById(doc: Json): Map<string, Json> {
  const byId = new Map<string, Json>();
  for (const unit of unitsOf(doc)) if (isObject(unit) && typeof unit.id === 'string') byId.set(unit.id, unit);
  return byId;
}

/** How far `merged` is from a correct merge of `left` and `right` over `base` (all zero when it is one). */
export function tallyMerge(base: Json, left: Json, right: Json, merged: Json): MergeTally {
  const [b, l, r, m] = [base, left, right, merged].map(unitsById) as [Map<string, Json>, Map<string, Json>, Map<string, Json>, Map<string, Json>];
  const tally: MergeTally = { unitsMissing: 0, unitsExtra: 0, unitsDuplicated: unitsOf(merged).length - m.size, unitsWrong: 0, otherWrong: [] };
  const expected = new Set<string>();
  // Removed on one side and changed on the other: kept with the change, or gone; both are right.
  const eitherWay = new Set<string>();
  for (const [id, unit] of b) {
    if (l.has(id) && r.has(id)) expected.add(id);
    else if (l.has(id) !== r.has(id) && !equal(unit, l.get(id) ?? r.get(id))) eitherWay.add(id);
  }
  for (const id of l.keys()) if (!b.has(id)) expected.add(id);
  for (const id of r.keys()) if (!b.has(id)) expected.add(id);
  for (const id of eitherWay) {
    const unit = m.get(id);
    if (unit !== undefined && !equal(unit, l.get(id) ?? r.get(id))) tally.unitsWrong++;
  }
  for (const id of expected) {
    const unit = m.get(id);
    if (unit === undefined) {
      tally.unitsMissing++;
      continue;
    }
    const wrong: string[] = [];
    // A unit one side added is compared with itself as base: it must arrive unchanged.
    const fromBase = b.get(id) ?? l.get(id) ?? r.get(id);
    checkValue(fromBase, l.get(id) ?? fromBase, r.get(id) ?? fromBase, unit, id, wrong);
    if (wrong.length > 0) tally.unitsWrong++;
  }
  for (const id of m.keys()) if (!expected.has(id) && !eitherWay.has(id)) tally.unitsExtra++;
  const strip = (doc: Json): Json => (isObject(doc) ? Object.fromEntries(Object.entries(doc).filter(([key]) => key !== 'units')) : doc);
  checkValue(strip(base), strip(left), strip(right), strip(merged), '', tally.otherWrong);
  return tally;
}

/** True when the tally is of a correct merge. */
export function isCorrectMerge(tally: MergeTally): boolean {
  return tally.unitsMissing === 0 && tally.unitsExtra === 0 && tally.unitsDuplicated === 0 && tally.unitsWrong === 0 && tally.otherWrong.length === 0;
}

/** The tally in words, for a benchmark note or an error. */
export function describeTally(tally: MergeTally): string {
  if (isCorrectMerge(tally)) return 'a correct merge';
  const parts = [
    tally.unitsMissing > 0 ? `${tally.unitsMissing} units missing` : '',
    tally.unitsExtra > 0 ? `${tally.unitsExtra} removed units kept` : '',
    tally.unitsDuplicated > 0 ? `${tally.unitsDuplicated} units duplicated` : '',
    tally.unitsWrong > 0 ? `${tally.unitsWrong} units with an edit lost or misapplied` : '',
    tally.otherWrong.length > 0 ? `wrong values at ${tally.otherWrong.slice(0, 3).join(', ')}` : '',
  ];
  return parts.filter((p) => p !== '').join(', ');
}
