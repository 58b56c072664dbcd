import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { stripWgslComments } from '../src/strip-wgsl-comments.ts';

const root = join(import.meta.dirname, '..', '..', '..', 'packages');

describe('stripWgslComments', () => {
  test('removes line and nested block comments, keeps code and line breaks', () => {
    const source = ['// header', 'fn f(a: f32) -> f32 { // trailing', '  return a / 2.0; /* one /* nested */ still */', '  /* across', '  lines */ }', 'const x = 1 / 3;'].join('\n');
    const stripped = stripWgslComments(source);
    expect(stripped).toBe(['', 'fn f(a: f32) -> f32 {', '  return a / 2.0;', '', ' }', 'const x = 1 / 3;'].join('\n'));
    expect(stripped.split('\n')).toHaveLength(source.split('\n').length);
  });

  test('every shader of the packages keeps its code: only comments and trailing blanks go', () => {
    let files = 0;
    for (const pkg of readdirSync(root)) {
      const walk = (dir: string): void => {
        for (const entry of readdirSync(dir, { withFileTypes: true })) {
          const path = join(dir, entry.name);
          if (entry.isDirectory()) walk(path);
          else if (entry.name.endsWith('.wgsl')) {
            files++;
            const source = readFileSync(path, 'utf8');
            const stripped = stripWgslComments(source);
            expect(stripped.split('\n').length, path).toBe(source.split('\n').length);
            // Code tokens are the same once comments are gone from both (a crude, independent strip).
            const tokens = (text: string): string[] => text.replace(/\/\/[^\n]*/g, '').split(/\s+/).filter(Boolean);
            if (!source.includes('/*')) expect(tokens(stripped), path).toEqual(tokens(source));
            expect(stripped, path).not.toMatch(/\/\/|\/\*/);
          }
        }
      };
      walk(join(root, pkg, 'src'));
    }
    expect(files).toBeGreaterThan(40);
  });
});
