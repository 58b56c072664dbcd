// `pnpm new-package` must give a package that builds, typechecks, lints, passes its tests and
// the publish checks with no further setup. This creates one and runs each of those on it.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');
const name = `zz-template-check-${process.pid}`;
const dir = join(root, 'packages', name);
const bin = (tool: string): string => join(root, 'node_modules', '.bin', tool);
const run = (tool: string, args: string[]): string => execFileSync(bin(tool), args, { cwd: dir, encoding: 'utf8', stdio: 'pipe' });

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

test('a package made from the template passes every check as is', () => {
  execFileSync(process.execPath, [join(root, 'tooling/scripts/new-package.mjs'), name, 'A template check.', '--no-install', `--dir=${dir}`], { stdio: 'pipe' });
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string; description: string; exports: Record<string, Record<string, string>> };
  expect(manifest.name).toBe(`@cuttle/${name}`);
  expect(manifest.description).toBe('A template check.');
  expect(Object.keys(manifest.exports['.']!)[0]).toBe('@cuttle/source');
  expect(readFileSync(join(dir, 'src/errors.ts'), 'utf8')).toContain('class ZzTemplateCheck');

  run('tsup', []);
  expect(existsSync(join(dir, 'dist/index.js'))).toBe(true);
  expect(existsSync(join(dir, 'dist/index.d.ts'))).toBe(true);
  run('tsc', ['-p', 'tsconfig.json']);
  run('eslint', ['.']);
  const tests = run('vitest', ['run', '--config', join(root, 'vitest.config.ts'), '--project', `@cuttle/${name}`]);
  expect(tests).toMatch(/2 passed/);
  run('publint', ['--strict']);
  run('attw', ['--pack', '.', '--profile', 'esm-only']);
}, 180_000);

test('bad package names are refused without creating anything', () => {
  expect(() => execFileSync(process.execPath, [join(root, 'tooling/scripts/new-package.mjs'), 'Bad_Name', '--no-install'], { stdio: 'pipe' })).toThrow(/not a valid package name/);
  expect(existsSync(join(root, 'packages', 'Bad_Name'))).toBe(false);
});
