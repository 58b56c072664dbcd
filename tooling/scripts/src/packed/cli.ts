// The packed-install test: every publishable package is packed with `pnpm pack`, installed with
// plain npm into its own project outside the workspace (with only the tarballs of the Cuttle
// packages it depends on), and then, with plain Node and nothing of the workspace around it:
// every entry of its `exports` map is imported, every `bin` runs `--help`, its README example
// (wrapped in tooling/scripts/packed/<name>.harness.ts) is typechecked against the published
// .d.ts files and run. GPU examples get a device from Dawn (the `webgpu` npm package), as the
// tests do. Run after `pnpm build`: `pnpm test:packed [--keep] [--only name,name]` (--only adds
// the Cuttle packages those need).
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { publishablePackages, type PackageManifest } from '../publishable.ts';
import { checkInstalled, exampleToolDependencies, failure, sh, writeGpuModule, type CheckResult } from './installed-checks.ts';

const root = resolve(import.meta.dirname, '../../../..');

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
  ok: CheckResult;
  detail?: string;
}

const args = process.argv.slice(2);
const keep = args.includes('--keep');
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? new Set((args[onlyAt + 1] ?? '').split(',')) : undefined;
const skipGpu = process.env.CUTTLE_GPU_TESTS === 'skip';

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
    // 2. The shared outer project: Dawn for GPU examples, and the types the examples are checked with.
    writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'cuttle-packed-test', private: true, type: 'module', dependencies: exampleToolDependencies() }, null, 2));
    await sh('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], work);
    writeGpuModule(work);

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

    // 4-6. Exports, bins and README examples (typechecked, then run) with plain Node.
    const chosen = packages.filter((p) => installed.has(p.short));
    await checkInstalled(work, chosen.map((p) => ({ short: p.short, manifest: p.manifest, readme: join(p.dir, 'README.md'), binDir: join(work, p.short, 'node_modules/.bin') })), { skipGpu, report: check });
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
