// The --watch loop's ProjectCache: after a save, the next compile reads only what its watcher
// reported (or, told it cannot know, every file whose signature changed), and compiles exactly
// what a compile without the cache would.
import { appendFileSync, cpSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { compileProject, type CompileReport } from '../src/compiler/compile-project.ts';
import { ProgressBar } from '../src/compiler/progress-bar.ts';
import { ProjectCache, scanProject } from '../src/compiler/project-scan.ts';
import { scratchProject, type Scratch } from './helpers.ts';

let project: Scratch;
beforeEach(() => {
  project = scratchProject();
});
afterEach(() => {
  project.dispose();
});

const built = (report: CompileReport): string[] => report.compiled.map((c) => `${c.path} (${c.reason})`).sort();

describe('ProjectCache', () => {
  test('rescans only the paths it was told about, and compiles what a full compile would', async () => {
    const cache = new ProjectCache();
    await compileProject(project.source, project.out, { cache });
    appendFileSync(join(project.source, 'units/crate.unit'), '\n// edited\n');
    cache.touched('units/crate.unit');
    const cached = await compileProject(project.source, project.out, { cache });
    expect(built(cached)).toEqual(['levels/courtyard.level (dependency)', 'units/crate.unit (changed)']);
    // A change nobody reported is not seen by the cached compile...
    appendFileSync(join(project.source, 'materials/wood.material'), '\n// edited\n');
    expect(built(await compileProject(project.source, project.out, { cache }))).toEqual([]);
    // ...until the cache is told it cannot know: then every file's signature is compared.
    cache.touchedAll();
    expect(built(await compileProject(project.source, project.out, { cache }))).toEqual(['materials/wood.material (changed)']);
  });

  test('a removed file, a new folder and a renamed folder, each reported by its path', () => {
    const cache = new ProjectCache();
    const isText = (path: string): boolean => !/\.(glb|png|ttf)$/.test(path);
    const first = scanProject(project.source, isText, cache);
    rmSync(join(project.source, 'units/pool.unit'));
    cache.touched('units/pool.unit');
    mkdirSync(join(project.source, 'extra/deeper'), { recursive: true });
    writeFileSync(join(project.source, 'extra/deeper/box.unit'), 'mesh = "meshes/crate"\n');
    cache.touched('extra');
    renameSync(join(project.source, 'flow'), join(project.source, 'scripts-flow'));
    cache.touched('flow');
    cache.touched('scripts-flow');
    const second = scanProject(project.source, isText, cache);
    const fresh = scanProject(project.source, isText);
    expect([...second.keys()]).toEqual([...fresh.keys()]);
    expect(second.has('units/pool.unit')).toBe(false);
    expect(second.get('extra/deeper/box.unit')!.text).toBe('mesh = "meshes/crate"\n');
    expect(second.has('scripts-flow/lamp.flow') && !second.has('flow/lamp.flow')).toBe(true);
    // Untouched files are the same objects: not read again.
    expect(second.get('meshes/walker.glb')).toBe(first.get('meshes/walker.glb'));
  });

  test('keeps the order a fresh scan has: edited files stay in place, new ones are sorted in', () => {
    const cache = new ProjectCache();
    const isText = (path: string): boolean => !/\.(glb|png|ttf)$/.test(path);
    scanProject(project.source, isText, cache);
    appendFileSync(join(project.source, 'units/crate.unit'), '\n// edited\n');
    cache.touched('units/crate.unit');
    const edited = scanProject(project.source, isText, cache);
    expect([...edited.keys()]).toEqual([...scanProject(project.source, isText).keys()]);
    expect(edited.get('units/crate.unit')!.text).toContain('// edited');
    writeFileSync(join(project.source, 'units/aaa-first.unit'), 'mesh = "meshes/crate"\n');
    cache.touched('units/aaa-first.unit');
    appendFileSync(join(project.source, 'units/crate.unit'), '\n// again\n');
    cache.touched('units/crate.unit');
    expect([...scanProject(project.source, isText, cache).keys()]).toEqual([...scanProject(project.source, isText).keys()]);
  });

  test('a path that climbs out of the project or names a hidden file is ignored', () => {
    const cache = new ProjectCache();
    const isText = (): boolean => true;
    scanProject(project.source, isText, cache);
    cpSync(join(project.source, 'units/crate.unit'), join(project.dir, 'outside.unit'));
    cache.touched('../outside.unit');
    cache.touched('.secret/x.unit');
    const files = scanProject(project.source, isText, cache);
    expect([...files.keys()].some((path) => path.includes('outside') || path.startsWith('.'))).toBe(false);
  });
});

describe('the manifest in a watch loop', () => {
  test('is not written again when nothing changed, and is written whole when anything did', async () => {
    const cache = new ProjectCache();
    const manifestPath = join(project.out, 'manifest.json');
    await compileProject(project.source, project.out, { cache });
    const first = statSync(manifestPath, { bigint: true });
    // Saved again unchanged: nothing is built, the file is the same file (atomic writes replace it).
    writeFileSync(join(project.source, 'units/crate.unit'), readFileSync(join(project.source, 'units/crate.unit')));
    cache.touched('units/crate.unit');
    expect(built(await compileProject(project.source, project.out, { cache }))).toEqual([]);
    const after = statSync(manifestPath, { bigint: true });
    expect([after.ino, after.mtimeNs]).toEqual([first.ino, first.mtimeNs]);
    // Someone else rewrote it (same text): this process's copy is no longer trusted, so the next
    // compile reads it back and writes its own.
    writeFileSync(manifestPath, readFileSync(manifestPath));
    const replaced = statSync(manifestPath, { bigint: true });
    await compileProject(project.source, project.out, { cache });
    expect(statSync(manifestPath, { bigint: true }).ino).not.toBe(replaced.ino);
    // A change: the text is what a compile without the cache writes.
    appendFileSync(join(project.source, 'units/crate.unit'), '\n// edited\n');
    cache.touched('units/crate.unit');
    await compileProject(project.source, project.out, { cache });
    const fresh = join(project.dir, 'fresh-out');
    await compileProject(project.source, fresh);
    expect(readFileSync(manifestPath, 'utf8')).toBe(readFileSync(join(fresh, 'manifest.json'), 'utf8'));
  });
});

describe('the output folder in a watch loop', () => {
  test('an output deleted between compiles is built again, its folder listed again', async () => {
    const cache = new ProjectCache();
    await compileProject(project.source, project.out, { cache });
    // Folders last changed a minute ago: their listings are kept between compiles.
    const then = new Date(Date.now() - 60_000);
    for (const dir of ['materials', '']) utimesSync(join(project.out, dir), then, then);
    expect(built(await compileProject(project.source, project.out, { cache }))).toEqual([]);
    rmSync(join(project.out, 'materials/brass.material.cr'));
    expect(built(await compileProject(project.source, project.out, { cache }))).toEqual(['materials/brass.material (output-missing)']);
  });
});

describe('ProgressBar', () => {
  test('redraws one line at most ten times a second, always at the end, with the slowest resource', () => {
    let text = '';
    const bar = new ProgressBar((t) => { text += t; }, 100);
    const total = 500;
    for (let i = 1; i <= total; i++) bar.update({ index: i, total, path: `units/u${i}.unit`, reason: 'new', ms: i === 250 ? 90 : 1, writeMs: 0, ok: i !== 7 });
    bar.finish();
    const frames = text.split('\r').filter((f) => f.length > 0);
    expect(frames.length).toBeLessThan(10);
    const last = frames[frames.length - 1]!;
    expect(last).toContain('500/500');
    expect(last).toContain('1 failed');
    expect(last).toContain('slowest: units/u250.unit 90 ms');
    expect(last.endsWith('\n')).toBe(true);
    expect(last.replace('\x1b[K', '').trimEnd().length).toBeLessThan(100);
  });
});
