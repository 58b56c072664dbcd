// Comments beside the value: where the parser anchors them, how the writer puts them back, how
// three versions' comments merge, and that none is dropped when its member goes away.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { idKindOf, mergeComments, parseSjsonDocument, writeSjson, type JsonObject, type JsonValue, type PathSegment, type SjsonComment } from '../src/index.ts';
import { anyDocument } from './arbitraries.ts';

test('comments are anchored above members and elements, after them on their line, and at ends', () => {
  // Written back as read: the same text.
  const source = `// top of the file
a = 1 // after a
/* before b,
   two lines */
b = {
    c = [1 2 3] // a vector
    // end of b
}
list = [
    // before the first element
    "x" /* same line */
    "y"
    // end of list
]
// end of file
`;
  const doc = parseSjsonDocument(source);
  expect(doc.comments).toEqual([
    { place: 'before', path: ['a'], text: ['// top of the file'] },
    { place: 'after', path: ['a'], text: ['// after a'] },
    { place: 'before', path: ['b'], text: ['/* before b,\n   two lines */'] },
    { place: 'after', path: ['b', 'c'], text: ['// a vector'] },
    { place: 'end', path: ['b'], text: ['// end of b'] },
    { place: 'before', path: ['list', { id: 'x' }], text: ['// before the first element'] },
    { place: 'after', path: ['list', { id: 'x' }], text: ['/* same line */'] },
    { place: 'end', path: ['list'], text: ['// end of list'] },
    { place: 'end', path: [], text: ['// end of file'] },
  ]);
  expect(writeSjson(doc.value, { comments: doc.comments })).toBe(source);
});

test('a commented numeric array is written one element a line; explicit roots and empty containers keep theirs', () => {
  const doc = parseSjsonDocument('v = [\n  1 // x\n  2\n]\nempty = {\n  // nothing yet\n}\n');
  expect(writeSjson(doc.value, { comments: doc.comments, indent: '  ' })).toBe('v = [\n  1 // x\n  2\n]\nempty = {\n  // nothing yet\n}\n');
  const explicit = parseSjsonDocument('// header\n{\n  "a": 1, // one\n  "b": [] // none\n}\n// trailer\n');
  expect(explicit.comments).toEqual([
    { place: 'before', path: [], text: ['// header'] },
    { place: 'after', path: ['a'], text: ['// one'] },
    { place: 'after', path: ['b'], text: ['// none'] },
    { place: 'end', path: [], text: ['// trailer'] },
  ]);
  expect(writeSjson(explicit.value, { comments: explicit.comments })).toBe('// header\na = 1 // one\nb = [] // none\n// trailer\n');
  expect(parseSjsonDocument('// only a comment\n')).toEqual({ value: {}, comments: [{ place: 'end', path: [], text: ['// only a comment'] }] });
});

test('a comment whose member is gone moves up to the nearest container that is still there', () => {
  const doc = parseSjsonDocument('a = {\n    b = {\n        // deep note\n        c = 1\n    }\n}\nd = 2 // about d\n');
  const value = doc.value as { a: Record<string, unknown>; d?: number };
  delete value.a.b;
  delete value.d;
  expect(writeSjson(doc.value, { comments: doc.comments })).toBe('a = {\n    // deep note\n}\n// about d\n');
});

test('bad comment options are refused', () => {
  expect(() => writeSjson({}, { comments: [{ place: 'middle', path: [], text: [] }] as unknown as SjsonComment[] })).toThrow(/comments must be/);
  expect(() => writeSjson({}, { indent: 'x' })).toThrow(/indent must be/);
});

test('comments merge anchor by anchor: one side\'s change is taken, both changes are kept, notes go with removed members', () => {
  const base = parseSjsonDocument('// level\na = 1\n// old b note\nb = 2\nc = 3 // c note\nd = 4 // d note\n');
  const left = parseSjsonDocument('// level, edited by Anna\na = 1\n// old b note\nb = 2\nc = 3 // c note, Anna\nd = 4 // d note\n');
  const right = parseSjsonDocument('// level\na = 1\n// new b note\nb = 2\nc = 3 // c note, Ben\ne = 5 // new e\n');
  // Right removed d (and its note); the merged data has no d either.
  const merged = { a: 1, b: 2, c: 3, e: 5 };
  const result = mergeComments(base.comments, left.comments, right.comments, merged);
  expect(writeSjson(merged, { comments: result.comments })).toBe('// level, edited by Anna\na = 1\n// new b note\nb = 2\nc = 3 // c note, Anna // c note, Ben\ne = 5 // new e\n');
  expect(result.notes).toEqual([{ path: ['c'], place: 'after', what: 'both changed: kept both', text: ['// c note, Anna', '// c note, Ben'] }]);
  // A note someone changed on a member the other side removed is kept, and said.
  const left2 = parseSjsonDocument('a = 1\nb = 2\nc = 3\nd = 4 // d note, still needed?\n');
  const kept = mergeComments(base.comments, left2.comments, right.comments, merged);
  expect(kept.notes).toContainEqual({ path: ['d'], place: 'after', what: 'its member was removed: kept at the enclosing object or array', text: ['// d note, still needed?'] });
  expect(writeSjson(merged, { comments: kept.comments })).toContain('// d note, still needed?');
});

test('property: comments written at any anchor read back at the same anchor', () => {
  fc.assert(
    fc.property(anyDocument, fc.array(fc.nat(), { maxLength: 6 }), (value, picks) => {
      if (value === null || typeof value !== 'object') return;
      // Every member and element, before it and after it; elements of id arrays by id.
      const anchors: SjsonComment[] = [];
      const walk = (node: JsonValue, path: PathSegment[]): void => {
        if (Array.isArray(node)) {
          const kind = idKindOf(node);
          node.forEach((child, i) => {
            const seg = kind === 'none' || kind === 'empty' ? i : { id: kind === 'string' ? (child as string) : ((child as JsonObject)[kind.key] as string | number) };
            anchors.push({ place: 'before', path: [...path, seg], text: [] }, { place: 'after', path: [...path, seg], text: [] });
            walk(child, [...path, seg]);
          });
          anchors.push({ place: 'end', path, text: [] });
        } else if (node !== null && typeof node === 'object') {
          for (const k of Object.keys(node)) {
            anchors.push({ place: 'before', path: [...path, k], text: [] }, { place: 'after', path: [...path, k], text: [] });
            walk(node[k]!, [...path, k]);
          }
          anchors.push({ place: 'end', path, text: [] });
        }
      };
      walk(value, []);
      if (picks.length === 0) return;
      const chosen = new Map<string, SjsonComment>();
      for (const [n, pick] of picks.entries()) {
        const a = anchors[pick % anchors.length]!;
        chosen.set(JSON.stringify([a.place, a.path]), { ...a, text: [n % 2 === 0 ? `// note ${n}` : `/* note\n ${n} */`] });
      }
      const comments = [...chosen.values()];
      const doc = parseSjsonDocument(writeSjson(value, { comments }));
      expect(doc.value).toEqual(value);
      const key = (c: SjsonComment): string => JSON.stringify([c.place, c.path, c.text]);
      expect(doc.comments.map(key).sort()).toEqual(comments.map(key).sort());
    }),
    { numRuns: 300 },
  );
});
