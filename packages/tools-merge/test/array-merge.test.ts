// Arrays without ids, merged 3-way: fixed-length number tuples (vectors, colours, quaternions)
// merge by index, and other arrays never splice one side's edit into the other's conflict.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { jsonEqual, merge, parseSjson, writeSjson, type JsonValue, type MergeConflict, type MergePolicy } from '../src/index.ts';

const s = (text: string): JsonValue => parseSjson(text);
const colorOf = (doc: JsonValue): JsonValue => (doc as { light: { color: JsonValue } }).light.color;
const light = (color: string): JsonValue => s(`light = { type = "omni", color = [${color}] }`);
const POLICIES: readonly MergePolicy[] = ['right', 'left'];

/** The per-index result: the changed side, the shared change, or the winner with a conflict. */
function byIndex(b: readonly number[], l: readonly number[], r: readonly number[], policy: MergePolicy) {
  const merged: number[] = [];
  const conflicts: MergeConflict[] = [];
  for (let i = 0; i < b.length; i++) {
    const [bv, lv, rv] = [b[i]!, l[i]!, r[i]!];
    if (jsonEqual(lv, rv) || jsonEqual(rv, bv)) merged.push(lv);
    else if (jsonEqual(lv, bv)) merged.push(rv);
    else {
      merged.push(policy === 'right' ? rv : lv);
      conflicts.push({ path: [i], base: bv, left: lv, right: rv, winner: policy, reason: 'both changed' });
    }
  }
  return { merged, conflicts };
}

/** The left/right mirror of a conflict list (what merge(b, r, l) with the other policy reports). */
const mirrored = (conflicts: readonly MergeConflict[]): MergeConflict[] =>
  conflicts.map((c) => ({ ...c, left: c.right, right: c.left, winner: c.winner === 'right' ? 'left' : 'right' }));

/** Length of a longest common subsequence (by value): the elements a shortest edit script keeps. */
function lcs(a: readonly JsonValue[], b: readonly JsonValue[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    let diag = 0;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j]!;
      row[j] = jsonEqual(a[i - 1], b[j - 1]) ? diag + 1 : Math.max(up, row[j - 1]!);
      diag = up;
    }
  }
  return row[b.length]!;
}

const isSubArray = (part: readonly JsonValue[], whole: readonly JsonValue[]): boolean => {
  for (let at = 0; at + part.length <= whole.length; at++) if (part.every((v, i) => jsonEqual(v, whole[at + i]))) return true;
  return false;
};

describe('number tuples merge by index', () => {
  test('both sides recolour a light (the demo report): three conflicts, one side\'s colour, never five numbers', () => {
    const base = light('1 0.7 0.4');
    const a = light('0.35 0.6 1');
    const b = light('0.9 0.2 0.15');
    const right = merge(base, a, b);
    expect(colorOf(right.merged)).toEqual([0.9, 0.2, 0.15]);
    expect(right.conflicts).toEqual([
      { path: ['light', 'color', 0], base: 1, left: 0.35, right: 0.9, winner: 'right', reason: 'both changed' },
      { path: ['light', 'color', 1], base: 0.7, left: 0.6, right: 0.2, winner: 'right', reason: 'both changed' },
      { path: ['light', 'color', 2], base: 0.4, left: 1, right: 0.15, winner: 'right', reason: 'both changed' },
    ]);
    expect(writeSjson(right.merged)).toContain('color = [0.9 0.2 0.15]');
    const left = merge(base, a, b, { policy: 'left' });
    expect(colorOf(left.merged)).toEqual([0.35, 0.6, 1]);
    expect(left.conflicts.map((c) => c.winner)).toEqual(['left', 'left', 'left']);
  });

  test('a reversed colour against a different edit: each component merges, the one both changed conflicts', () => {
    const { merged, conflicts } = merge(light('1 0.7 0.4'), light('0.4 0.7 1'), light('1 0.3 0.3'));
    // A changed r and b, B changed g and b: r from A, g from B, b both changed (B wins).
    expect(colorOf(merged)).toEqual([0.4, 0.3, 0.3]);
    expect(conflicts).toEqual([{ path: ['light', 'color', 2], base: 0.4, left: 1, right: 0.3, winner: 'right', reason: 'both changed' }]);
  });

  test('edits to different components merge cleanly', () => {
    const r = merge(light('1 0.7 0.4'), light('0.5 0.7 0.4'), light('1 0.7 0.9'));
    expect(colorOf(r.merged)).toEqual([0.5, 0.7, 0.9]);
    expect(r.conflicts).toEqual([]);
    // A quaternion inside a unit of an id array: each side turned a different component.
    const unit = (rotation: string): JsonValue => s(`units = [ { id = "a", rotation = [${rotation}] } { id = "b", rotation = [0 0 0 1] } ]`);
    const q = merge(unit('0 0 0 1'), unit('0 0.7071 0 1'), unit('0 0 0 0.7071'));
    expect(q.merged).toEqual(unit('0 0.7071 0 0.7071'));
    expect(q.conflicts).toEqual([]);
  });

  test('a shifted vector is not read as a deletion plus an append: the component both changed conflicts', () => {
    // By sequence diff, A "removed 1 and appended 4", and B's 3 -> 9 merged cleanly into [2 9 4],
    // silently losing A's y = 3. By index, A's x and y land and z is a reported conflict.
    const r = merge([1, 2, 3], [2, 3, 4], [1, 2, 9]);
    expect(r.merged).toEqual([2, 3, 9]);
    expect(r.conflicts).toEqual([{ path: [2], base: 3, left: 4, right: 9, winner: 'right', reason: 'both changed' }]);
  });

  test('property: equal-length number arrays keep their length, and each element is the changed side or a reported conflict', () => {
    // A small domain makes the sides share values, which is what misled the sequence diff.
    const value = fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constantFrom(0.5, -0, 1e-9));
    const triple = fc.integer({ min: 0, max: 8 }).chain((n) => {
      const vector = fc.array(value, { minLength: n, maxLength: n });
      return fc.tuple(vector, vector, vector);
    });
    fc.assert(
      fc.property(triple, ([b, l, r]) => {
        for (const policy of POLICIES) {
          const got = merge(b, l, r, { policy });
          const want = byIndex(b, l, r, policy);
          expect(got.merged).toEqual(want.merged);
          expect((got.merged as number[]).length).toBe(b.length);
          // Only the array-level identities (one side unchanged, both the same) skip the conflicts.
          if (!jsonEqual(l, r) && !jsonEqual(l, b) && !jsonEqual(r, b)) expect(got.conflicts).toEqual(want.conflicts);
          else expect(got.conflicts).toEqual([]);
          // Which side wins is the policy's only effect: swapping the sides and the policy mirrors the result.
          const swapped = merge(b, r, l, { policy: policy === 'right' ? 'left' : 'right' });
          expect(swapped.merged).toEqual(got.merged);
          expect(swapped.conflicts).toEqual(mirrored(got.conflicts));
        }
        // The two policies differ exactly at the reported conflicts.
        const [mr, ml] = [merge(b, l, r).merged as number[], merge(b, l, r, { policy: 'left' }).merged as number[]];
        const conflicted = new Set(merge(b, l, r).conflicts.map((c) => c.path[0]));
        for (let i = 0; i < b.length; i++) if (!conflicted.has(i)) expect(Object.is(mr[i], ml[i])).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('arrays of other lengths and kinds merge as sequences', () => {
  test('an insertion at index 0 on one side is not spliced into a conflict on the other', () => {
    // Lengths differ, so this is a sequence merge. The left diff is "insert 0.35 0.6 at 0, remove
    // 0.7 0.4" around a kept 1 that the right side replaced: all one region both sides changed.
    const r = merge([1, 0.7, 0.4], [0.35, 0.6, 1], [0.9, 0.2, 0.15, 0.5]);
    expect(r.merged).toEqual([0.9, 0.2, 0.15, 0.5]);
    expect(r.conflicts).toEqual([
      { path: [], base: [1, 0.7, 0.4], left: [0.35, 0.6, 1], right: [0.9, 0.2, 0.15, 0.5], winner: 'right', reason: 'both changed' },
    ]);
    expect(merge([1, 0.7, 0.4], [0.35, 0.6, 1], [0.9, 0.2, 0.15, 0.5], { policy: 'left' }).merged).toEqual([0.35, 0.6, 1]);
    // The same with strings (no ids: they repeat).
    const t = merge(['a', 'b', 'c', 'c'], ['x', 'y', 'a', 'c'], ['p', 'q', 'r', 's', 't']);
    expect(t.merged).toEqual(['p', 'q', 'r', 's', 't']);
    expect(t.conflicts).toHaveLength(1);
  });

  test('a conflicting stretch takes the whole of each side\'s touching edit, and distant edits still merge', () => {
    // Left: a -> A, and c -> C; right: b c -> Y. Left's a -> A touches the stretch both changed.
    const r = merge(['a', 'b', 'c', 'd', 'e', 'f', 'f'], ['A', 'b', 'C', 'd', 'e', 'f', 'f'], ['a', 'Y', 'd', 'e', 'F', 'f']);
    expect(r.merged).toEqual(['a', 'Y', 'd', 'e', 'F', 'f']);
    expect(r.conflicts).toEqual([
      { path: [0], base: ['a', 'b', 'c'], left: ['A', 'b', 'C'], right: ['a', 'Y'], winner: 'right', reason: 'both edited the same stretch of the array' },
    ]);
    // Edits that only touch (an insertion next to the other side's replacement) still combine.
    expect(merge(['a', 'b', 'b'], ['a', 'X', 'b', 'b'], ['a', 'Y', 'b']).merged).toEqual(['a', 'X', 'Y', 'b']);
    expect(merge(['a', 'b', 'c'], ['A', 'b', 'c'], ['a', 'B', 'c', 'c']).merged).toEqual(['A', 'B', 'c', 'c']);
  });

  test('property: one splice per side (fresh values) merges exactly as diff3 would', () => {
    // Base 0..n-1, left and right each replace one stretch with values no one else has, so each
    // side's diff is exactly its splice and the expected result can be written down.
    const splice = (n: number, fresh: number) =>
      fc
        .tuple(fc.integer({ min: 0, max: n }), fc.integer({ min: 0, max: n }), fc.integer({ min: 0, max: 3 }))
        .map(([p, d, k]) => ({ at: p, remove: Math.min(d, n - p), insert: Array.from({ length: k }, (_, i) => fresh + i) }));
    const cases = fc.integer({ min: 0, max: 6 }).chain((n) => fc.tuple(fc.constant(n), splice(n, 100), splice(n, 200)));
    fc.assert(
      fc.property(cases, fc.constantFrom(...POLICIES), ([n, ls, rs], policy) => {
        const b = Array.from({ length: n }, (_, i) => i);
        const apply1 = (x: typeof ls): number[] => [...b.slice(0, x.at), ...x.insert, ...b.slice(x.at + x.remove)];
        const [l, r] = [apply1(ls), apply1(rs)];
        const got = merge(b, l, r, { policy });
        if (l.length === n && r.length === n) {
          expect(got.merged).toEqual(byIndex(b, l, r, policy).merged);
          return;
        }
        const lEnd = ls.at + ls.remove;
        const rEnd = rs.at + rs.remove;
        const lEdits = ls.remove > 0 || ls.insert.length > 0;
        const rEdits = rs.remove > 0 || rs.insert.length > 0;
        // The package's overlap rule: shared base elements, two insertions at one spot, or an
        // insertion strictly inside the other's stretch. Touching at an edge is not an overlap.
        const clash =
          lEdits &&
          rEdits &&
          ((ls.at < rEnd && rs.at < lEnd) ||
            (ls.remove === 0 && rs.remove === 0 && ls.at === rs.at) ||
            (ls.remove === 0 && rs.at < ls.at && ls.at < rEnd) ||
            (rs.remove === 0 && ls.at < rs.at && rs.at < lEnd));
        const sameDeletion = ls.insert.length === 0 && rs.insert.length === 0 && ls.at === rs.at && lEnd === rEnd;
        if (!clash || sameDeletion) {
          // Both splices, each once; at one spot, the insertion goes first.
          const order = [ls, rs].filter((x) => x.remove > 0 || x.insert.length > 0).sort((x, y) => x.at - y.at || x.remove - y.remove);
          const want: number[] = [];
          let cursor = 0;
          for (const x of sameDeletion ? order.slice(0, 1) : order) {
            want.push(...b.slice(cursor, x.at), ...x.insert);
            cursor = x.at + x.remove;
          }
          want.push(...b.slice(cursor));
          expect(got.merged).toEqual(want);
          expect(got.conflicts).toEqual([]);
          if (!sameDeletion) expect(want.length).toBe(l.length + r.length - n);
          return;
        }
        // One conflict on the stretch both changed; the merged array is the winner's version of it
        // with the base around it (so the whole winner's array when the stretch is everything).
        const start = Math.min(ls.at, rs.at);
        const end = Math.max(lEnd, rEnd);
        const lv = [...b.slice(start, ls.at), ...ls.insert, ...b.slice(lEnd, end)];
        const rv = [...b.slice(start, rs.at), ...rs.insert, ...b.slice(rEnd, end)];
        expect(got.merged).toEqual([...b.slice(0, start), ...(policy === 'right' ? rv : lv), ...b.slice(end)]);
        const whole = start === 0 && end === n && n > 0;
        expect(got.conflicts).toEqual([
          whole
            ? { path: [], base: b, left: l, right: r, winner: policy, reason: 'both changed' }
            : { path: [start], base: b.slice(start, end), left: lv, right: rv, winner: policy, reason: 'both edited the same stretch of the array' },
        ]);
      }),
      { numRuns: 3000 },
    );
  });

  test('property: random arrays of any lengths: each piece used once, real conflict values, policy only picks the winner', () => {
    // Invariants for arrays of differing lengths (small domains, so the diffs are ragged):
    // - every merged element is a base element or one a side inserted, each used at most once, so
    //   merged.length <= len(b) + (len(l) - lcs(b, l)) + (len(r) - lcs(b, r)). A tighter bound such
    //   as len(l) + len(r) - len(b) holds only for clean merges without shared edits: a conflict
    //   won by the side that grew, next to a clean insertion by the side that shrank, ends longer;
    // - a clean merge (no conflicts) does not depend on the policy;
    // - every conflict carries real values: the whole arrays at the array's path, or stretches at
    //   [start] (base exactly b[start, ...), left and right contiguous runs of l and r), or single
    //   elements of equal-length stretches merged element by element;
    // - swapping the sides and the policy mirrors the result;
    // - number arrays of one length keep it.
    const value = fc.oneof(fc.integer({ min: 0, max: 2 }), fc.constantFrom('a', 'b'));
    const arr = fc.array(value, { maxLength: 7 });
    fc.assert(
      fc.property(arr, arr, arr, (b, l, r) => {
        // Arrays of unique strings are their own ids and merge by id (merge.test.ts covers them).
        fc.pre(![b, l, r].every((a) => a.every((v) => typeof v === 'string') && new Set(a).size === a.length));
        const right = merge(b, l, r);
        const left = merge(b, l, r, { policy: 'left' });
        const m = right.merged as JsonValue[];
        expect(Array.isArray(m)).toBe(true);
        expect(m.length).toBeLessThanOrEqual(b.length + (l.length - lcs(b, l)) + (r.length - lcs(b, r)));
        for (const v of m) expect([...b, ...l, ...r].some((x) => jsonEqual(x, v))).toBe(true);
        const numbers = [b, l, r].every((a) => a.every((v) => typeof v === 'number'));
        if (numbers && b.length === l.length && b.length === r.length) expect(m.length).toBe(b.length);
        if (right.conflicts.length === 0) {
          expect(left.conflicts).toEqual([]);
          expect(left.merged).toEqual(m);
        }
        for (const c of right.conflicts) {
          if (c.path.length === 0) {
            expect([c.base, c.left, c.right]).toEqual([b, l, r]);
            expect(m).toEqual(r);
          } else if (Array.isArray(c.left)) {
            const start = c.path[0] as number;
            expect(c.base).toEqual(b.slice(start, start + (c.base as JsonValue[]).length));
            expect(isSubArray(c.left, l)).toBe(true);
            expect(isSubArray(c.right as JsonValue[], r)).toBe(true);
          } else {
            expect(c.path).toHaveLength(1);
            expect(c.reason).toBe('both changed');
          }
        }
        const swapped = merge(b, r, l, { policy: 'left' });
        expect(swapped.merged).toEqual(m);
        expect(swapped.conflicts).toEqual(mirrored(right.conflicts));
      }),
      { numRuns: 3000 },
    );
  });
});
