// manifest.json is not trusted: an entry the compiler would not have written (an output outside
// the output folder, or not named after its source) is refused, by the next compile before it
// deletes anything, and by the engine before it opens anything.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { compileProject } from '../src/compiler/compile-project.ts';
import { MANIFEST_FILE, type Manifest, type ManifestEntry } from '../src/compiler/manifest.ts';
import { ManifestError } from '../src/errors.ts';
import { ResourceStore } from '../src/runtime/resources.ts';
import { compiledSampleEach, type Scratch } from './helpers.ts';

let project: Scratch;
compiledSampleEach((scratch) => { project = scratch; });

const manifestPath = (): string => join(project.out, MANIFEST_FILE);

function tamper(change: (manifest: Manifest) => void): string {
  const manifest = JSON.parse(readFileSync(manifestPath(), 'utf8')) as Manifest;
  change(manifest);
  const text = JSON.stringify(manifest, null, 1);
  writeFileSync(manifestPath(), text);
  return text;
}

const entry = (path: string, file: string): ManifestEntry => ({ type: 'material', name: path.replace(/\.material$/, ''), file, hash: '0'.repeat(40), size: 1, inputs: {} });

describe('a tampered manifest', () => {
  test('the compiler refuses an entry outside the output folder and deletes nothing', async () => {
    const victim = join(project.dir, 'victim.txt');
    writeFileSync(victim, 'keep me');
    const text = tamper((m) => { m.resources['materials/gone.material'] = entry('materials/gone.material', '../victim.txt'); });
    const compile = compileProject(project.source, project.out);
    await expect(compile).rejects.toThrow(ManifestError);
    await expect(compile).rejects.toThrow(/materials\/gone\.material.*"\.\.\/victim\.txt".*delete the output folder/);
    expect(readFileSync(victim, 'utf8')).toBe('keep me');
    expect(readFileSync(manifestPath(), 'utf8')).toBe(text);
  });

  test('the compiler refuses an entry not named after its source, and an absolute one', async () => {
    tamper((m) => { m.resources['materials/gone.material'] = entry('materials/gone.material', 'materials/brass.material.cr'); });
    await expect(compileProject(project.source, project.out)).rejects.toThrow(/materials\/gone\.material/);
    expect(existsSync(join(project.out, 'materials/brass.material.cr'))).toBe(true);
    tamper((m) => { m.resources['materials/gone.material'] = entry('materials/gone.material', join(project.dir, 'victim.material.cr')); });
    await expect(compileProject(project.source, project.out)).rejects.toThrow(ManifestError);
  });

  test('the engine refuses an entry that leaves the output folder', () => {
    tamper((m) => { m.resources['materials/wood.material']!.file = '../../../../../etc/passwd'; });
    expect(() => new ResourceStore(project.out)).toThrow(ManifestError);
    expect(() => new ResourceStore(project.out)).toThrow(/materials\/wood\.material/);
  });

  test('a reload that meets a tampered manifest keeps the one it had', () => {
    const store = new ResourceStore(project.out);
    tamper((m) => { m.resources['materials/wood.material']!.file = '../../../../../etc/passwd'; });
    expect(() => store.invalidate(['materials/wood.material'])).toThrow(ManifestError);
    expect(store.manifest.resources['materials/wood.material']!.file).toBe('materials/wood.material.cr');
    expect(store.get('material', 'materials/wood').type).toBe('material');
  });
});
