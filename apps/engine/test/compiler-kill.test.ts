// A compiler killed mid-write leaves every output whole: outputs go to a temporary file (in the
// output's .cuttle-tmp folder) that is renamed over the target once flushed to disk. The compiler
// runs as its own process with a pause halfway through each file's bytes
// (CUTTLE_ENGINE_WRITE_PAUSE_MS), and is killed with SIGKILL there. A compile on one thread
// flushes a few outputs at once, so several temporaries may be waiting for their rename.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { TEMP_FOLDER } from '../src/compiler/atomic-write.ts';
import { compileProject } from '../src/compiler/compile-project.ts';
import { readManifest } from '../src/compiler/manifest.ts';
import { readContainer } from '../src/runtime/container.ts';
import { scratchProject, startCli, type Scratch } from './helpers.ts';

let project: Scratch;
beforeEach(() => {
  project = scratchProject();
});
afterEach(() => {
  project.dispose();
});

const isTemporary = (file: string): boolean => file.startsWith(`${TEMP_FOLDER}/`);

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else out.push(relative(dir, join(d, e.name)));
    }
  };
  walk(dir);
  return out;
}

describe('killed mid-write', () => {
  test('SIGKILL during writes leaves old or new outputs, never torn ones; the next compile completes', async () => {
    // A first complete compile, then a forced one (every output rewritten) that is killed.
    await compileProject(project.source, project.out);
    const before = new Map(filesUnder(project.out).map((f) => [f, readFileSync(join(project.out, f))]));
    for (const f of readdirSync(join(project.source, 'materials'))) {
      const path = join(project.source, 'materials', f);
      writeFileSync(path, readFileSync(path, 'utf8') + '\n// retouched\n');
    }
    const child = startCli(['compile', project.source, project.out, '--force'], { CUTTLE_ENGINE_WRITE_PAUSE_MS: '150' });
    // Wait for a few files to be written, then kill while the next one is half written: its
    // temporary file exists and the writer is pausing halfway through its bytes.
    await new Promise<void>((resolve) => {
      let seen = 0;
      child.stderr!.on('data', (d: Buffer) => {
        seen += (d.toString().match(/\n/g) ?? []).length;
        if (seen >= 4) resolve();
      });
    });
    // Half written: not just opened (a busy machine can pause the writer between open and write).
    const halfWritten = (): boolean => filesUnder(project.out).some((f) => isTemporary(f) && (statSync(join(project.out, f), { throwIfNoEntry: false })?.size ?? 0) > 0);
    for (let i = 0; i < 2000 && !halfWritten(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('exit', resolve));

    const files = filesUnder(project.out);
    const temporaries = files.filter(isTemporary);
    expect(temporaries.length, 'the kill landed in the middle of a write').toBeGreaterThanOrEqual(1);
    for (const f of files) {
      if (isTemporary(f)) continue;
      const bytes = readFileSync(join(project.out, f));
      if (f === 'manifest.json') {
        expect(() => JSON.parse(bytes.toString('utf8')) as unknown).not.toThrow();
        continue;
      }
      // Whole: the container parses and every section lies inside the file.
      const header = JSON.parse(bytes.subarray(12, 12 + bytes.readUInt32LE(8)).toString('utf8')) as { type: string };
      expect(() => readContainer(bytes, header.type, f)).not.toThrow();
    }
    // Every output being written or flushed when the kill came is still its previous version, byte
    // for byte. A temporary file is named <pid>-<random>-<the target's name>.
    for (const temporary of temporaries) {
      const targetName = basename(temporary).replace(/^\d+-[0-9a-z]*-/, '');
      const target = files.find((f) => !isTemporary(f) && basename(f) === targetName)!;
      expect(readFileSync(join(project.out, target)).equals(before.get(target)!)).toBe(true);
    }
    expect(temporaries.some((f) => statSync(join(project.out, f)).size > 0)).toBe(true);

    // The next compile removes the leftover and finishes the job.
    const report = await compileProject(project.source, project.out);
    expect(report.failed).toEqual([]);
    expect(filesUnder(project.out).some(isTemporary)).toBe(false);
    expect(Object.keys(readManifest(project.out)!.resources).length).toBe(26);
  });
});
