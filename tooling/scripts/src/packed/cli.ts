// The packed-install test: every publishable package is packed with `pnpm pack`, installed with
// plain npm into its own project outside the workspace (with only the tarballs of the Cuttle
// packages it depends on), and then, with plain Node and nothing of the workspace around it:
// every entry of its `exports` map is imported, every `bin` runs `--help`, its README example
// (wrapped in tooling/scripts/packed/<name>.harness.ts) is typechecked against the published
// .d.ts files and run. GPU examples get a device from Dawn (the `webgpu` npm package), as the
// tests do. Run after `pnpm build`: `pnpm test:packed [--keep] [--only name,name]` (--only adds
// the Cuttle packages those need).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { publishablePackages, type PackageManifest } from '../publishable.ts';
import { composeExample, readmeExample } from './examples.ts';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../../../..');
const harnessDir = join(root, 'tooling/scripts/packed');

type Manifest = PackageManifest;

interface Package {
  dir: string;
  short: string;
  manifest: Manifest;
  tarball: string;
}

interface Check {
  pkg: string;
  what: string;
  ok: boolean | 'skipped';
  detail?: string;
}

const args = process.argv.slice(2);
const keep = args.includes('--keep');
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? new Set((args[onlyAt + 1] ?? '').split(',')) : undefined;
const skipGpu = process.env.CUTTLE_GPU_TESTS === 'skip';

function readManifest(path: string): Manifest {
  return JSON.parse(readFileSync(path, 'utf8')) as Manifest;
}

async function sh(command: string, argv: string[], cwd: string, timeoutMs = 300_000): Promise<string> {
  const { stdout, stderr } = await run(command, argv, { cwd, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' } });
  return stdout + stderr;
}

function failure(error: unknown): string {
  // execFile's message already holds the command's stderr.
  const e = error as { stdout?: string; message?: string };
  return `${e.message ?? String(error)}\n${e.stdout ?? ''}`.trim();
}

/** Runs `tasks` with at most `limit` at a time. */
async function pool<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await task(items[next++]!);
  }));
}

function publishable(): Package[] {
  const out: Package[] = publishablePackages(join(root, 'packages')).map((p) => ({ ...p, tarball: '' }));
  if (only === undefined) return out;
  // --only a,b: those packages and the Cuttle packages they need installed beside them.
  const byName = new Map(out.map((p) => [p.manifest.name, p]));
  const chosen = out.filter((p) => only.has(p.short));
  for (const p of [...chosen]) for (const dep of cuttleClosure(p, byName)) if (!chosen.includes(dep)) chosen.push(dep);
  return chosen.sort((a, b) => a.short.localeCompare(b.short));
}

/** The Cuttle packages `pkg` needs installed beside it: its dependencies, transitively. */
function cuttleClosure(pkg: Package, byName: Map<string, Package>): Package[] {
  const seen = new Map<string, Package>();
  const visit = (p: Package): void => {
    for (const dep of Object.keys(p.manifest.dependencies ?? {})) {
      const found = byName.get(dep);
      if (found === undefined) {
        if (dep.startsWith('@cuttle/')) throw new Error(`${p.manifest.name} depends on ${dep}, which is not a publishable package here`);
        continue;
      }
      if (!seen.has(dep)) {
        seen.set(dep, found);
        visit(found);
      }
    }
  };
  visit(pkg);
  return [...seen.values()];
}

/** The file an export entry gives plain Node (its `default`, or the entry itself when a string). */
function exportTarget(entry: unknown): string {
  if (typeof entry === 'string') return entry;
  if (entry !== null && typeof entry === 'object' && 'default' in entry) return exportTarget((entry).default);
  return '';
}

/** A module that imports every entry of the exports map by the package's name. */
function exportsProbe(manifest: Manifest): string {
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

async function main(): Promise<number> {
  const started = performance.now();
  const packages = publishable();
  const checks: Check[] = [];
  const check = (pkg: string, what: string, ok: Check['ok'], detail?: string): void => {
    checks.push({ pkg, what, ok, detail });
    const mark = ok === 'skipped' ? 'skip' : ok ? 'ok  ' : 'FAIL';
    console.log(`${mark} ${pkg}: ${what}${detail !== undefined && ok !== true ? `\n${detail.replace(/^/gm, '     ')}` : ''}`);
  };
  const missing = packages.filter((p) => !existsSync(join(p.dir, 'dist')));
  if (missing.length > 0) {
    console.error(`test:packed: no dist/ in ${missing.map((p) => p.short).join(', ')}: run \`pnpm build\` first`);
    return 1;
  }
  const work = mkdtempSync(join(tmpdir(), 'cuttle-packed-'));
  const tarballs = join(work, 'tarballs');
  mkdirSync(tarballs);
  try {
    // 1. Pack, as `pnpm publish` would (workspace: ranges become versions).
    await pool(packages, 2, async (p) => {
      const out = await sh('pnpm', ['pack', '--pack-destination', tarballs], p.dir);
      const file = /([^\s/]+\.tgz)\s*$/.exec(out.trim());
      if (file === null) throw new Error(`pnpm pack printed no tarball for ${p.short}:\n${out}`);
      p.tarball = join(tarballs, file[1]!);
    });
    const byName = new Map(packages.map((p) => [p.manifest.name, p]));
    const rootManifest = readManifest(join(root, 'package.json'));
    const devVersion = (name: string): string => {
      const v = rootManifest.devDependencies?.[name];
      if (v === undefined) throw new Error(`the root package.json has no devDependency ${name}`);
      return v;
    };
    // 2. The shared outer project: Dawn for GPU examples, and the types the examples are checked with.
    writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'cuttle-packed-test', private: true, type: 'module', dependencies: { webgpu: devVersion('webgpu'), '@types/node': devVersion('@types/node'), '@webgpu/types': devVersion('@webgpu/types') } }, null, 2));
    await sh('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], work);
    writeFileSync(join(work, 'gpu.ts'), readFileSync(join(harnessDir, 'gpu.ts'), 'utf8'));

    // 3. One project per package: its tarball and its Cuttle dependencies' tarballs, nothing else.
    const installed = new Set<string>();
    await pool(packages, 2, async (p) => {
      const dir = join(work, p.short);
      mkdirSync(dir);
      const deps: Record<string, string> = { [p.manifest.name]: `file:${relative(dir, p.tarball)}` };
      for (const d of cuttleClosure(p, byName)) deps[d.manifest.name] = `file:${relative(dir, d.tarball)}`;
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `try-${p.short}`, private: true, type: 'module', dependencies: deps }, null, 2));
      try {
        await sh('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], dir);
        installed.add(p.short);
        check(p.manifest.name, `npm install of the tarball alone (${Object.keys(deps).length} Cuttle tarball(s))`, true);
      } catch (error) {
        check(p.manifest.name, 'npm install of the tarball alone', false, failure(error));
      }
    });

    // 4. The README examples, each composed with its harness.
    const examples = new Map<string, { files: string[]; runs: string[] }>();
    for (const p of packages) {
      if (!installed.has(p.short)) continue;
      const dir = join(work, p.short);
      writeFileSync(join(dir, 'exports.mjs'), exportsProbe(p.manifest));
      const example = readmeExample(readFileSync(join(p.dir, 'README.md'), 'utf8'));
      const files: string[] = [];
      const runs: string[] = [];
      for (const [i, block] of example.blocks.entries()) {
        const harnessPath = join(harnessDir, i === 0 ? `${p.short}.harness.ts` : `${p.short}.${i + 1}.harness.ts`);
        if (!existsSync(harnessPath)) {
          if (i === 0) check(p.manifest.name, 'README example', false, `no harness: write ${relative(root, harnessPath)} (see tooling/scripts/packed/README.md)`);
          else check(p.manifest.name, `README example ${i + 1} (no ${relative(root, harnessPath)}; run in the workspace by test/readme.test.ts only)`, 'skipped');
          continue;
        }
        const file = join(dir, i === 0 ? 'example.ts' : `example-${i + 1}.ts`);
        writeFileSync(file, composeExample(block, readFileSync(harnessPath, 'utf8')));
        files.push(file);
        runs.push(file.replace(/\.ts$/, '.js'));
      }
      if (runs.length === 0) continue;
      for (const m of example.modules) {
        writeFileSync(join(dir, m.file), m.code);
        files.push(join(dir, m.file));
      }
      examples.set(p.short, { files, runs });
    }

    // 5. One tsc run over every example: types from the published .d.ts files; emits .js beside.
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
    for (const [short, { files }] of examples) {
      const mine = diagnostics.split('\n').filter((line) => files.some((f) => line.startsWith(relative(work, f))));
      check(`@cuttle/${short}`, 'README example typechecks against the published types', mine.length === 0, mine.join('\n'));
    }

    // 6. Plain Node: exports, bins, examples.
    for (const p of packages) {
      if (!installed.has(p.short)) continue;
      const dir = join(work, p.short);
      try {
        const out = await sh(process.execPath, ['exports.mjs'], dir, 60_000);
        check(p.manifest.name, `imports every export (${out.trim()})`, true);
      } catch (error) {
        check(p.manifest.name, 'imports every export', false, failure(error));
      }
      for (const bin of Object.keys(p.manifest.bin ?? {})) {
        try {
          await sh(join(dir, 'node_modules/.bin', bin), ['--help'], dir, 60_000);
          check(p.manifest.name, `bin ${bin} --help`, true);
        } catch (error) {
          check(p.manifest.name, `bin ${bin} --help`, false, failure(error));
        }
      }
      const example = examples.get(p.short);
      if (example === undefined) continue;
      for (const file of example.runs) {
        const name = relative(dir, file);
        const gpu = readFileSync(file.replace(/\.js$/, '.ts'), 'utf8').includes("from '../gpu.js'");
        if (gpu && skipGpu) {
          check(p.manifest.name, `README ${name} runs (GPU, skipped: CUTTLE_GPU_TESTS=skip)`, 'skipped');
          continue;
        }
        const t0 = performance.now();
        try {
          await sh(process.execPath, [name], dir, 180_000);
          check(p.manifest.name, `README ${name} runs${gpu ? ' on Dawn' : ''} (${((performance.now() - t0) / 1000).toFixed(1)} s)`, true);
        } catch (error) {
          check(p.manifest.name, `README ${name} runs`, false, failure(error));
        }
      }
    }
  } finally {
    if (keep) console.log(`kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
  const passed = checks.filter((c) => c.ok === true).length;
  const failed = checks.filter((c) => c.ok === false).length;
  const skipped = checks.filter((c) => c.ok === 'skipped').length;
  mkdirSync(join(root, '.test-results'), { recursive: true });
  writeFileSync(join(root, '.test-results/packed.json'), JSON.stringify({ numPassedTests: passed, numFailedTests: failed, numPendingTests: skipped, checks }, null, 2));
  console.log(`packed: ${packages.length} packages in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  console.log(`packed: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  return failed === 0 ? 0 : 1;
}

process.exitCode = await main();
