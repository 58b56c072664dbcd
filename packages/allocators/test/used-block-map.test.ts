import { expect, test } from 'vitest';
import fc from 'fast-check';
import { UsedBlockMap } from '../src/used-block-map.ts';

test('behaves like a Map under random set/delete/get sequences, through growth and wrap-around', () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.constantFrom('set', 'delete', 'get'), fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 1e6 })), { maxLength: 600 }),
      (ops) => {
        const map = new UsedBlockMap(4);
        const model = new Map<number, number>();
        for (const [op, key, value] of ops) {
          if (op === 'set') {
            map.set(key, value);
            model.set(key, value);
          } else if (op === 'delete') {
            expect(map.delete(key)).toBe(model.delete(key));
          } else {
            expect(map.get(key)).toBe(model.get(key) ?? -1);
          }
          expect(map.size).toBe(model.size);
        }
        for (const [key, value] of model) expect(map.get(key)).toBe(value);
      },
    ),
    { numRuns: 60 },
  );
});

test('large unit offsets (past 2^31) are ordinary keys', () => {
  const map = new UsedBlockMap();
  map.set(0xfffffffe, 7);
  map.set(2 ** 31 + 5, 8);
  expect(map.get(0xfffffffe)).toBe(7);
  expect(map.get(2 ** 31 + 5)).toBe(8);
  expect(map.delete(0xfffffffe)).toBe(true);
  expect(map.get(0xfffffffe)).toBe(-1);
});
