// The API report check on a fixture workspace in a temp folder (the real reports are never
// touched): missing and altered reports fail with the package's name and the update hint,
// an update makes them pass, a report no entry point makes is stale.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { checkApiReports, UPDATE_HINT } from '../src/api-report/check.ts';
import { publishedEntries } from '../src/api-report/entries.ts';

const root = resolve(import.meta.dirname, '../../..');
const scratch = mkdtempSync(join(tmpdir(), 'cuttle-api-report-test-'));
afterAll(() => { rmSync(scratch, { recursive: true, force: true }); });

function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

function fixture(): string {
  const packagesDir = join(scratch, 'packages');
  writeFiles(join(packagesDir, 'shapes'), {
    'package.json': JSON.stringify({
      name: '@fixture/shapes',
      exports: {
        '.': { types: './dist/index.d.ts', default: './dist/index.js' },
        './extra': { types: './dist/extra.d.ts', default: './dist/extra.js' },
        './schema.json': './schema.json',
        './package.json': './package.json',
      },
    }),
    // As tsup writes them: declarations, then one export list (so `Size` stays unexported).
    'dist/index.d.ts': 'interface Size {\n    width: number;\n}\n/** The area. */\ndeclare function area(size: Size): number;\nexport { area };\n',
    'dist/extra.d.ts': 'declare const EXTRA: GPUBufferUsageFlags;\nexport { EXTRA };\n',
  });
  writeFiles(join(packagesDir, 'secret'), {
    'package.json': JSON.stringify({ name: '@fixture/secret', private: true, exports: { '.': { types: './dist/index.d.ts' } } }),
  });
  return packagesDir;
}

test('every published package is found with each exports subpath that has its own .d.ts', () => {
  const names = publishedEntries(join(root, 'packages')).map((entry) => `${entry.packageName}:${entry.entry}`);
  expect(names).toContain('@cuttle/jobs:index');
  expect(names).toContain('@cuttle/jobs:worker');
  expect(names).toContain('@cuttle/flow-editor:view');
  expect(names.filter((name) => name.startsWith('@cuttle/flow:'))).toEqual(['@cuttle/flow:index']);
});

test('a missing or altered report fails naming the package; an update makes the check pass', () => {
  const packagesDir = fixture();
  const reportDir = join(packagesDir, 'shapes/api');
  expect(publishedEntries(packagesDir).map((entry) => entry.entry)).toEqual(['index', 'extra']);

  const missing = checkApiReports({ packagesDir, update: false });
  expect(missing.failures).toEqual([
    `@fixture/shapes: packages/shapes/api/index.api.md is missing; ${UPDATE_HINT}`,
    `@fixture/shapes: packages/shapes/api/extra.api.md is missing; ${UPDATE_HINT}`,
  ]);

  const updated = checkApiReports({ packagesDir, update: true });
  expect(updated.failures).toEqual([]);
  expect(updated.changed).toEqual(['wrote packages/shapes/api/index.api.md', 'wrote packages/shapes/api/extra.api.md']);
  const report = readFileSync(join(reportDir, 'index.api.md'), 'utf8');
  expect(report).toContain('export function area(size: Size): number;');
  expect(report).toContain('(ae-forgotten-export) The symbol "Size" needs to be exported by the entry point index.d.ts');
  expect(report).not.toContain(scratch);

  writeFileSync(join(reportDir, 'index.api.md'), report.replace('area(size: Size)', 'area(size: Size, scale: number)'));
  writeFileSync(join(reportDir, 'old.api.md'), 'a subpath that is gone\n');
  const altered = checkApiReports({ packagesDir, update: false });
  expect(altered.failures).toHaveLength(2);
  expect(altered.failures[0]).toMatch(/^@fixture\/shapes: packages\/shapes\/api\/index\.api\.md is out of date \(first difference at line \d+: .*scale: number.*\); run pnpm api:update and commit the report$/);
  expect(altered.failures[1]).toBe(`packages/shapes/api/old.api.md belongs to no entry point of the package's exports; ${UPDATE_HINT} (removal)`);

  expect(checkApiReports({ packagesDir, update: true }).changed).toEqual(['wrote packages/shapes/api/index.api.md', 'removed packages/shapes/api/old.api.md']);
  expect(checkApiReports({ packagesDir, update: false }).failures).toEqual([]);
  expect(readFileSync(join(reportDir, 'index.api.md'), 'utf8')).toBe(report);

  rmSync(join(packagesDir, 'shapes/dist/extra.d.ts'));
  expect(checkApiReports({ packagesDir, update: false }).failures).toEqual(['@fixture/shapes: packages/shapes/dist/extra.d.ts is missing; run pnpm build first']);
});
