// Shared by the engine's tests: a scratch copy of the sample project, and running the CLI.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { compileProject } from '../src/compiler/compile-project.ts';

export const APP = join(import.meta.dirname, '..');
export const SAMPLE = join(APP, 'sample');
export const BIN = join(APP, 'bin', 'cuttle-engine.mjs');

export interface Scratch {
  dir: string;
  source: string;
  out: string;
  /** Replaces the first `from` in source file `path` (which must contain it) with `to`. */
  edit(path: string, from: string, to: string): void;
  dispose(): void;
}

/** A temporary folder with a copy of the sample project in `source` and an empty `out`. */
export function scratchProject(): Scratch {
  const dir = mkdtempSync(join(tmpdir(), 'cuttle-engine-'));
  const source = join(dir, 'source');
  cpSync(SAMPLE, source, { recursive: true });
  const edit = (path: string, from: string, to: string): void => {
    const file = join(source, path);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain(from);
    writeFileSync(file, text.replace(from, to));
  };
  return { dir, source, out: join(dir, 'out'), edit, dispose: () => { rmSync(dir, { recursive: true, force: true }); } };
}

/** Starts `cuttle-engine <args>` as a separate process (the real program, from source). */
export function startCli(args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}

export async function runCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = startCli(args, env);
  let stdout = '', stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, stdout, stderr };
}

/** Before each test of the file: a fresh scratch copy of the sample, compiled, handed to `use`; disposed after it. */
export function compiledSampleEach(use: (project: Scratch) => void): void {
  let project: Scratch | undefined;
  beforeEach(async () => {
    project = scratchProject();
    expect((await compileProject(project.source, project.out)).failed).toEqual([]);
    use(project);
  });
  afterEach(() => {
    project?.dispose();
  });
}
