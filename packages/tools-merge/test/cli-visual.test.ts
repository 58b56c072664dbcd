import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { diffLines, merge, mergeLines, parseSjson, renderHtml, renderTerminal, valueAt } from '../src/index.ts';
import { runCli } from '../src/node.ts';

const base = parseSjson('units = [ {id = "a", x = 1} {id = "b", x = 2} ]\nname = "lvl"\nfog = 0.1');
const left = parseSjson('units = [ {id = "a", x = 10} {id = "b", x = 2} {id = "c", x = 3} ]\nname = "lvl"\nfog = 0.5');
const right = parseSjson('units = [ {id = "b", x = 2} ]\nname = "level"\nfog = 0.9');

describe('visual diff and merge view', () => {
  test('diff lines: same, removed and added, laid out as SJSON', () => {
    const text = renderTerminal(diffLines(base, left), { color: false });
    expect(text).toBe(
      [
        '  units = [',
        '      {',
        '          id = "a"',
        '-         x = 1',
        '+         x = 10',
        '      }',
        '      {',
        '          id = "b"',
        '          x = 2',
        '      }',
        '+     {',
        '+         id = "c"',
        '+         x = 3',
        '+     }',
        '  ]',
        '  name = "lvl"',
        '- fog = 0.1',
        '+ fog = 0.5',
        '',
      ].join('\n'),
    );
  });

  test('merge lines say which side each change came from, conflicts marked and listed', () => {
    const result = merge(base, left, right);
    const lines = mergeLines(base, left, right, result);
    const tagged = lines.filter((l) => l.kind !== 'same').map((l) => `${l.origin} ${l.kind} ${l.text}`);
    expect(tagged).toEqual([
      'conflict remove {',
      'conflict remove id = "a"',
      'conflict remove x = 1',
      'conflict remove }',
      'left add {',
      'left add id = "c"',
      'left add x = 3',
      'left add }',
      'right remove name = "lvl"',
      'right add name = "level"',
      'conflict remove fog = 0.1',
      'conflict add fog = 0.9',
    ]);
    const text = renderTerminal(lines, { color: true, conflicts: result.conflicts });
    expect(text).toContain('\u001b[32m');
    expect(text).toContain('conflict at fog (both changed): kept right');
    expect(text).toContain('conflict at units[id="a"] (removed on one side, changed on the other): kept right');
  });

  test('the HTML page is self-contained and escapes content', () => {
    const evil = parseSjson('name = "</span><script>alert(1)</script>"');
    const html = renderHtml(diffLines({}, evil), { title: 'a <b> test' });
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('a &lt;b&gt; test');
    expect(html).not.toMatch(/src=|href=|@import/);
  });

  test('runs of unchanged elements collapse; folded elements keep their id; vectors change as one line', () => {
    const units = Array.from({ length: 10 }, (_, i) => ({ id: `u${i}`, position: [i, 0, 0], mesh: 'crate', mass: 1, tags: ['a', 'b'], lod: 2, shadow: true }));
    const edited = units.map((u) => (u.id === 'u4' ? { ...u, position: [4, 1, 0] } : u));
    const text = renderTerminal(diffLines({ units }, { units: edited }), { color: false });
    expect(text).toContain('      { id = "u0" … 7 keys }\n      … 2 unchanged items …\n      { id = "u3" … 7 keys }\n');
    expect(text).toContain('-         position = [4 0 0]\n+         position = [4 1 0]\n');
    expect(text).toContain('      { id = "u5" … 7 keys }\n      … 3 unchanged items …\n      { id = "u9" … 7 keys }\n');
  });

  test('valueAt walks keys, indices and ids', () => {
    expect(valueAt(left, ['units', { id: 'c' }, 'x'])).toBe(3);
    expect(valueAt(left, ['units', 1, 'id'])).toBe('b');
    expect(valueAt(left, ['nope', 1])).toBeUndefined();
  });
});

describe('cuttle-merge diff / merge', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cuttle-cli-'));
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const out: string[] = [];
  const err: string[] = [];
  const io = { stdout: (s: string) => out.push(s), stderr: (s: string) => err.push(s) };
  const file = (name: string, text: string): string => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };

  test('diff prints the structural diff, --json the op list, --html a page', () => {
    const a = file('a.sjson', 'x = 1\ny = [1 2 3]\n');
    const b = file('b.sjson', 'x = 2\ny = [1 3]\n');
    out.length = 0;
    expect(runCli(['diff', a, b], io)).toBe(0);
    expect(out.join('')).toContain('- x = 1\n+ x = 2\n');
    out.length = 0;
    expect(runCli(['diff', a, b, '--json', '--html', join(dir, 'd.html')], io)).toBe(0);
    expect(JSON.parse(out.join(''))).toEqual([
      { op: 'set', path: ['x'], value: 2 },
      { op: 'splice', path: ['y'], index: 1, remove: 1, insert: [] },
    ]);
    expect(readFileSync(join(dir, 'd.html'), 'utf8')).toContain('<div class="l remove">');
  });

  test('merge writes the result in the file format and reports every losing change', () => {
    const b = file('base.json', '{"a": 1, "b": 1}');
    const l = file('left.json', '{"a": 2, "b": 1}');
    const r = file('right.json', '{"a": 3, "b": 5}');
    out.length = 0;
    err.length = 0;
    expect(runCli(['merge', b, l, r], io)).toBe(0);
    expect(out.join('')).toBe('{\n    "a": 3,\n    "b": 5\n}\n');
    expect(err.join('')).toContain('conflict at a (both changed); kept right: 3, lost left: 2');
    expect(runCli(['merge', b, l, r, '--policy', 'left', '-o', join(dir, 'out.sjson'), '--html', join(dir, 'm.html')], io)).toBe(0);
    expect(readFileSync(join(dir, 'out.sjson'), 'utf8')).toBe('a = 2\nb = 5\n');
    expect(readFileSync(join(dir, 'm.html'), 'utf8')).toContain('Conflicts (every losing change)');
  });

  test('bad input: exit code 2 and a message with file, line and column', () => {
    const bad = file('bad.sjson', 'a = 1\nb = [1 2\n');
    const ok = file('ok.sjson', 'a = 1\n');
    err.length = 0;
    expect(runCli(['merge', ok, bad, ok], io)).toBe(2);
    expect(err.join('')).toContain(`${bad}:3:1: unexpected end of the document`);
    expect(runCli(['merge', ok], io)).toBe(2);
    expect(runCli(['merge', ok, ok, ok, '--policy', 'middle'], io)).toBe(2);
    expect(runCli(['frobnicate'], io)).toBe(2);
    expect(runCli(['diff', join(dir, 'missing.sjson'), ok], io)).toBe(2);
    expect(runCli([], io)).toBe(0);
    // As a git driver, a file that does not parse fails the driver, so git keeps its conflict.
    expect(runCli(['git-driver', ok, bad, ok, 'level.sjson'], io)).toBe(2);
    expect(readFileSync(bad, 'utf8')).toBe('a = 1\nb = [1 2\n');
  });
});

test('git-driver keeps a side byte for byte when data and comments equal it, and merges comments otherwise', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cuttle-driver-'));
  try {
    const notes: string[] = [];
    const io = { stdout: () => undefined, stderr: (s: string) => void notes.push(s) };
    writeFileSync(join(dir, 'O'), 'a = 1\nb = 1\n');
    writeFileSync(join(dir, 'A'), 'a = 1\nb = 1\n');
    writeFileSync(join(dir, 'B'), '// theirs, commented\na  =  2 // odd spacing kept\nb = 1\n');
    expect(runCli(['git-driver', join(dir, 'O'), join(dir, 'A'), join(dir, 'B'), 'level.sjson'], io)).toBe(0);
    expect(readFileSync(join(dir, 'A'), 'utf8')).toBe('// theirs, commented\na  =  2 // odd spacing kept\nb = 1\n');
    // Both sides commented the same member differently: both notes stay, and it is said.
    writeFileSync(join(dir, 'A'), '// ours\na = 1\nb = 3\n');
    expect(runCli(['git-driver', join(dir, 'O'), join(dir, 'A'), join(dir, 'B'), 'level.sjson'], io)).toBe(0);
    expect(readFileSync(join(dir, 'A'), 'utf8')).toBe('// ours\n// theirs, commented\na = 2 // odd spacing kept\nb = 3\n');
    expect(notes.join('')).toContain('comment before a: both changed: kept both');
    // Ours only added a comment, theirs changed data: the result is neither side, the comment stays.
    writeFileSync(join(dir, 'A'), 'a = 1\n// ours\nb = 1\n');
    writeFileSync(join(dir, 'B'), 'a = 5\nb = 1\n');
    expect(runCli(['git-driver', join(dir, 'O'), join(dir, 'A'), join(dir, 'B'), 'level.sjson'], io)).toBe(0);
    expect(readFileSync(join(dir, 'A'), 'utf8')).toBe('a = 5\n// ours\nb = 1\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
