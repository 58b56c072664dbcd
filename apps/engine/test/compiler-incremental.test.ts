// Incremental compiles of the sample project: a second run builds nothing; touching one file
// rebuilds exactly it and the resources that embed it (found with the dependency checker); a
// compiler version change rebuilds everything; removed sources lose their outputs.
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { compileProject } from '../src/compiler/compile-project.ts';
import { readManifest } from '../src/compiler/manifest.ts';
import { watchProject } from '../src/compiler/watch.ts';
import { scratchProject, type Scratch } from './helpers.ts';

let project: Scratch;
beforeEach(() => {
  project = scratchProject();
});
afterEach(() => {
  project.dispose();
});

const touched = (report: Awaited<ReturnType<typeof compileProject>>): string[] => report.compiled.map((c) => `${c.path} (${c.reason})`).sort();

describe('incremental compile', () => {
  test('a full compile builds every resource; a second one builds nothing', async () => {
    const first = await compileProject(project.source, project.out);
    expect(first.failed).toEqual([]);
    expect(first.compiled.length).toBe(26);
    expect(first.compiled.every((c) => c.reason === 'new')).toBe(true);
    const second = await compileProject(project.source, project.out);
    expect(second.compiled).toEqual([]);
    expect(second.upToDate).toBe(26);
  });

  test('touching one file rebuilds it and its dependents only (counted)', async () => {
    await compileProject(project.source, project.out);
    // A unit is baked into the level that places it: 2 rebuilds.
    appendFileSync(join(project.source, 'units/crate.unit'), '\n// darker crates soon\n');
    expect(touched(await compileProject(project.source, project.out))).toEqual(['levels/courtyard.level (dependency)', 'units/crate.unit (changed)']);
    // A material is referenced by hash, not embedded: 1 rebuild.
    appendFileSync(join(project.source, 'materials/wood.material'), '\n');
    expect(touched(await compileProject(project.source, project.out))).toEqual(['materials/wood.material (changed)']);
    // The level itself: 1 rebuild.
    const level = join(project.source, 'levels/courtyard.level');
    writeFileSync(level, readFileSync(level, 'utf8').replace('intensity = 2.4', 'intensity = 2.5'));
    expect(touched(await compileProject(project.source, project.out))).toEqual(['levels/courtyard.level (changed)']);
    // A texture: 1 rebuild (the material names it, it does not embed it).
    writeFileSync(join(project.source, 'textures/checker.png'), readFileSync(join(project.source, 'textures/ripple.png')));
    expect(touched(await compileProject(project.source, project.out))).toEqual(['textures/checker.png (changed)']);
  });

  test('a compiler version change rebuilds everything', async () => {
    await compileProject(project.source, project.out, { version: 'cuttle-engine/test-1' });
    const report = await compileProject(project.source, project.out, { version: 'cuttle-engine/test-2' });
    expect(report.compiled.length).toBe(26);
    expect(report.compiled.every((c) => c.reason === 'version')).toBe(true);
  });

  test('a deleted output is rebuilt, a deleted source loses its output', async () => {
    await compileProject(project.source, project.out);
    rmSync(join(project.out, 'materials/brass.material.cr'));
    expect(touched(await compileProject(project.source, project.out))).toEqual(['materials/brass.material (output-missing)']);
    rmSync(join(project.source, 'flow/lamp.flow'));
    writeFileSync(join(project.source, 'units/lamp.unit'), readFileSync(join(project.source, 'units/lamp.unit'), 'utf8').replace('flow = "flow/lamp"', ''));
    const report = await compileProject(project.source, project.out);
    expect(report.removed).toEqual(['flow/lamp.flow']);
    expect(existsSync(join(project.out, 'flow/lamp.flow.cr'))).toBe(false);
  });

  test('an output that cannot be put in place fails its resource alone; the rest and the old output stay', async () => {
    await compileProject(project.source, project.out);
    // Outputs flushed together: the unit's output is a folder now, so its rename fails after
    // the other outputs of the compile were written.
    const unitOutput = join(project.out, 'units/crate.unit.cr');
    rmSync(unitOutput);
    mkdirSync(join(unitOutput, 'in-the-way'), { recursive: true });
    appendFileSync(join(project.source, 'units/crate.unit'), '\n// edited\n');
    const report = await compileProject(project.source, project.out);
    expect(report.failed.map((f) => f.path)).toEqual(['units/crate.unit']);
    expect(report.failed[0]!.error.message).toMatch(/the compiler failed: .*(EISDIR|ENOTEMPTY|EEXIST|directory)/i);
    expect(touched(report)).toEqual(['levels/courtyard.level (dependency)']);
    expect(existsSync(join(unitOutput, 'in-the-way'))).toBe(true);
    expect(readdirSync(join(project.out, '.cuttle-tmp'))).toEqual([]);
    expect(readManifest(project.out)!.failed).toEqual(['units/crate.unit']);
  });

  test('--watch recompiles a saved file', async () => {
    await compileProject(project.source, project.out);
    const reports: string[][] = [];
    const done = new Promise<void>((resolve, reject) => {
      const watcher = watchProject(project.source, project.out, {
        quietMs: 20,
        onCompiled: (report) => {
          reports.push(touched(report));
          watcher.close();
          resolve();
        },
        onError: reject,
      });
      setTimeout(() => { appendFileSync(join(project.source, 'materials/stone.material'), '\n'); }, 100);
    });
    await done;
    expect(reports).toEqual([['materials/stone.material (changed)']]);
  });
});
