import fc from 'fast-check';
import { expect, test } from 'vitest';
import { FlowGraphError, parseSjson } from '../src/index.ts';

test('reads SJSON: bare root, bare keys, = separators, optional commas, comments', () => {
  const text = `
    // a unit graph
    flow = 1
    kind = "unit"
    nodes = [
      { id = "a" type = "logic/once" }   /* no commas */
      { id = "b", type = "math/add", inputs = { a = 1.5e2, b = -2 } }
    ]
    "quoted key": true
  `;
  expect(parseSjson(text)).toEqual({
    flow: 1,
    kind: 'unit',
    nodes: [{ id: 'a', type: 'logic/once' }, { id: 'b', type: 'math/add', inputs: { a: 150, b: -2 } }],
    'quoted key': true,
  });
});

test('reads any JSON document the same as JSON.parse', () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
      const text = JSON.stringify(value);
      expect(parseSjson(text)).toEqual(JSON.parse(text));
    }),
    { numRuns: 300 },
  );
});

test.each([
  ['unterminated object', '{ a = 1', /unterminated object/],
  ['unterminated string', 'a = "x', /unterminated string/],
  ['missing separator', 'a 1', /expected ":" or "="/],
  ['missing value', 'a =', /value is missing/],
  ['duplicate key', 'a = 1\na = 2', /duplicate key "a"/],
  ['trailing garbage', '{} x', /after the document/],
])('rejects %s with a typed error', (_name, text, message) => {
  expect(() => parseSjson(text)).toThrow(FlowGraphError);
  expect(() => parseSjson(text)).toThrow(message);
});
