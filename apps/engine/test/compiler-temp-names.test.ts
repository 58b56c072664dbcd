// Temporary files live in the output's own .cuttle-tmp folder, a name no source can produce:
// the start-of-compile sweep never touches an output, whatever its source is called.
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { compileProject } from '../src/compiler/compile-project.ts';
import { scratchProject, type Scratch } from './helpers.ts';

let project: Scratch;
beforeEach(() => {
  project = scratchProject();
});
afterEach(() => {
  project.dispose();
});

describe('temporary file names', () => {
  test('a source whose name contains .tmp- keeps its output between compiles', async () => {
    copyFileSync(join(project.source, 'materials/wood.material'), join(project.source, 'materials/wood.tmp-1-abc.material'));
    const first = await compileProject(project.source, project.out);
    expect(first.failed).toEqual([]);
    const output = join(project.out, 'materials/wood.tmp-1-abc.material.cr');
    expect(existsSync(output)).toBe(true);
    const second = await compileProject(project.source, project.out);
    expect(second.compiled).toEqual([]);
    expect(existsSync(output)).toBe(true);
  });

  test('the sweep empties .cuttle-tmp and leaves other files in the output alone', async () => {
    mkdirSync(join(project.out, '.cuttle-tmp'), { recursive: true });
    mkdirSync(join(project.out, 'notes'), { recursive: true });
    const leftover = join(project.out, '.cuttle-tmp', '999999999-dead-wood.material.cr');
    writeFileSync(leftover, 'half');
    writeFileSync(join(project.out, 'notes', 'draft.tmp-1-x'), 'not the compiler\'s');
    expect((await compileProject(project.source, project.out)).failed).toEqual([]);
    expect(existsSync(leftover)).toBe(false);
    expect(existsSync(join(project.out, 'notes', 'draft.tmp-1-x'))).toBe(true);
  });
});
