// A problem inside a unit that a level places is reported in the level at the placement (the
// first one), naming the unit's own line and column, not at the level's first line.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { compileProject } from '../src/compiler/compile-project.ts';
import type { CompileError } from '../src/errors.ts';
import { scratchProject, type Scratch } from './helpers.ts';

let project: Scratch;
beforeEach(() => {
  project = scratchProject();
});
afterEach(() => {
  project.dispose();
});

async function levelError(): Promise<CompileError> {
  const report = await compileProject(project.source, project.out);
  const failed = report.failed.find((f) => f.path === 'levels/courtyard.level');
  expect(failed, 'the level fails too').toBeDefined();
  return failed!.error;
}

/** Line (1-based) and column of the first `unit = "units/crate"` in the level. */
function firstCratePlacement(): { line: number; column: number } {
  const lines = readFileSync(join(project.source, 'levels/courtyard.level'), 'utf8').split('\n');
  const index = lines.findIndex((l) => l.includes('unit = "units/crate"'));
  return { line: index + 1, column: lines[index]!.indexOf('"units/crate"') + 1 };
}

describe('errors inside placed units', () => {
  test('a missing reference in a placed unit points at the placement', async () => {
    project.edit('units/crate.unit', 'mesh = "meshes/crate"', 'mesh = "meshes/crat"');
    const error = await levelError();
    expect(error).toMatchObject({ file: 'levels/courtyard.level', ...firstCratePlacement() });
    expect(error.problem).toBe('units/crate.unit:2:8 (placed here): refers to meshes/crat.glb, which does not exist');
    expect(error.fix).toContain('meshes/crate');
  });

  test('a syntax error in a placed unit points at the placement', async () => {
    project.edit('units/crate.unit', 'material = "materials/wood"', 'material = {');
    const error = await levelError();
    expect(error).toMatchObject({ file: 'levels/courtyard.level', ...firstCratePlacement() });
    expect(error.problem).toMatch(/^units\/crate\.unit:\d+:\d+ \(placed here\): does not parse/);
  });
});
