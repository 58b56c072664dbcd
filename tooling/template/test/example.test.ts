import { expect, test } from 'vitest';
import { example, __CLASS__Error } from '../src/index.ts';

test('example repeats the value', () => {
  expect(Array.from(example(2, { times: 3 }))).toEqual([2, 2, 2]);
});

test('example rejects a bad count with a typed error', () => {
  expect(() => example(2, { times: -1 })).toThrow(__CLASS__Error);
});
