// End to end: the bundled CLI as a real git merge driver in a temporary repository, on two
// branches that git's line merge cannot combine.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { parseSjson, writeSjson, type JsonObject } from '../src/index.ts';

const packageDir = join(import.meta.dirname, '..');
let dir = '';
let cli = '';

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: join(dir, 'repo'), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function level(edit: (doc: JsonObject) => void): string {
  const doc: JsonObject = {
    name: 'himalaya',
    settings: { gravity: -9.81, fog: 0.2, sky: 'day' },
    units: [
      { id: 'a', type: 'rock', position: [0, 0, 0] },
      { id: 'b', type: 'tree', position: [1, 0, 0] },
      { id: 'c', type: 'key', position: [2, 0, 0] },
    ],
  };
  edit(doc);
  return writeSjson(doc);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cuttle-merge-git-'));
  // The same bundle tsup makes of src/cli.ts for dist/cli.js, built into the temp folder so the
  // test never depends on a stale dist.
  cli = join(dir, 'cli.mjs');
  await build({ entryPoints: [join(packageDir, 'src/cli.ts')], bundle: true, platform: 'node', format: 'esm', outfile: cli, logLevel: 'silent' });
  execFileSync('git', ['init', '-q', '-b', 'main', join(dir, 'repo')]);
  git('config', 'user.name', 'Level Designer');
  git('config', 'user.email', 'ld@example.com');
  git('config', 'commit.gpgsign', 'false');
  writeFileSync(join(dir, 'repo', 'level.sjson'), level(() => undefined));
  git('add', '.');
  git('commit', '-q', '-m', 'base');
  git('checkout', '-q', '-b', 'anna');
  writeFileSync(
    join(dir, 'repo', 'level.sjson'),
    level((d) => {
      (d.settings as JsonObject).gravity = -5;
      (d.units as JsonObject[])[0]!.position = [0, 5, 0];
      (d.units as JsonObject[]).push({ id: 'd', type: 'lamp', position: [3, 0, 0] });
      (d.settings as JsonObject).sky = 'dusk';
    }),
  );
  git('commit', '-q', '-am', 'anna: lamp, gravity, sky');
  git('checkout', '-q', 'main');
  writeFileSync(
    join(dir, 'repo', 'level.sjson'),
    level((d) => {
      (d.settings as JsonObject).fog = 0.8;
      (d.units as JsonObject[])[2]!.position = [2, 0, 9];
      (d.units as JsonObject[]).push({ id: 'e', type: 'door', position: [4, 0, 0] });
      (d.settings as JsonObject).sky = 'night';
    }),
  );
  git('commit', '-q', '-am', 'bert: door, fog, sky');
});

afterAll(() => {
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

test('git alone cannot merge the two branches', () => {
  const r = spawnSync('git', ['merge', '--no-edit', 'anna'], { cwd: join(dir, 'repo'), encoding: 'utf8' });
  expect(r.status).not.toBe(0);
  expect(r.stdout + r.stderr).toMatch(/CONFLICT/);
  expect(readFileSync(join(dir, 'repo', 'level.sjson'), 'utf8')).toContain('<<<<<<<');
  git('merge', '--abort');
});

test('with the driver installed as the README says, the merge is clean and keeps every change', () => {
  git('config', 'merge.cuttle.name', 'cuttle structural JSON/SJSON merge');
  git('config', 'merge.cuttle.driver', `"${process.execPath}" "${cli}" git-driver %O %A %B %P`);
  writeFileSync(join(dir, 'repo', '.gitattributes'), '*.sjson merge=cuttle\n');
  const r = spawnSync('git', ['merge', '--no-edit', 'anna'], { cwd: join(dir, 'repo'), encoding: 'utf8' });
  expect(r.status, r.stdout + r.stderr).toBe(0);
  // The one real conflict (both changed the sky) is reported, and theirs (the right side) won.
  expect(r.stderr).toMatch(/conflict at settings\.sky \(both changed\); kept right: "dusk", lost left: "night"/);
  const merged = parseSjson(readFileSync(join(dir, 'repo', 'level.sjson'), 'utf8'));
  expect(merged).toEqual({
    name: 'himalaya',
    settings: { gravity: -5, fog: 0.8, sky: 'dusk' },
    units: [
      { id: 'a', type: 'rock', position: [0, 5, 0] },
      { id: 'b', type: 'tree', position: [1, 0, 0] },
      { id: 'c', type: 'key', position: [2, 0, 9] },
      { id: 'e', type: 'door', position: [4, 0, 0] },
      { id: 'd', type: 'lamp', position: [3, 0, 0] },
    ],
  });
  expect(git('status', '--porcelain')).toBe('?? .gitattributes\n');
  expect(git('log', '-1', '--format=%s')).toMatch(/Merge branch 'anna'/);
});

test('the bin points into dist and tsup builds it', () => {
  const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { bin: Record<string, string> };
  expect(pkg.bin['cuttle-merge']).toBe('./dist/cli.js');
  expect(readFileSync(join(packageDir, 'tsup.config.ts'), 'utf8')).toContain("'src/cli.ts'");
  expect(readFileSync(join(packageDir, 'src/cli.ts'), 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
  const help = spawnSync(process.execPath, [cli, '--help'], { encoding: 'utf8' });
  expect(help.status).toBe(0);
  expect(help.stderr).toContain('git config merge.cuttle.driver');
});
