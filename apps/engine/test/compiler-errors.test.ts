// Bad sources: each error names the file, line and column and says what to fix; a missing
// reference is reported in the file that refers to it; a failed compile keeps the previous
// output and is retried next time; the CLI exits 1 and prints the errors.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { compileProject } from '../src/compiler/compile-project.ts';
import { readManifest } from '../src/compiler/manifest.ts';
import { runCli, scratchProject, type Scratch } from './helpers.ts';

let project: Scratch;
beforeEach(() => {
  project = scratchProject();
});
afterEach(() => {
  project.dispose();
});

async function firstError(): Promise<{ file: string; line: number; column: number; problem: string; fix: string }> {
  const report = await compileProject(project.source, project.out);
  expect(report.failed.length).toBe(1);
  return report.failed[0]!.error;
}

describe('compile errors', () => {
  test('a value out of range: file, line, column and the fix', async () => {
    project.edit('materials/wood.material', 'roughness = 0.7', 'roughness = 1.7');
    const error = await firstError();
    expect(error).toMatchObject({ file: 'materials/wood.material', line: 3, column: 13 });
    expect(error.problem).toContain('roughness');
    expect(error.problem).toContain('1.7');
  });

  test('a missing reference is reported where it is referred to', async () => {
    project.edit('levels/courtyard.level', 'unit = "units/column"', 'unit = "units/colum"');
    const error = await firstError();
    const lines = readFileSync(join(project.source, 'levels/courtyard.level'), 'utf8').split('\n');
    expect(error.file).toBe('levels/courtyard.level');
    expect(lines[error.line - 1]!.slice(error.column - 1)).toBe('"units/colum"');
    expect(error.problem).toBe('refers to units/colum.unit, which does not exist');
    expect(error.fix).toContain('units/column');
  });

  test('a syntax error', async () => {
    project.edit('units/crate.unit', 'material = "materials/wood"', 'material = {');
    const report = await compileProject(project.source, project.out);
    const crate = report.failed.find((f) => f.path === 'units/crate.unit')!;
    expect(crate.error.problem).toContain('does not parse');
    expect(crate.error.line).toBeGreaterThan(1);
    // The level places crates and reads the unit: it fails too, pointing at its own reference.
    expect(report.failed.map((f) => f.path).sort()).toEqual(['levels/courtyard.level', 'units/crate.unit']);
  });

  test('a misspelt key, a Flow graph with an unknown node type, a duplicate unit id', async () => {
    project.edit('materials/brass.material', 'metallic', 'metalic');
    project.edit('flow/courtyard.flow', 'action/set_title', 'action/set_titel');
    project.edit('levels/courtyard.level', 'id = "crate_001"', 'id = "crate_000"');
    const report = await compileProject(project.source, project.out);
    const byPath = Object.fromEntries(report.failed.map((f) => [f.path, f.error]));
    expect(byPath['materials/brass.material']!.problem).toContain('metalic');
    expect(byPath['flow/courtyard.flow']!.problem).toContain('unknown-type');
    expect(byPath['flow/courtyard.flow']!.fix).toContain('action/set_title');
    expect(byPath['levels/courtyard.level']!.problem).toBe('unit id "crate_000" is used twice');
    const level = readFileSync(join(project.source, 'levels/courtyard.level'), 'utf8').split('\n');
    expect(level[byPath['levels/courtyard.level']!.line - 1]).toContain('id = "crate_000"');
  });

  test('a failed compile keeps the previous output, and is retried until it succeeds', async () => {
    await compileProject(project.source, project.out);
    const before = readFileSync(join(project.out, 'materials/wood.material.cr'));
    const entry = readManifest(project.out)!.resources['materials/wood.material'];
    project.edit('materials/wood.material', 'roughness = 0.7', 'roughness = -1');
    const failed = await compileProject(project.source, project.out);
    expect(failed.failed.map((f) => f.path)).toEqual(['materials/wood.material']);
    expect(readFileSync(join(project.out, 'materials/wood.material.cr'))).toEqual(before);
    expect(readManifest(project.out)!.resources['materials/wood.material']).toEqual(entry);
    expect((await compileProject(project.source, project.out)).failed.length).toBe(1); // retried, still wrong
    project.edit('materials/wood.material', 'roughness = -1', 'roughness = 0.6');
    const fixed = await compileProject(project.source, project.out);
    expect(fixed.compiled).toEqual([{ path: 'materials/wood.material', reason: 'changed' }]);
    expect(readFileSync(join(project.out, 'materials/wood.material.cr'))).not.toEqual(before);
  });

  test('the CLI prints errors and progress and exits 1', async () => {
    project.edit('materials/wood.material', 'roughness = 0.7', 'roughness = 1.7');
    const result = await runCli(['compile', project.source, project.out]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('error: materials/wood.material:3:13: roughness');
    expect(result.stdout).toContain('compiled 25, up to date 0, failed 1');
    expect(result.stderr).toContain('[26/26]');
  });
});
