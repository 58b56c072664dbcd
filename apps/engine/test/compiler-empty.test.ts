// Empty sources (what an interrupted save leaves) and sources missing what their type needs are
// errors at file:line:column; the previous outputs, and the level that embeds a unit, stay as
// they were instead of being replaced by defaults.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { compileProject } from '../src/compiler/compile-project.ts';
import { readManifest } from '../src/compiler/manifest.ts';
import type { CompileError } from '../src/errors.ts';
import { compiledSampleEach, type Scratch } from './helpers.ts';

let project: Scratch;
compiledSampleEach((scratch) => { project = scratch; });

const output = (path: string): Buffer => readFileSync(join(project.out, `${path}.cr`));
const write = (path: string, text: string): void => { writeFileSync(join(project.source, path), text); };

async function failures(): Promise<Record<string, CompileError>> {
  const report = await compileProject(project.source, project.out);
  return Object.fromEntries(report.failed.map((f) => [f.path, f.error]));
}

describe('empty sources', () => {
  test('an empty material, unit or package fails at 1:1; the outputs and the level that places the unit stay', async () => {
    const paths = ['materials/wood.material', 'units/crate.unit', 'boot.package', 'levels/courtyard.level'];
    const before = new Map(paths.map((p) => [p, output(p)]));
    const entries = readManifest(project.out)!.resources;
    write('materials/wood.material', '');
    write('units/crate.unit', '  \n\t\n');
    write('boot.package', '\n');
    const failed = await failures();
    expect(Object.keys(failed).sort()).toEqual(['boot.package', 'levels/courtyard.level', 'materials/wood.material', 'units/crate.unit']);
    for (const path of ['materials/wood.material', 'units/crate.unit', 'boot.package']) {
      expect(failed[path]).toMatchObject({ file: path, line: 1, column: 1 });
      expect(failed[path]!.problem).toContain('is empty');
    }
    // The level does not bake an empty crate: it fails at the first crate's placement.
    const level = readFileSync(join(project.source, 'levels/courtyard.level'), 'utf8').split('\n');
    const error = failed['levels/courtyard.level']!;
    expect(level[error.line - 1]!.slice(error.column - 1)).toBe('"units/crate"');
    expect(error.problem).toContain('units/crate.unit:1:1 (placed here): is empty');
    for (const [path, bytes] of before) expect(output(path).equals(bytes), path).toBe(true);
    const after = readManifest(project.out)!.resources;
    for (const path of paths) expect(after[path]).toEqual(entries[path]);
  });

  test('sources missing what their type needs: a material without base_color, a unit placing nothing, a package listing nothing', async () => {
    const before = output('materials/brass.material');
    write('materials/brass.material', '// the first line was lost\nmetallic = 1\nroughness = 0.35\n');
    write('units/floor.unit', '// nothing left\n');
    write('boot.package', 'level = []\n');
    const failed = await failures();
    expect(failed['materials/brass.material']).toMatchObject({ file: 'materials/brass.material', line: 2, column: 1 });
    expect(failed['materials/brass.material']!.problem).toContain('base_color');
    expect(failed['units/floor.unit']).toMatchObject({ file: 'units/floor.unit', line: 2, column: 1 });
    expect(failed['units/floor.unit']!.problem).toContain('no mesh, light or flow');
    expect(failed['boot.package']).toMatchObject({ file: 'boot.package', line: 1, column: 1 });
    expect(failed['boot.package']!.problem).toContain('lists no resources');
    expect(failed['levels/courtyard.level']!.problem).toContain('units/floor.unit');
    expect(output('materials/brass.material').equals(before)).toBe(true);
  });
});
