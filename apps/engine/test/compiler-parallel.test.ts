// The parallel compile (@cuttle/jobs workers) against the one-thread compile, on a generated
// project in the sample's style (sample-tools/make-large-project.ts, shrunk): the same output
// files byte for byte, manifest included, the same failures with the same words, and progress
// for every resource as it completes.
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CompilePool, compileProject, type ProgressEvent } from '../src/compiler/compile-project.ts';
import { readManifest } from '../src/compiler/manifest.ts';
import { scaledCounts } from '../sample-tools/large/options.ts';
import { writeLargeProject } from '../sample-tools/large/write-project.ts';
import { WILD } from './wild-project.ts';

let dir: string;
let source: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cuttle-parallel-'));
  source = join(dir, 'project');
  await writeLargeProject(source, scaledCounts(0.02), 7);
  // Real-world GLBs with their own materials and embedded images (sharp and Basis on the workers).
  for (const name of ['CesiumMilkTruck', 'NormalTangentTest']) {
    copyFileSync(join(WILD, `${name}.glb`), join(source, 'meshes', `${name}.glb`));
    writeFileSync(join(source, 'units', `wild_${name}.unit`), `mesh = "meshes/${name}"\n`);
  }
  // A texture used as metallic-roughness data: the usage reaches the workers in the shared header.
  writeFileSync(join(source, 'materials', 'rough.material'), 'base_color = [1 1 1 1]\nmetallic_roughness_texture = "textures/tex_001"\n');
}, 40_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function filesOf(root: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else files.set(relative(root, full), readFileSync(full));
    }
  };
  walk(root);
  return files;
}

function expectSameFiles(a: string, b: string): void {
  const left = filesOf(a);
  const right = filesOf(b);
  expect([...right.keys()].sort()).toEqual([...left.keys()].sort());
  const differing = [...left].filter(([path, bytes]) => !bytes.equals(right.get(path)!)).map(([path]) => path);
  expect(differing).toEqual([]);
}

describe('parallel compile on @cuttle/jobs workers', () => {
  test('writes the same outputs and manifest, byte for byte, as the one-thread compile', async () => {
    const serial = await compileProject(source, join(dir, 'serial'));
    const events: ProgressEvent[] = [];
    const parallel = await compileProject(source, join(dir, 'parallel'), { workers: 2, parallelFrom: 1, onProgress: (e) => events.push(e) });
    expect(serial.failed).toEqual([]);
    expect(parallel.failed).toEqual([]);
    // Levels, units, materials, meshes (a skinned one too), textures, fonts, Flow graphs, packages.
    const types = new Set(parallel.compiled.map((c) => c.path.slice(c.path.lastIndexOf('.') + 1)));
    expect([...types].sort()).toEqual(['flow', 'font', 'glb', 'level', 'material', 'package', 'png', 'unit']);
    expect(parallel.compiled).toEqual(serial.compiled);
    expectSameFiles(join(dir, 'serial'), join(dir, 'parallel'));
    expect(readManifest(join(dir, 'parallel'))!.resources['textures/tex_001.png']!.settings).toEqual({ usage: 'data' });
    // One event per resource, counted 1..n as they complete, each path once.
    expect(events.map((e) => e.index)).toEqual(events.map((_, i) => i + 1));
    expect(new Set(events.map((e) => e.path)).size).toBe(parallel.compiled.length);
    expect(events.every((e) => e.total === parallel.compiled.length && e.ok)).toBe(true);
  }, 50_000);

  test('a resource that fails on a worker fails with the same error, and keeps its previous output', async () => {
    const out = join(dir, 'failing');
    await compileProject(source, out, { workers: 2, parallelFrom: 1 });
    const before = filesOf(out);
    const material = join(source, 'materials', 'mat_0003.material');
    const good = readFileSync(material, 'utf8');
    try {
      writeFileSync(material, good.replace(/roughness = [0-9.]+/, 'roughness = 1.7'));
      const parallel = await compileProject(source, out, { workers: 2, parallelFrom: 1, force: true });
      const serial = await compileProject(source, join(dir, 'failing-serial'), { force: true });
      expect(parallel.failed.map((f) => f.error.message)).toEqual(serial.failed.map((f) => f.error.message));
      expect(parallel.failed[0]!.error.message).toMatch(/^materials\/mat_0003\.material:\d+:\d+: roughness: Invalid value: Expected <=1 but received 1\.7/);
      expect(filesOf(out).get('materials/mat_0003.material.cr')!.equals(before.get('materials/mat_0003.material.cr')!)).toBe(true);
    } finally {
      writeFileSync(material, good);
    }
  }, 50_000);

  test('a CompilePool (the --watch loop\'s) starts once, serves several compiles, and writes the same bytes', async () => {
    const pool = new CompilePool(2);
    try {
      const first = await compileProject(source, join(dir, 'pooled-1'), { pool, parallelFrom: 1 });
      const started = await pool.get();
      const second = await compileProject(source, join(dir, 'pooled-2'), { pool, parallelFrom: 1 });
      expect(await pool.get()).toBe(started);
      expect(first.failed).toEqual([]);
      expect(second.compiled).toEqual(first.compiled);
      expectSameFiles(join(dir, 'pooled-1'), join(dir, 'pooled-2'));
      expectSameFiles(join(dir, 'serial'), join(dir, 'pooled-1'));
    } finally {
      await pool.shutdown();
    }
  }, 50_000);

  test('refuses a worker count that is not a whole number from 1 to 256', async () => {
    await expect(compileProject(source, join(dir, 'bad'), { workers: 0 })).rejects.toThrow(/workers must be a whole number from 1 to 256, got 0/);
    await expect(compileProject(source, join(dir, 'bad'), { workers: 1.5 })).rejects.toThrow(/got 1.5/);
  });
});
