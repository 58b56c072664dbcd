import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { apply, diff, jsonEqual, merge, parseSjson, ToolsMergeError, type JsonValue } from '../src/index.ts';
import { anyDocument, KEYS, level } from './arbitraries.ts';

const s = (text: string): JsonValue => parseSjson(text);

describe('diff and apply', () => {
  test('object[key] = value operations, null deletes', () => {
    const ops = diff(s('a = 1\nb = { c = 2, d = 3 }'), s('a = 1\nb = { c = 5 }\ne = null'));
    expect(ops).toEqual([
      { op: 'set', path: ['b', 'd'], value: null },
      { op: 'set', path: ['b', 'c'], value: 5 },
      { op: 'set', path: ['e'], value: null, keepNull: true },
    ]);
  });

  test('id arrays tell an update from a remove plus an add (the post example)', () => {
    const base = s('a = [ {x = 1, id = "a"}, {x = 2, id = "b"}, {x = 3, id = "c"} ]');
    expect(diff(base, s('a = [ {x = 1, id = "a"}, {x = 2, id = "b"}, {x = 4, id = "c"} ]'))).toEqual([
      { op: 'set', path: ['a', { id: 'c' }, 'x'], value: 4 },
    ]);
    expect(diff(base, s('a = [ {x = 1, id = "a"}, {x = 2, id = "b"}, {x = 4, id = "d"} ]'))).toEqual([
      { op: 'remove', path: ['a'], id: 'c' },
      { op: 'insert', path: ['a'], id: 'd', after: 'b', value: { x: 4, id: 'd' } },
    ]);
  });

  test('arrays without ids get a real sequence diff, not index by index', () => {
    const ops = diff([1, 2, 3, 4, 5, 6], [0, 1, 2, 4, 5, 6, 7]);
    expect(ops).toEqual([
      { op: 'splice', path: [], index: 0, remove: 0, insert: [0] },
      { op: 'splice', path: [], index: 2, remove: 1, insert: [] },
      { op: 'splice', path: [], index: 6, remove: 0, insert: [7] },
    ]);
    expect(apply([1, 2, 3, 4, 5, 6], ops)).toEqual([0, 1, 2, 4, 5, 6, 7]);
  });

  test('apply(a, diff(a, b)) equals b and leaves a untouched', () => {
    fc.assert(
      fc.property(fc.oneof(anyDocument, level), fc.oneof(anyDocument, level), (a, b) => {
        const before = JSON.stringify(a);
        expect(apply(a, diff(a, b))).toEqual(b);
        expect(JSON.stringify(a)).toBe(before);
      }),
      { numRuns: 600 },
    );
  });

  test('apply rejects op lists that do not fit the document', () => {
    expect(() => apply({ a: 1 }, [{ op: 'set', path: ['b', 'c'], value: 1 }])).toThrow(ToolsMergeError);
    expect(() => apply({ a: [] }, [{ op: 'remove', path: ['a'], id: 'x' }])).toThrow(/no element with id/);
    expect(() => apply([1], [{ op: 'splice', path: [], index: 3, remove: 1, insert: [] }])).toThrow(/outside/);
    expect(() => apply({}, 'nope' as never)).toThrow(ToolsMergeError);
  });

  test('__proto__ in a diff writes a data key, never the prototype', () => {
    const out = apply({}, [{ op: 'set', path: ['__proto__'], value: { polluted: true } }]) as Record<string, JsonValue>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('merge', () => {
  test('changes from both sides combine; a real conflict goes right and is reported', () => {
    const base = s('a = 1\nb = 2\nc = { d = 3 }');
    const left = s('a = 10\nb = 2\nc = { d = 4 }');
    const right = s('a = 1\nb = 20\nc = { d = 5 }');
    const { merged, conflicts } = merge(base, left, right);
    expect(merged).toEqual({ a: 10, b: 20, c: { d: 5 } });
    expect(conflicts).toEqual([{ path: ['c', 'd'], base: 3, left: 4, right: 5, winner: 'right', reason: 'both changed' }]);
    expect(merge(base, left, right, { policy: 'left' }).merged).toEqual({ a: 10, b: 20, c: { d: 4 } });
    expect(() => merge(base, left, right, { policy: 'middle' as never })).toThrow(ToolsMergeError);
  });

  test('delete on one side against a change on the other is reported', () => {
    const { merged, conflicts } = merge({ a: 1, b: 1 }, { b: 1 }, { a: 2, b: 1 });
    expect(merged).toEqual({ a: 2, b: 1 });
    expect(conflicts).toHaveLength(1);
    expect(conflicts[0]).toMatchObject({ path: ['a'], left: undefined, right: 2, reason: 'removed on one side, changed on the other' });
  });

  test('id arrays: update versus remove-and-add, additions from both sides kept in place', () => {
    const base = s('units = [ {id = "a", x = 1} {id = "b", x = 2} {id = "c", x = 3} ]');
    const left = s('units = [ {id = "a", x = 1} {id = "n1", x = 9} {id = "b", x = 2, y = 7} {id = "c", x = 3} ]');
    const right = s('units = [ {id = "a", x = 1} {id = "b", x = 5} {id = "n2", x = 8} ]');
    const { merged, conflicts } = merge(base, left, right);
    expect(merged).toEqual(s('units = [ {id = "a", x = 1} {id = "n1", x = 9} {id = "b", x = 5, y = 7} {id = "n2", x = 8} ]'));
    expect(conflicts).toEqual([]);
  });

  test('id arrays: removal against an edit is a reported conflict', () => {
    const base = s('u = [ {id = 1, x = 1} {id = 2, x = 2} ]');
    const left = s('u = [ {id = 1, x = 1} {id = 2, x = 3} ]');
    const right = s('u = [ {id = 1, x = 1} ]');
    const r = merge(base, left, right);
    expect(r.merged).toEqual({ u: [{ id: 1, x: 1 }] });
    expect(r.conflicts[0]).toMatchObject({ path: ['u', { id: 2 }], right: undefined });
    const l = merge(base, left, right, { policy: 'left' });
    expect(l.merged).toEqual({ u: [{ id: 1, x: 1 }, { id: 2, x: 3 }] });
  });

  test('string arrays are their own ids; Id and ID fields count too', () => {
    expect(merge(['a', 'b'], ['a', 'b', 'c'], ['b', 'd']).merged).toEqual(['b', 'c', 'd']);
    expect(merge([{ Id: 1 }], [{ Id: 1 }, { Id: 2 }], [{ Id: 3 }, { Id: 1 }]).merged).toEqual([{ Id: 3 }, { Id: 1 }, { Id: 2 }]);
    expect(merge([{ ID: 'x', v: 1 }], [{ ID: 'x', v: 2 }], [{ ID: 'x', v: 1 }, { ID: 'y' }]).merged).toEqual([{ ID: 'x', v: 2 }, { ID: 'y' }]);
  });

  test('id arrays: one side reorders, the other edits: both land', () => {
    const r = merge(['a', 'b', 'c'], ['c', 'b', 'a'], ['a', 'b', 'c', 'd']);
    // d lands after its neighbour on the side that added it.
    expect(r.merged).toEqual(['c', 'd', 'b', 'a']);
  });

  test('arrays without ids: the post example and a sequence merge of distant edits', () => {
    const post = merge([1, 2, 3], [1, 2, 4], [1, 2, 5]);
    expect(post.merged).toEqual([1, 2, 5]);
    expect(post.conflicts).toHaveLength(1);
    const far = merge([1, 2, 3, 4, 5, 6, 7, 8], [0, 1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 3, 4, 5, 6, 8, 9]);
    expect(far.merged).toEqual([0, 1, 2, 3, 4, 5, 6, 8, 9]);
    expect(far.conflicts).toEqual([]);
    // Without ids, same-position object edits still merge field by field.
    const objs = merge([{ x: 1, y: 1 }], [{ x: 2, y: 1 }], [{ x: 1, y: 2 }]);
    expect(objs.merged).toEqual([{ x: 2, y: 2 }]);
    // Both inserting at the same spot: the winner's insertion stays, the loser's is reported.
    const ins = merge(['x'], ['x', 1], ['x', 2]);
    expect(ins.merged).toEqual(['x', 2]);
    expect(ins.conflicts[0]).toMatchObject({ path: [1], left: [1], right: [2] });
  });

  test('__proto__, constructor and prototype merge as data', () => {
    const base = s('__proto__ = { a = 1 }\nconstructor = 1');
    const left = s('__proto__ = { a = 2 }\nconstructor = 1\nprototype = 3');
    const right = s('__proto__ = { a = 1, b = 1 }\nconstructor = 5');
    const { merged } = merge(base, left, right);
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(JSON.stringify(merged)).toBe('{"__proto__":{"a":2,"b":1},"constructor":5,"prototype":3}');
    // A key absent from the base must not be read through the prototype chain.
    expect(merge({}, { constructor: 1 }, {}).merged).toEqual({ constructor: 1 });
    expect(merge({}, {}, { toString: 'x' }).merged).toEqual({ toString: 'x' });
  });
});

describe('never lose data (properties)', () => {
  const docs = fc.oneof(anyDocument, level);

  test('merge(b, x, b) = x, merge(b, b, y) = y, merge(b, x, x) = x, all without conflicts', () => {
    fc.assert(
      fc.property(docs, docs, (b, x) => {
        for (const policy of ['right', 'left'] as const) {
          const r1 = merge(b, x, b, { policy });
          expect(r1.merged).toEqual(x);
          expect(r1.conflicts).toEqual([]);
          const r2 = merge(b, b, x, { policy });
          expect(r2.merged).toEqual(x);
          expect(r2.conflicts).toEqual([]);
          const r3 = merge(b, x, x, { policy });
          expect(r3.merged).toEqual(x);
          expect(r3.conflicts).toEqual([]);
        }
      }),
      { numRuns: 500 },
    );
  });

  test('id arrays never duplicate or drop an id', () => {
    fc.assert(
      fc.property(level, level, level, fc.constantFrom('right' as const, 'left' as const), (b, x, y, policy) => {
        const { merged } = merge(b, x, y, { policy });
        for (const [key, idOf] of [
          ['units', (e: JsonValue) => (e as { id: string }).id],
          ['tags', (e: JsonValue) => e as string],
        ] as const) {
          const ids = ((merged as Record<string, JsonValue[]>)[key] ?? []).map(idOf);
          const set = (d: JsonValue) => new Set(((d as Record<string, JsonValue[]>)[key] ?? []).map(idOf));
          const [bs, xs, ys] = [set(b), set(x), set(y)];
          expect(new Set(ids).size, 'duplicated id').toBe(ids.length);
          for (const id of ids) expect(xs.has(id) || ys.has(id) || bs.has(id)).toBe(true);
          for (const id of xs) {
            if (ys.has(id)) expect(ids, `kept on both sides: ${id}`).toContain(id);
            if (!bs.has(id)) expect(ids, `added by left: ${id}`).toContain(id);
          }
          for (const id of ys) if (!bs.has(id)) expect(ids, `added by right: ${id}`).toContain(id);
          for (const id of bs) if (!xs.has(id) && !ys.has(id)) expect(ids).not.toContain(id);
        }
      }),
      { numRuns: 800 },
    );
  });

  test('every losing change is reported: each key ends as the changed side, or as a reported conflict', () => {
    fc.assert(
      fc.property(level, level, level, (b, x, y) => {
        const { merged, conflicts } = merge(b, x, y);
        const get = (d: JsonValue, k: string): JsonValue | undefined => {
          const settings = (d as Record<string, Record<string, JsonValue>>).settings!;
          return Object.hasOwn(settings, k) ? settings[k] : undefined;
        };
        for (const k of KEYS) {
          const [bv, xv, yv, mv] = [get(b, k), get(x, k), get(y, k), get(merged, k)];
          const reported = conflicts.some((c) => c.path.length === 2 && c.path[0] === 'settings' && c.path[1] === k);
          if (jsonEqual(xv, bv)) expect(mv).toEqual(yv);
          else if (jsonEqual(yv, bv) || jsonEqual(xv, yv)) expect(mv).toEqual(xv);
          else {
            expect(mv).toEqual(yv);
            expect(reported, `conflict on ${k} reported`).toBe(true);
          }
        }
        for (const c of conflicts) expect(c.winner).toBe('right');
      }),
      { numRuns: 500 },
    );
  });

  test('random documents never crash the merge', () => {
    fc.assert(
      fc.property(docs, docs, docs, (b, x, y) => {
        const { merged } = merge(b, x, y);
        expect(merged).not.toBeUndefined();
      }),
      { numRuns: 800 },
    );
  });
});
