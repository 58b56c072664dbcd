// What the packed-install test and the registry test check of packages installed with plain npm
// outside the workspace: every export imports, every bin answers --help, and each README example,
// wrapped in tooling/scripts/packed/<name>.harness.ts, typechecks against the published .d.ts
// files and runs (GPU examples on Dawn, unless CUTTLE_GPU_TESTS=skip).
//
// Layout both tests use: `work` holds gpu.ts (the harnesses import '../gpu.js') and a folder per
// package, `work/<short>`, where that package's probe and examples are written and run; `work`
// must resolve webgpu, @types/node and @webgpu/types (see exampleToolDependencies).
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import type { PackageManifest } from '../publishable.ts';
import { composeExample, readmeExample } from './examples.ts';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../../../..');
export const harnessDir = join(root, 'tooling/scripts/packed');

export type CheckResult = boolean | 'skipped';
export type Report = (pkg: string, what: string, ok: CheckResult, detail?: string) => void;

/** A package installed for checking: where its README is, where its bins are linked. */
export interface InstalledPackage {
  short: string;
  manifest: PackageManifest;
  /** The README.md whose example runs. */
  readme: string;
  /** The node_modules/.bin that holds its bins. */
  binDir: string;
}

export async function sh(command: string, argv: string[], cwd: string, timeoutMs = 300_000): Promise<string> {
  const { stdout, stderr } = await run(command, argv, { cwd, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' } });
  return stdout + stderr;
}

export function failure(error: unknown): string {
  // execFile's message already holds the command's stderr.
  const e = error as { stdout?: string; message?: string };
  return `${e.message ?? String(error)}\n${e.stdout ?? ''}`.trim();
}

/** The packages the examples need beside the Cuttle ones, at the versions the workspace uses. */
export function exampleToolDependencies(): Record<string, string> {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as PackageManifest;
  const out: Record<string, string> = {};
  for (const name of ['webgpu', '@types/node', '@webgpu/types']) {
    const version = manifest.devDependencies?.[name];
    if (version === undefined) throw new Error(`the root package.json has no devDependency ${name}`);
    out[name] = version;
  }
  return out;
}

/** Writes the Dawn device module the GPU harnesses import into `work`. */
export function writeGpuModule(work: string): void {
  writeFileSync(join(work, 'gpu.ts'), readFileSync(join(harnessDir, 'gpu.ts'), 'utf8'));
}

/** The file an export entry gives plain Node (its `default`, or the entry itself when a string). */
function exportTarget(entry: unknown): string {
  if (typeof entry === 'string') return entry;
  if (entry !== null && typeof entry === 'object' && 'default' in entry) return exportTarget((entry).default);
  return '';
}

/** A module that imports every entry of the exports map by the package's name. */
export function exportsProbe(manifest: PackageManifest): string {
  const exportsMap = manifest.exports ?? { '.': './dist/index.js' };
  // A worker entry runs only inside a worker (the example starts it, through the package).
  const entries = Object.keys(exportsMap).filter((key) => key !== './package.json' && !key.includes('*') && !/(^|\/)worker$/.test(key));
  const lines = ["import assert from 'node:assert/strict';"];
  for (const [i, key] of entries.entries()) {
    const specifier = key === '.' ? manifest.name : `${manifest.name}/${key.slice(2)}`;
    const json = exportTarget(exportsMap[key]).endsWith('.json');
    lines.push(`const m${i} = await import(${JSON.stringify(specifier)}${json ? ", { with: { type: 'json' } }" : ''});`);
    lines.push(`assert.ok(Object.keys(m${i}).length > 0, ${JSON.stringify(`${specifier} exports nothing`)});`);
  }
  lines.push(`console.log(${JSON.stringify(`${entries.length} entry point(s)`)});`);
  return lines.join('\n') + '\n';
}

interface Examples {
  files: string[];
  runs: string[];
}

/** Writes the exports probe and the composed README examples of `p` into work/<short>. */
function writeExamples(work: string, p: InstalledPackage, report: Report): Examples | undefined {
  const dir = join(work, p.short);
  writeFileSync(join(dir, 'exports.mjs'), exportsProbe(p.manifest));
  const example = readmeExample(readFileSync(p.readme, 'utf8'));
  const files: string[] = [];
  const runs: string[] = [];
  for (const [i, block] of example.blocks.entries()) {
    const harnessPath = join(harnessDir, i === 0 ? `${p.short}.harness.ts` : `${p.short}.${i + 1}.harness.ts`);
    if (!existsSync(harnessPath)) {
      if (i === 0) report(p.manifest.name, 'README example', false, `no harness: write ${relative(root, harnessPath)} (see tooling/scripts/packed/README.md)`);
      else report(p.manifest.name, `README example ${i + 1} (no ${relative(root, harnessPath)}; run in the workspace by test/readme.test.ts only)`, 'skipped');
      continue;
    }
    const file = join(dir, i === 0 ? 'example.ts' : `example-${i + 1}.ts`);
    writeFileSync(file, composeExample(block, readFileSync(harnessPath, 'utf8')));
    files.push(file);
    runs.push(file.replace(/\.ts$/, '.js'));
  }
  if (runs.length === 0) return undefined;
  for (const m of example.modules) {
    writeFileSync(join(dir, m.file), m.code);
    files.push(join(dir, m.file));
  }
  return { files, runs };
}

/** One tsc run over every example: types from the published .d.ts files; emits .js beside. */
async function typecheckExamples(work: string, examples: Map<string, Examples>, report: Report): Promise<void> {
  const allFiles = [...examples.values()].flatMap((e) => e.files);
  writeFileSync(join(work, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', lib: ['es2023', 'dom'], types: ['node', '@webgpu/types'], strict: true, skipLibCheck: true, noEmitOnError: false, noUnusedLocals: false },
    files: allFiles.map((f) => relative(work, f)),
  }, null, 2));
  let diagnostics = '';
  try {
    await sh(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(work, 'tsconfig.json'), '--pretty', 'false'], work);
  } catch (error) {
    diagnostics = (error as { stdout?: string }).stdout ?? failure(error);
  }
  for (const [name, { files }] of examples) {
    const mine = diagnostics.split('\n').filter((line) => files.some((f) => line.startsWith(relative(work, f))));
    report(name, 'README example typechecks against the published types', mine.length === 0, mine.join('\n'));
  }
}

/** Plain Node in work/<short>: the exports probe, each bin's --help, each example. */
async function runInstalled(work: string, p: InstalledPackage, example: Examples | undefined, skipGpu: boolean, report: Report): Promise<void> {
  const dir = join(work, p.short);
  try {
    const out = await sh(process.execPath, ['exports.mjs'], dir, 60_000);
    report(p.manifest.name, `imports every export (${out.trim()})`, true);
  } catch (error) {
    report(p.manifest.name, 'imports every export', false, failure(error));
  }
  for (const bin of Object.keys(p.manifest.bin ?? {})) {
    try {
      await sh(join(p.binDir, bin), ['--help'], dir, 60_000);
      report(p.manifest.name, `bin ${bin} --help`, true);
    } catch (error) {
      report(p.manifest.name, `bin ${bin} --help`, false, failure(error));
    }
  }
  for (const file of example?.runs ?? []) {
    const name = relative(dir, file);
    const gpu = readFileSync(file.replace(/\.js$/, '.ts'), 'utf8').includes("from '../gpu.js'");
    if (gpu && skipGpu) {
      report(p.manifest.name, `README ${name} runs (GPU, skipped: CUTTLE_GPU_TESTS=skip)`, 'skipped');
      continue;
    }
    const t0 = performance.now();
    try {
      await sh(process.execPath, [name], dir, 180_000);
      report(p.manifest.name, `README ${name} runs${gpu ? ' on Dawn' : ''} (${((performance.now() - t0) / 1000).toFixed(1)} s)`, true);
    } catch (error) {
      report(p.manifest.name, `README ${name} runs`, false, failure(error));
    }
  }
}

/**
 * Checks installed packages in `work` (see the layout above; work/<short> must exist): imports,
 * bins, README examples typechecked in one tsc run and then run with plain Node.
 */
export async function checkInstalled(work: string, packages: InstalledPackage[], options: { skipGpu: boolean; report: Report }): Promise<void> {
  const examples = new Map<string, Examples>();
  const byName = new Map<string, Examples | undefined>();
  for (const p of packages) {
    const example = writeExamples(work, p, options.report);
    byName.set(p.manifest.name, example);
    if (example !== undefined) examples.set(p.manifest.name, example);
  }
  await typecheckExamples(work, examples, options.report);
  for (const p of packages) await runInstalled(work, p, byName.get(p.manifest.name), options.skipGpu, options.report);
}
