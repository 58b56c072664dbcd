// Fresh ids for new and pasted nodes, comment boxes and groups: readable (`add`, `add_2`), never
// colliding, and valid node ids for the compiler (non-empty, no dots).

const SUFFIX = /_(\d+)$/;

/** `base` made a valid id: dots and whitespace become `_`; empty becomes `fallback`. */
export function cleanId(base: string, fallback: string): string {
  const clean = base.replace(/[.\s]+/g, '_').slice(0, 64);
  return clean === '' ? fallback : clean;
}

/** `base` itself when free, else `base_2`, `base_3`, ... (a `_<n>` already on `base` is counted on from). */
export function freshId(base: string, taken: (id: string) => boolean): string {
  if (!taken(base)) return base;
  const match = SUFFIX.exec(base);
  const stem = match ? base.slice(0, match.index) : base;
  let n = match ? Number(match[1]) + 1 : 2;
  while (taken(`${stem}_${n}`)) n++;
  return `${stem}_${n}`;
}

/** The id a new node of `type` gets by default: the last part of the type name (`math/add` → `add`). */
export function idForType(type: string): string {
  const last = type.slice(type.lastIndexOf('/') + 1);
  return cleanId(last, 'node');
}
