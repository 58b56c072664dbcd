// Myers' O((N+M)D) shortest edit script over interned integer tokens: the LCS-style sequence
// diff used for arrays without ids. Common prefix and suffix are trimmed first; an edit distance
// beyond `maxCost` gives up on finding the shortest script and reports the middle as one hunk
// (still correct, just coarser), which bounds the worst case on huge, unrelated arrays.
import type { JsonValue } from './api.ts';

/** `a[aStart, aEnd)` was replaced by `b[bStart, bEnd)`. Hunks are sorted and disjoint. */
export interface Hunk {
  /** Start of the replaced run in `a`. */
  aStart: number;
  /** End (exclusive) of the replaced run in `a`. */
  aEnd: number;
  /** Start of the replacing run in `b`. */
  bStart: number;
  /** End (exclusive) of the replacing run in `b`. */
  bEnd: number;
}

const DEFAULT_MAX_COST = 2048;

/** Interns JSON values into integers: equal values get equal tokens. */
export class TokenTable {
  private readonly ids = new Map<string, number>();
  private readonly scalars = new Map<unknown, number>();

  tokenize(values: readonly JsonValue[]): Int32Array {
    const out = new Int32Array(values.length);
    for (let i = 0; i < values.length; i++) out[i] = this.token(values[i]!);
    return out;
  }

  private token(value: JsonValue): number {
    if (typeof value !== 'object' || value === null) {
      // Negative zero shares a Map key with zero; give it a key no object canonical form has.
      if (value === 0 && Object.is(value, -0)) return this.composite('\u0000-0');
      let t = this.scalars.get(value);
      if (t === undefined) {
        t = this.scalars.size + this.ids.size;
        this.scalars.set(value, t);
      }
      return t;
    }
    return this.composite(canonical(value));
  }

  private composite(key: string): number {
    let t = this.ids.get(key);
    if (t === undefined) {
      t = this.scalars.size + this.ids.size;
      this.ids.set(key, t);
    }
    return t;
  }
}

/** A canonical string of a value: object keys sorted, so equal values give equal strings. */
export function canonical(value: JsonValue): string {
  if (typeof value !== 'object' || value === null) return Object.is(value, -0) ? '-0' : JSON.stringify(value);
  if (Array.isArray(value)) {
    let s = '[';
    for (let i = 0; i < value.length; i++) s += (i > 0 ? ',' : '') + canonical(value[i]!);
    return s + ']';
  }
  const keys = Object.keys(value).sort();
  let s = '{';
  for (let i = 0; i < keys.length; i++) s += (i > 0 ? ',' : '') + JSON.stringify(keys[i]) + ':' + canonical(value[keys[i]!]!);
  return s + '}';
}

/** The hunks turning token sequence `a` into `b`. */
export function diffSequence(a: Int32Array, b: Int32Array, maxCost = DEFAULT_MAX_COST): Hunk[] {
  let start = 0;
  let aEnd = a.length;
  let bEnd = b.length;
  while (start < aEnd && start < bEnd && a[start] === b[start]) start++;
  while (aEnd > start && bEnd > start && a[aEnd - 1] === b[bEnd - 1]) {
    aEnd--;
    bEnd--;
  }
  const hunks: Hunk[] = [];
  if (start === aEnd && start === bEnd) return hunks;
  if (start === aEnd || start === bEnd) {
    hunks.push({ aStart: start, aEnd, bStart: start, bEnd });
    return hunks;
  }
  const n = aEnd - start;
  const m = bEnd - start;
  const max = Math.min(n + m, maxCost);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    // The state before round d, for k in [-d, d] (index k + d): O(D^2) memory in all.
    trace.push(v.slice(offset - d, offset + d + 1));
    for (let k = -d; k <= d; k += 2) {
      let x: number;
      if (k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!)) x = v[offset + k + 1]!;
      else x = v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[start + x] === b[start + y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  if (found < 0) {
    hunks.push({ aStart: start, aEnd, bStart: start, bEnd });
    return hunks;
  }
  // Walk the trace back into a list of matched diagonals, then turn the gaps into hunks.
  const matchA: number[] = [];
  const matchB: number[] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const vd = trace[d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && vd[d + k - 1]! < vd[d + k + 1]!) ? k + 1 : k - 1;
    const prevX = vd[d + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      matchA.push(x);
      matchB.push(y);
    }
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    x--;
    y--;
    matchA.push(x);
    matchB.push(y);
  }
  let ai = 0;
  let bi = 0;
  for (let i = matchA.length - 1; i >= -1; i--) {
    const ma = i >= 0 ? matchA[i]! : n;
    const mb = i >= 0 ? matchB[i]! : m;
    if (ma > ai || mb > bi) hunks.push({ aStart: start + ai, aEnd: start + ma, bStart: start + bi, bEnd: start + mb });
    ai = ma + 1;
    bi = mb + 1;
  }
  return hunks;
}
