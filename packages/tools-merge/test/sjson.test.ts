import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseSjson, SjsonParseError, ToolsMergeError, writeJson, writeSjson, type JsonValue } from '../src/index.ts';
import { anyDocument } from './arbitraries.ts';

describe('parseSjson', () => {
  test('reads the SJSON dialect: implicit root, = and :, bare keys, optional commas, comments, raw strings', () => {
    const text = [
      '// a level file',
      'name = "himalaya"',
      'size: [1024 512, 64]',
      '/* block',
      '   comment */',
      'settings = { gravity = -9.81, "fog color" = [0.5 0.5 0.6] enabled = true }',
      'script = """',
      'print("hi")',
      '"""',
      'nothing = null',
    ].join('\n');
    expect(parseSjson(text)).toEqual({
      name: 'himalaya',
      size: [1024, 512, 64],
      settings: { gravity: -9.81, 'fog color': [0.5, 0.5, 0.6], enabled: true },
      script: '\nprint("hi")\n',
      nothing: null,
    });
  });

  test('reads plain JSON exactly as JSON.parse does', () => {
    const doc = { a: [1, 2, { b: 'c\n\u00e9"\\' }], d: { e: null, f: false }, g: 1.5e-7 };
    expect(parseSjson(JSON.stringify(doc))).toEqual(JSON.parse(JSON.stringify(doc)));
    expect(parseSjson(JSON.stringify(doc, null, 2))).toEqual(doc);
    expect(parseSjson('[1, "two", 3]')).toEqual([1, 'two', 3]);
    expect(parseSjson('"alone"')).toBe('alone');
    expect(parseSjson('42')).toBe(42);
    expect(parseSjson('')).toEqual({});
    expect(parseSjson('\uFEFF{"bom": 1}')).toEqual({ bom: 1 });
  });

  test('errors carry line and column and say what to do', () => {
    const bad = 'a = 1\nb = {\n  c = [1 2\n}\n';
    try {
      parseSjson(bad, { source: 'level.sjson' });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(SjsonParseError);
      expect(e).toBeInstanceOf(ToolsMergeError);
      const err = e as SjsonParseError;
      expect(err.line).toBe(4);
      expect(err.column).toBe(1);
      expect(err.message).toMatch(/^level\.sjson:4:1: /);
    }
    const cases: [string, number, number][] = [
      ['a = ', 1, 5],
      ['a = "open', 1, 5],
      ['a = tru', 1, 5],
      ['a = 1\nb 2', 2, 3],
      ['a = "\\q"', 1, 6],
      ['a = 1.2.3', 1, 5],
      ['{"a": 1} x', 1, 10],
      ['/* never closed', 1, 1],
      ['a = """raw', 1, 5],
      ['a = 12abc', 1, 7],
    ];
    for (const [text, line, column] of cases) {
      let caught: unknown;
      try {
        parseSjson(text);
      } catch (e) {
        caught = e;
      }
      expect(caught, text).toBeInstanceOf(SjsonParseError);
      expect([(caught as SjsonParseError).line, (caught as SjsonParseError).column], text).toEqual([line, column]);
    }
  });

  test('refuses absurd nesting with a parse error, not a stack overflow', () => {
    expect(() => parseSjson('['.repeat(100_000))).toThrow(SjsonParseError);
    // Valid JSON too deep for the merge's recursion is refused the same way.
    expect(() => parseSjson('['.repeat(3000) + ']'.repeat(3000))).toThrow(/nesting deeper than 2000/);
    expect(parseSjson('['.repeat(1000) + ']'.repeat(1000))).toBeInstanceOf(Array);
  });

  test('plain JSON takes the native fast path with the same results, and the same errors', () => {
    expect(() => parseSjson('{"a": 1e400}')).toThrow(/1:7: bad number "1e400"/);
    expect(() => parseSjson('{"a": [1, 2,, 3]}')).toThrow(SjsonParseError);
    expect(Object.is((parseSjson('[-0]') as number[])[0], -0)).toBe(true);
    expect(parseSjson('\uFEFF  {"a": {"b": [true, null]}}')).toEqual({ a: { b: [true, null] } });
  });

  test('__proto__, constructor and prototype are plain data keys', () => {
    const doc = parseSjson('__proto__ = { polluted = true }\nconstructor = 1\nprototype = "p"') as Record<string, JsonValue>;
    expect(Object.getPrototypeOf(doc)).toBe(Object.prototype);
    expect(Object.keys(doc)).toEqual(['__proto__', 'constructor', 'prototype']);
    expect(Object.hasOwn(doc, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(parseSjson(writeSjson(doc))).toEqual(doc);
    const json = parseSjson('{"__proto__": {"polluted": 1}}') as Record<string, JsonValue>;
    expect(Object.getPrototypeOf(json)).toBe(Object.prototype);
    expect(json.__proto__).toEqual({ polluted: 1 });
  });

  test('random text never crashes the parser: it returns or throws SjsonParseError', () => {
    const alphabet = fc.constantFrom('{', '}', '[', ']', '"', '"""', '=', ':', ',', ' ', '\n', 'a', '1', '-', '.', 'e', '/', '*', '\\', 'true', 'null', '#');
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 40 }), (parts) => {
        try {
          parseSjson(parts.join(''));
        } catch (e) {
          if (!(e instanceof SjsonParseError)) throw e;
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('writeSjson / writeJson', () => {
  test('stable layout: one member per line, short numeric arrays inline, implicit root', () => {
    const doc = { name: 'box', position: [0, 1.5, -0], tags: ['a', 'b'], 'odd key': { inner: {} }, empty: [] };
    expect(writeSjson(doc)).toBe(
      'name = "box"\nposition = [0 1.5 -0]\ntags = [\n    "a"\n    "b"\n]\n"odd key" = {\n    inner = {}\n}\nempty = []\n',
    );
    expect(writeJson(doc, { indent: '  ' })).toBe(
      '{\n  "name": "box",\n  "position": [0, 1.5, -0],\n  "tags": [\n    "a",\n    "b"\n  ],\n  "odd key": {\n    "inner": {}\n  },\n  "empty": []\n}\n',
    );
  });

  test('refuses values JSON cannot hold', () => {
    expect(() => writeSjson({ a: Number.NaN })).toThrow(ToolsMergeError);
    expect(() => writeJson({ a: Infinity })).toThrow(/finite/);
  });

  test('round trip: parse(write(x)) equals x and writing is a fixed point, for SJSON and JSON', () => {
    fc.assert(
      fc.property(anyDocument, (doc) => {
        const sjson = writeSjson(doc);
        const back = parseSjson(sjson);
        expect(back).toEqual(doc);
        expect(writeSjson(back)).toBe(sjson);
        const json = writeJson(doc);
        expect(parseSjson(json)).toEqual(doc);
        if (!JSON.stringify(doc).includes('-0')) expect(JSON.parse(json)).toEqual(doc);
      }),
      { numRuns: 500 },
    );
  });
});
