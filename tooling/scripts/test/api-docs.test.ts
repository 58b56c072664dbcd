// The API reference tool (pnpm docs:api) on a fixture workspace in a temp folder: an
// undocumented export, a {@link} that resolves to nothing (in the package, or in another one)
// and a comment that is not TSDoc fail naming the symbol and its src/ line; a documented
// package passes, gets docs/api/index.md, and its committed reference is then checked; an
// incomplete package's reference is not written.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { apiDocs } from '../src/api-docs/generate.ts';

const scratch = mkdtempSync(join(tmpdir(), 'cuttle-api-docs-test-'));
afterAll(() => { rmSync(scratch, { recursive: true, force: true }); });

function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

const manifest = (name: string): string => JSON.stringify({ name, exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } } });

// The built .d.ts (what api-extractor reads) and the src/ it came from (where problems point).
const goodDts = [
  '/**',
  ' * The area of a rectangle.',
  ' * @param width - Width in metres, at least 0.',
  ' * @param height - Height in metres, at least 0.',
  ' * @returns The area in square metres.',
  ' * @throws RangeError when a side is negative.',
  ' */',
  'declare function area(width: number, height: number): number;',
  '/** A rectangle; see {@link area}. */',
  'interface Rect {',
  '    /** Width in metres. */',
  '    width: number;',
  '}',
  'export { area, type Rect };',
  '',
].join('\n');

const badDts = [
  '/** Scales {@link Missing} by {@link @fixture/good#area}. */',
  'declare function scale(factor: number): number;',
  'declare const LIMIT = 4;',
  '/** Shape options. */',
  'interface ShapeOptions {',
  '    sides: number;',
  '    /** See {@link @fixture/good#perimeter}. */',
  '    size: number;',
  '}',
  'export { LIMIT, scale, type ShapeOptions };',
  '',
].join('\n');

const badSrc = [
  '/** Scales {@link Missing} by {@link @fixture/good#area}. */',
  'export function scale(factor: number): number {',
  '  return factor;',
  '}',
  '',
  'export const LIMIT = 4;',
  '',
  '/** Shape options. */',
  'export interface ShapeOptions {',
  '  sides: number;',
  '  /** See {@link @fixture/good#perimeter}. */',
  '  size: number;',
  '}',
  '',
].join('\n');

function fixture(): string {
  const packagesDir = join(scratch, 'packages');
  writeFiles(join(packagesDir, 'good'), { 'package.json': manifest('@fixture/good'), 'dist/index.d.ts': goodDts, 'src/index.ts': '' });
  writeFiles(join(packagesDir, 'bad'), { 'package.json': manifest('@fixture/bad'), 'dist/index.d.ts': badDts, 'src/shapes.ts': badSrc });
  return packagesDir;
}

test('an undocumented export or member and a broken {@link} fail naming the symbol; a documented package passes and its reference is checked', () => {
  const packagesDir = fixture();

  const bad = apiDocs({ packagesDir, only: ['bad'], check: false });
  const failures = bad.failures.join('\n');
  expect(failures).toMatch(/packages\/bad\/src\/shapes\.ts:6 \(packages\/bad\/dist\/index\.d\.ts:3\) LIMIT: \(ae-undocumented\) Missing documentation for "LIMIT"/);
  expect(failures).toMatch(/packages\/bad\/src\/shapes\.ts:10 \(packages\/bad\/dist\/index\.d\.ts:6\) ShapeOptions\.sides: \(ae-undocumented\)/);
  expect(failures).toMatch(/packages\/bad\/src\/shapes\.ts:2 \(packages\/bad\/dist\/index\.d\.ts:\d\) scale: \(ae-unresolved-link\) The @link reference could not be resolved: .*"Missing"/);
  expect(failures).toMatch(/packages\/bad\/src\/shapes\.ts:12 ShapeOptions\.size: \(unresolved-link\) \{@link @fixture\/good#perimeter\} resolves to nothing/);
  // The link to a symbol the other package has is fine.
  expect(failures).not.toContain('@fixture/good#area');
  expect(bad.failures).toHaveLength(4);
  // An incomplete reference is not written.
  expect(bad.changed).toEqual(['skipped packages/bad/docs/api: its doc comments have problems (listed below)']);

  const good = apiDocs({ packagesDir, only: ['good'], check: false });
  expect(good.failures).toEqual([]);
  expect(good.documented).toEqual({ good: { documented: 3, items: 3 } });
  expect(good.changed).toContain('wrote packages/good/docs/api/index.md');
  const index = readFileSync(join(packagesDir, 'good/docs/api/index.md'), 'utf8');
  expect(index).toContain('[area(width, height)](./good.area.md)');
  expect(readFileSync(join(packagesDir, 'good/docs/api/good.area.md'), 'utf8')).toContain('Width in metres, at least 0.');

  expect(apiDocs({ packagesDir, only: ['good'], check: true }).failures).toEqual([]);
  writeFileSync(join(packagesDir, 'good/docs/api/good.area.md'), 'edited by hand\n');
  writeFileSync(join(packagesDir, 'good/docs/api/old.md'), 'a page of a removed export\n');
  expect(apiDocs({ packagesDir, only: ['good'], check: true }).failures).toEqual([
    'packages/good/docs/api is out of date (differs: good.area.md, stale: old.md); run pnpm docs:api and commit packages/good/docs/api',
  ]);

  // A comment that is not TSDoc (a JSDoc @param without the hyphen, an unknown tag) fails too.
  writeFileSync(join(packagesDir, 'good/dist/index.d.ts'), goodDts.replace('@param width - Width', '@param width Width').replace(' * @returns', ' * @default 1\n * @returns'));
  const syntax = apiDocs({ packagesDir, only: ['good'], check: false }).failures.join('\n');
  expect(syntax).toMatch(/area: \(tsdoc-param-tag-missing-hyphen\)/);
  expect(syntax).toMatch(/area: \(tsdoc-undefined-tag\)/);
});
