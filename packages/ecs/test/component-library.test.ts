import { expect, test } from 'vitest';
import { ComponentLibrary, EcsError, INVALID_ENTITY, ObjectComponentManager, SchemaComponentManager } from '../src/index.ts';

test('the library names and versions managers and removes an entity from all of them', () => {
  const world = new ComponentLibrary({ seed: 3 });
  const a = world.register('a', new SchemaComponentManager({ v: 'f32' }), { version: 3 });
  const ordered = world.register('ordered', new SchemaComponentManager({ v: 'u8' }), { ordered: true });
  const names = world.register('names', new ObjectComponentManager({ create: () => ({ name: '' }) }));
  expect(world.names).toEqual(['a', 'ordered', 'names']);
  expect(world.entry('a')?.version).toBe(3);
  expect(world.get('ordered')).toBe(ordered);
  const [e1, e2, e3] = [world.createEntity(), world.createEntity(), world.createEntity()];
  for (const e of [e1, e2, e3]) {
    a.create(e);
    ordered.create(e);
  }
  names.create(e1);
  world.removeEntity(e1);
  expect(world.hasEntity(e1)).toBe(false);
  expect(Array.from(ordered.entities.subarray(0, 2))).toEqual([e2, e3]); // order kept
  expect(Array.from(a.entities.subarray(0, 2))).toEqual([e3, e2]); // swapped with the last
});

test('a seeded library makes the same entities every time', () => {
  const ids = (): number[] => {
    const world = new ComponentLibrary({ seed: 11 });
    return [world.createEntity(), world.createEntity(), world.createEntity()];
  };
  expect(ids()).toEqual(ids());
});

test('registration misuse throws EcsError', () => {
  const world = new ComponentLibrary();
  const m = world.register('m', new SchemaComponentManager({ v: 'f32' }));
  expect(() => world.register('m', new SchemaComponentManager({ v: 'f32' }))).toThrow(EcsError);
  expect(() => world.register('other', m)).toThrow(EcsError);
  expect(() => world.register('', new SchemaComponentManager({ v: 'f32' }))).toThrow(EcsError);
  expect(() => world.register('v0', new SchemaComponentManager({ v: 'f32' }), { version: 0 })).toThrow(EcsError);
  expect(() => world.register('ser', new SchemaComponentManager({ v: 'f32' }), { serializer: { write: () => undefined, read: () => undefined } })).toThrow(EcsError);
  expect(() => world.register('mig', new ObjectComponentManager({ create: () => ({}) }), { migrate: () => undefined })).toThrow(EcsError);
  expect(() => world.get('missing')).toThrow(EcsError);
  expect(() => { world.removeEntity(INVALID_ENTITY); }).toThrow(EcsError);
});

test('bulk create from columns, truncate and the typed error on duplicates', () => {
  const m = new SchemaComponentManager({ p: { type: 'f32', length: 2 }, id: 'u16' });
  m.createFromColumns([5, 6], [Float32Array.of(1, 2, 3, 4), Uint16Array.of(50, 60)]);
  expect(m.indexOf(6)).toBe(1);
  expect(Array.from(m.fields.p.subarray(0, 4))).toEqual([1, 2, 3, 4]);
  expect(() => m.createFromColumns([7, 7], [new Float32Array(4), new Uint16Array(2)])).toThrow(EcsError);
  expect(() => m.createFromColumns([8, 5], [new Float32Array(4), new Uint16Array(2)])).toThrow(EcsError);
  expect(() => m.createFromColumns([9], [new Float32Array(1), new Uint16Array(1)])).toThrow(EcsError);
  expect(m.count).toBe(2);
  expect(m.contains(7) || m.contains(8)).toBe(false);
  m.truncate(1);
  expect(m.contains(6)).toBe(false);
  expect(m.count).toBe(1);
  expect(() => { m.truncate(3); }).toThrow(EcsError);
});
