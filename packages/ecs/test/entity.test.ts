import fc from 'fast-check';
import { expect, test } from 'vitest';
import { createEntity, EcsError, EntityGenerator, EntityLookup, INVALID_ENTITY, remapEntity } from '../src/index.ts';

test('a seeded generator is deterministic and never repeats or returns INVALID_ENTITY', () => {
  const a = new EntityGenerator(42);
  const b = new EntityGenerator(42);
  const first = Array.from({ length: 100_000 }, () => a.next());
  const second = Array.from({ length: 100_000 }, () => b.next());
  expect(first).toEqual(second);
  const seen = new Set(first);
  expect(seen.size).toBe(100_000);
  expect(seen.has(INVALID_ENTITY)).toBe(false);
  expect(first.every((id) => id > 0 && id < 2 ** 31)).toBe(true);
});

test('different seeds give different sequences', () => {
  const a = new EntityGenerator(1);
  const b = new EntityGenerator(2);
  const first = Array.from({ length: 8 }, () => a.next());
  const second = Array.from({ length: 8 }, () => b.next());
  expect(first).not.toEqual(second);
});

test('createEntity gives valid unique ids', () => {
  const ids = new Set(Array.from({ length: 1000 }, () => createEntity()));
  expect(ids.size).toBe(1000);
  expect(ids.has(0)).toBe(false);
});

test('nextSeed never returns a seed that leaves ids unchanged', () => {
  const g = new EntityGenerator(7);
  const seeds = Array.from({ length: 10_000 }, () => g.nextSeed());
  expect(seeds.every((seed) => seed >= 2 && seed < 2 ** 32)).toBe(true);
});

test('bad generator seeds throw EcsError', () => {
  expect(() => new EntityGenerator(-1)).toThrow(EcsError);
  expect(() => new EntityGenerator(1.5)).toThrow(EcsError);
  expect(() => new EntityGenerator(2 ** 32)).toThrow(EcsError);
});

test('remapEntity is the post formula: seed 0 keeps ids, INVALID stays INVALID, and it is a bijection on 31 bits', () => {
  expect(remapEntity(12345, 0)).toBe(12345);
  expect(remapEntity(INVALID_ENTITY, 99)).toBe(INVALID_ENTITY);
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 2, max: 2 ** 32 - 1 }), (x, y, seed) => {
      const rx = remapEntity(x, seed);
      expect(rx).toBe((((x << 1) ^ seed) >>> 1));
      expect(rx < 2 ** 31).toBe(true);
      if (x !== y) expect(rx).not.toBe(remapEntity(y, seed));
      // Applying the same seed twice gives the id back (xor).
      expect(remapEntity(rx === 0 ? x : rx, seed)).toBe(rx === 0 ? rx : x);
    }),
    { numRuns: 500 },
  );
});

test('EntityLookup behaves like a Map under random set/delete/get', () => {
  const op = fc.oneof(
    fc.record({ kind: fc.constant('set' as const), key: fc.integer({ min: 1, max: 64 }), value: fc.integer({ min: 0, max: 1000 }) }),
    fc.record({ kind: fc.constant('delete' as const), key: fc.integer({ min: 1, max: 64 }) }),
    fc.record({ kind: fc.constant('clear' as const) }),
  );
  fc.assert(
    fc.property(fc.array(op, { maxLength: 300 }), fc.integer({ min: 1, max: 2 ** 31 - 1 }), (ops, spread) => {
      const lookup = new EntityLookup();
      const map = new Map<number, number>();
      // Spread small keys over the u32 range so collisions and wrap-around both happen.
      const key = (k: number): number => (Math.imul(k, spread) >>> 0) || 1;
      for (const o of ops) {
        if (o.kind === 'set') {
          lookup.set(key(o.key), o.value);
          map.set(key(o.key), o.value);
        } else if (o.kind === 'delete') {
          expect(lookup.delete(key(o.key))).toBe(map.delete(key(o.key)));
        } else {
          lookup.clear();
          map.clear();
        }
        expect(lookup.size).toBe(map.size);
      }
      for (let k = 1; k <= 64; k++) expect(lookup.get(key(k))).toBe(map.get(key(k)) ?? -1);
    }),
    { numRuns: 300 },
  );
});

test('EntityLookup survives growth and deletion of many keys', () => {
  const lookup = new EntityLookup();
  const g = new EntityGenerator(3);
  const keys = Array.from({ length: 50_000 }, () => g.next());
  keys.forEach((k, i) => { lookup.set(k, i); });
  for (let i = 0; i < keys.length; i += 2) lookup.delete(keys[i]!);
  let wrong = 0;
  for (let i = 0; i < keys.length; i++) if (lookup.get(keys[i]!) !== (i % 2 === 0 ? -1 : i)) wrong++;
  expect(wrong).toBe(0);
  expect(lookup.size).toBe(25_000);
  lookup.reserve(100_000);
  expect(lookup.get(keys[1]!)).toBe(1);
});
