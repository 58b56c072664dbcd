import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { EcsError, INVALID_ENTITY, Join, ObjectComponentManager, SchemaComponentManager } from '../src/index.ts';

const POSITION = { x: 'f32', y: 'f32', z: 'f32' } as const;

describe('SchemaComponentManager', () => {
  test('create, contains, indexOf, getEntity, count and field defaults', () => {
    const m = new SchemaComponentManager({ p: { type: 'f32', length: 3, default: [1, 2, 3] }, n: 'u16', owner: 'entity' });
    expect(m.contains(7)).toBe(false);
    expect(m.create(7)).toBe(0);
    expect(m.create(9)).toBe(1);
    expect(m.contains(7)).toBe(true);
    expect(m.indexOf(9)).toBe(1);
    expect(m.indexOf(8)).toBe(-1);
    expect(m.getEntity(1)).toBe(9);
    expect(m.count).toBe(2);
    expect(Array.from(m.fields.p.subarray(0, 6))).toEqual([1, 2, 3, 1, 2, 3]);
    expect(m.fields.n).toBeInstanceOf(Uint16Array);
    expect(m.fields.owner).toBeInstanceOf(Uint32Array);
  });

  test('fields grow geometrically and the fields object stays the same', () => {
    const m = new SchemaComponentManager(POSITION);
    const fields = m.fields;
    for (let e = 1; e <= 1000; e++) { const row = m.create(e); m.fields.x[row] = e; }
    expect(m.fields).toBe(fields);
    expect(m.capacity).toBeGreaterThanOrEqual(1000);
    expect(m.capacity).toBeLessThanOrEqual(2048);
    expect(m.fields.x[m.indexOf(500)]).toBe(500);
  });

  test('remove swaps the last row into the hole', () => {
    const m = new SchemaComponentManager(POSITION);
    for (const e of [1, 2, 3, 4]) { const row = m.create(e); m.fields.x[row] = e * 10; }
    expect(m.remove(2)).toBe(true);
    expect(m.remove(2)).toBe(false);
    expect(Array.from(m.entities.subarray(0, m.count))).toEqual([1, 4, 3]);
    expect(Array.from(m.fields.x.subarray(0, 3))).toEqual([10, 40, 30]);
    expect(m.indexOf(4)).toBe(1);
  });

  test('removeKeepSorted, removeManyKeepSorted and moveItem keep order and lookup in step', () => {
    const m = new SchemaComponentManager({ v: { type: 'i32', length: 2 } });
    for (const e of [1, 2, 3, 4, 5, 6]) { const row = m.create(e); m.fields.v.set([e, -e], row * 2); }
    m.removeKeepSorted(2);
    expect(Array.from(m.entities.subarray(0, m.count))).toEqual([1, 3, 4, 5, 6]);
    m.moveItem(4, 1);
    expect(Array.from(m.entities.subarray(0, m.count))).toEqual([1, 6, 3, 4, 5]);
    m.moveItem(0, 3);
    expect(Array.from(m.entities.subarray(0, m.count))).toEqual([6, 3, 4, 1, 5]);
    expect(m.removeManyKeepSorted([3, 5, 99])).toBe(2);
    expect(Array.from(m.entities.subarray(0, m.count))).toEqual([6, 4, 1]);
    for (let i = 0; i < m.count; i++) {
      const e = m.getEntity(i);
      expect(m.indexOf(e)).toBe(i);
      expect(Array.from(m.fields.v.subarray(i * 2, i * 2 + 2))).toEqual([e, -e]);
    }
  });

  test('permuteTail reorders the tail rows', () => {
    const m = new SchemaComponentManager({ v: 'f64' });
    for (const e of [1, 2, 3, 4]) { const row = m.create(e); m.fields.v[row] = e; }
    m.permuteTail(1, [3, 1, 2]);
    expect(Array.from(m.entities.subarray(0, 4))).toEqual([1, 4, 2, 3]);
    expect(Array.from(m.fields.v.subarray(0, 4))).toEqual([1, 4, 2, 3]);
    expect(m.indexOf(4)).toBe(1);
    expect(() => { m.permuteTail(1, [1, 1, 2]); }).toThrow(EcsError);
  });

  test('clear, reserve, copy and merge', () => {
    const a = new SchemaComponentManager(POSITION);
    const b = new SchemaComponentManager(POSITION);
    a.reserve(100);
    expect(a.capacity).toBe(100);
    for (const e of [1, 2]) { const row = a.create(e); a.fields.y[row] = e; }
    for (const e of [3, 4]) { const row = b.create(e); b.fields.y[row] = e; }
    const c = new SchemaComponentManager(POSITION);
    c.copy(a);
    expect(c.count).toBe(2);
    expect(a.count).toBe(2);
    a.merge(b);
    expect(b.count).toBe(0);
    expect(Array.from(a.entities.subarray(0, 4))).toEqual([1, 2, 3, 4]);
    expect(Array.from(a.fields.y.subarray(0, 4))).toEqual([1, 2, 3, 4]);
    expect(a.indexOf(4)).toBe(3);
    { const row = c.create(3); c.fields.y[row] = 33; }
    expect(() => { a.merge(c); }).toThrow(EcsError);
    expect(c.count).toBe(3);
    a.clear();
    expect(a.count).toBe(0);
    expect(a.contains(1)).toBe(false);
  });

  test('misuse throws EcsError', () => {
    const m = new SchemaComponentManager(POSITION);
    expect(() => m.create(INVALID_ENTITY)).toThrow(EcsError);
    expect(() => m.create(-1)).toThrow(EcsError);
    expect(() => m.create(1.5)).toThrow(EcsError);
    expect(() => m.create(2 ** 32)).toThrow(EcsError);
    m.create(5);
    expect(() => m.create(5)).toThrow(/already has a component/);
    expect(() => m.getEntity(1)).toThrow(EcsError);
    expect(() => { m.moveItem(0, 3); }).toThrow(EcsError);
    expect(() => { m.reserve(-1); }).toThrow(EcsError);
    expect(() => m.column('nope')).toThrow(EcsError);
    const other = new SchemaComponentManager({ x: 'f64' });
    expect(() => { m.copy(other as unknown as typeof m); }).toThrow(EcsError);
    expect(() => new SchemaComponentManager({})).toThrow(EcsError);
    expect(() => new SchemaComponentManager({ x: 'f16' as 'f32' })).toThrow(EcsError);
    expect(() => new SchemaComponentManager({ x: { type: 'f32', length: 3, default: [1, 2] } })).toThrow(EcsError);
    expect(() => new SchemaComponentManager({ x: { type: 'entity', default: 4 } })).toThrow(EcsError);
  });

  test('random operation sequences match a plain array model', () => {
    type Op = { kind: 'create' | 'remove' | 'removeKeepSorted'; entity: number } | { kind: 'move'; from: number; to: number } | { kind: 'clear' };
    const op: fc.Arbitrary<Op> = fc.oneof(
      { weight: 5, arbitrary: fc.record({ kind: fc.constant('create' as const), entity: fc.integer({ min: 1, max: 40 }) }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove' as const), entity: fc.integer({ min: 1, max: 40 }) }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('removeKeepSorted' as const), entity: fc.integer({ min: 1, max: 40 }) }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('move' as const), from: fc.nat(60), to: fc.nat(60) }) },
      { weight: 1, arbitrary: fc.constant({ kind: 'clear' as const }) },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const m = new SchemaComponentManager({ v: { type: 'f32', length: 2 } });
        let model: number[] = [];
        for (const o of ops) {
          if (o.kind === 'create') {
            if (model.includes(o.entity)) continue;
            { const row = m.create(o.entity); m.fields.v.set([o.entity, o.entity + 0.5], row * 2); }
            model.push(o.entity);
          } else if (o.kind === 'remove') {
            const i = model.indexOf(o.entity);
            expect(m.remove(o.entity)).toBe(i !== -1);
            if (i !== -1) {
              const last = model.pop()!;
              if (i < model.length) model[i] = last;
            }
          } else if (o.kind === 'removeKeepSorted') {
            const i = model.indexOf(o.entity);
            expect(m.removeKeepSorted(o.entity)).toBe(i !== -1);
            if (i !== -1) model.splice(i, 1);
          } else if (o.kind === 'move') {
            if (o.from >= model.length || o.to >= model.length) continue;
            m.moveItem(o.from, o.to);
            const [moved] = model.splice(o.from, 1);
            model.splice(o.to, 0, moved!);
          } else {
            m.clear();
            model = [];
          }
        }
        expect(m.count).toBe(model.length);
        model.forEach((e, i) => {
          expect(m.getEntity(i)).toBe(e);
          expect(m.indexOf(e)).toBe(i);
          expect(m.fields.v[i * 2]).toBe(e);
          expect(m.fields.v[i * 2 + 1]).toBe(e + 0.5);
        });
      }),
      { numRuns: 200 },
    );
  });
});

describe('ObjectComponentManager', () => {
  class Name {
    value = '';
  }

  test('the post operations work on factory objects', () => {
    const names = new ObjectComponentManager({ create: () => new Name() });
    names.create(1).value = 'a';
    names.create(2).value = 'b';
    names.create(3).value = 'c';
    expect(names.getComponent(2)?.value).toBe('b');
    expect(names.getComponent(9)).toBeUndefined();
    expect(names.at(0)).toBeInstanceOf(Name);
    names.remove(1);
    expect(names.at(0).value).toBe('c');
    names.moveItem(1, 0);
    expect([names.at(0).value, names.at(1).value]).toEqual(['b', 'c']);
    names.removeKeepSorted(2);
    expect(names.at(0).value).toBe('c');
    const copy = new ObjectComponentManager({ create: () => new Name() });
    copy.copy(names);
    expect(copy.at(0)).not.toBe(names.at(0));
    expect(copy.at(0).value).toBe('c');
    expect(copy.at(0)).toBeInstanceOf(Name);
    const other = new ObjectComponentManager({ create: () => new Name() });
    other.create(7).value = 'g';
    const moved = other.at(0);
    names.merge(other);
    expect(names.getComponent(7)).toBe(moved);
    expect(other.count).toBe(0);
    expect(() => names.at(5)).toThrow(EcsError);
    expect(() => names.create(7)).toThrow(EcsError);
    expect(() => new ObjectComponentManager({} as { create: () => Name })).toThrow(EcsError);
    expect(() => { names.copy(new SchemaComponentManager({ x: 'u8' }) as unknown as typeof names); }).toThrow(EcsError);
  });
});

describe('Join', () => {
  test('maps rows of one manager to another and refreshes on structural change only', () => {
    const a = new SchemaComponentManager({ v: 'f32' });
    const b = new SchemaComponentManager({ v: 'f32' });
    for (const e of [1, 2, 3]) a.create(e);
    for (const e of [3, 1]) b.create(e);
    const join = new Join(a, b);
    expect(Array.from(join.rows().subarray(0, 3))).toEqual([1, -1, 0]);
    const first = join.rows();
    expect(join.rows()).toBe(first);
    b.create(2);
    expect(Array.from(join.rows().subarray(0, 3))).toEqual([1, 2, 0]);
    expect(join.aligned).toBe(false);
    a.remove(1);
    expect(Array.from(join.rows().subarray(0, 2))).toEqual([0, 2]);
    const lockstep = new Join(b, a);
    a.clear();
    for (const e of [3, 1, 2]) a.create(e);
    lockstep.rows();
    expect(lockstep.aligned).toBe(true);
  });

  test('offset: a run of `to` rows is reported wherever it starts; anything else is -1', () => {
    const a = new SchemaComponentManager({ v: 'f32' });
    const b = new SchemaComponentManager({ v: 'f32' });
    for (const e of [7, 8]) a.create(e);
    for (const e of [5, 7, 8, 9]) b.create(e);
    const join = new Join(a, b);
    join.rows();
    expect([join.offset, join.aligned]).toEqual([1, false]);
    b.moveItem(0, 3); // 7 8 9 5
    join.rows();
    expect([join.offset, join.aligned]).toEqual([0, true]);
    b.moveItem(1, 2); // 7 9 8 5
    join.rows();
    expect(join.offset).toBe(-1);
    a.create(4); // not in b
    b.moveItem(2, 1); // 7 8 9 5
    join.rows();
    expect(join.offset).toBe(-1);
  });

  test('group puts from\'s entities in a run of to, in from\'s order, the rest keeping theirs; values follow their entities', () => {
    const c = new SchemaComponentManager({ v: 'f32' });
    const d = new SchemaComponentManager({ v: 'f32' });
    const e = new SchemaComponentManager({ v: 'f32' });
    // As simple_iter spawns them: C on every entity, D on every third from 2, E from 3.
    for (let entity = 1; entity <= 12; entity++) {
      const row = c.create(entity);
      c.fields.v[row] = entity * 10;
    }
    for (const entity of [11, 2, 5, 8]) d.create(entity);
    for (const entity of [3, 6, 9, 12]) e.create(entity);
    const dc = new Join(d, c);
    const ec = new Join(e, c);
    dc.group(0);
    expect(Array.from(c.entities.subarray(0, 12))).toEqual([11, 2, 5, 8, 1, 3, 4, 6, 7, 9, 10, 12]);
    ec.group(d.count);
    expect(Array.from(c.entities.subarray(0, 12))).toEqual([11, 2, 5, 8, 3, 6, 9, 12, 1, 4, 7, 10]);
    dc.rows();
    ec.rows();
    expect([dc.offset, ec.offset]).toEqual([0, 4]);
    for (let row = 0; row < c.count; row++) expect(c.fields.v[row]).toBe(c.getEntity(row) * 10);
    for (let entity = 1; entity <= 12; entity++) expect(c.getEntity(c.indexOf(entity))).toBe(entity);
  });

  test('group refuses a start out of range, or an entity to does not hold, and changes nothing', () => {
    const a = new SchemaComponentManager({ v: 'f32' });
    const b = new SchemaComponentManager({ v: 'f32' });
    for (const entity of [1, 2]) a.create(entity);
    for (const entity of [3, 2, 1]) b.create(entity);
    const join = new Join(a, b);
    const version = b.structureVersion;
    for (const start of [-1, 2, 0.5, Number.NaN]) expect(() => { join.group(start); }).toThrow(/start in \[0, 1\]/);
    a.create(4);
    expect(() => { join.group(0); }).toThrow(/entity 4 .* has no component in to/);
    a.create(5);
    expect(() => { join.group(0); }).toThrow(/from holds 4 components and to only 3/);
    a.remove(5);
    expect(() => { join.group(0); }).toThrow(EcsError);
    expect(Array.from(b.entities.subarray(0, 3))).toEqual([3, 2, 1]);
    expect(b.structureVersion).toBe(version);
  });

  test('group, for any managers and start: offset is start, the others keep their order, no component is lost', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 200 }), { minLength: 0, maxLength: 40 }), fc.integer({ min: 0, max: 2 ** 31 }), (toEntities, seed) => {
        const to = new SchemaComponentManager({ v: 'u32' });
        for (const entity of toEntities) {
          const row = to.create(entity);
          to.fields.v[row] = entity;
        }
        // from holds a pseudo-random subset of to's entities, in a shuffled order.
        let x = seed | 1;
        const next = (): number => { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; return x >>> 0; };
        const picked = toEntities.filter(() => next() % 3 === 0).sort(() => (next() % 2 === 0 ? -1 : 1));
        const from = new SchemaComponentManager({ v: 'u32' });
        for (const entity of picked) from.create(entity);
        const start = next() % (to.count - from.count + 1);
        const others = toEntities.filter((entity) => !picked.includes(entity));
        const join = new Join(from, to);
        join.group(start);
        join.rows();
        expect(join.offset).toBe(from.count === 0 ? 0 : start);
        const after = Array.from(to.entities.subarray(0, to.count));
        expect(after.slice(start, start + from.count)).toEqual(picked);
        expect([...after.slice(0, start), ...after.slice(start + from.count)]).toEqual(others);
        for (let row = 0; row < to.count; row++) expect(to.fields.v[row]).toBe(to.getEntity(row));
      }),
      { numRuns: 200 },
    );
  });
});
