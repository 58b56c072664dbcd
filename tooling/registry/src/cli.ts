// `pnpm test:registry`: releases every publishable package to a local Verdaccio with the
// repository's own release command, installs them by name with plain npm in an empty project and
// runs their README examples, checks a second publish is refused and a patch changeset publishes
// a patch version (see flow.ts and README.md). Run after `pnpm build`. `--keep` keeps the
// temporary folder; CUTTLE_GPU_TESTS=skip skips the GPU examples.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { publishablePackages } from '../../scripts/src/publishable.ts';
import { runFlow, type Context } from './flow.ts';
import { gitLeftovers, gitState } from './git-state.ts';
import { forgetRegistry } from './npm-cache.ts';
import { Report } from './report.ts';

const root = resolve(import.meta.dirname, '../../..');
const keep = process.argv.includes('--keep');

async function main(): Promise<number> {
  const started = performance.now();
  const missing = publishablePackages(join(root, 'packages')).filter((p) => !existsSync(join(p.dir, 'dist')));
  if (missing.length > 0) {
    console.error(`test:registry: no dist/ in ${missing.map((p) => p.short).join(', ')}: run \`pnpm build\` first`);
    return 1;
  }
  const report = new Report();
  const ctx: Context = { root, tmp: mkdtempSync(join(tmpdir(), 'cuttle-registry-')), report, skipGpu: process.env.CUTTLE_GPU_TESTS === 'skip', patchPackage: '@cuttle/timestep' };
  let cleaned = false;
  const cleanup = async (): Promise<void> => {
    if (cleaned) return;
    cleaned = true;
    const t0 = performance.now();
    if (ctx.registry !== undefined) {
      const url = ctx.registry.url;
      await forgetRegistry(url, tmpdir()).then(
        (n) => { report.add('cleanup', `npm's cache: ${n} entries from ${url} removed`, true); },
        (error: unknown) => { report.add('cleanup', `npm's cache: entries from ${url} removed`, false, error instanceof Error ? error.message : String(error)); },
      );
    }
    await ctx.registry?.stop();
    if (keep) console.log(`test:registry: kept ${ctx.tmp}`);
    else rmSync(ctx.tmp, { recursive: true, force: true });
    report.time('cleanup', (performance.now() - t0) / 1000);
  };
  // On Ctrl-C or SIGTERM the folder is removed by a detached process: tsx kills this one
  // (SIGKILL) when it does not answer a relayed signal within 30 ms, which a synchronous removal
  // of 40,000 files would not. The registry runs in this process and ends with it. `on`, not
  // `once`: the signal often comes twice (to the process group, then relayed by tsx).
  let stopping = false;
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      cleaned = true;
      console.error(`test:registry: ${signal}: removing ${ctx.tmp}`);
      if (keep) process.exit(code);
      const remover = spawn(process.execPath, ['-e', 'require("node:fs").rmSync(process.argv[1], { recursive: true, force: true })', ctx.tmp], { detached: true, stdio: 'ignore' });
      remover.unref();
      remover.on('exit', () => process.exit(code));
    });
  }
  const gitBefore = await gitState(root);
  try {
    await runFlow(ctx);
  } finally {
    const log = ctx.registry?.log() ?? '';
    await cleanup();
    if (report.count(false) > 0 && log.trim() !== '') console.log(`Verdaccio's log (warnings and errors):\n${log.trim().split('\n').slice(-30).join('\n')}`);
  }
  const gitAfter = await gitState(root);
  report.expectNone('cleanup', 'no new tag or worktree in this repository', gitLeftovers(gitBefore, gitAfter, ctx.tmp));
  report.add('cleanup', `temporary folder removed${keep ? ' (kept: --keep)' : ''}`, keep || !existsSync(ctx.tmp));

  const passed = report.count(true);
  const failed = report.count(false);
  const skipped = report.count('skipped');
  mkdirSync(join(root, '.test-results'), { recursive: true });
  writeFileSync(join(root, '.test-results/registry.json'), JSON.stringify({ numPassedTests: passed, numFailedTests: failed, numPendingTests: skipped, checks: report.checks }, null, 2));
  console.log(`\n${report.table()}`);
  console.log(`registry: ${passed} passed, ${failed} failed, ${skipped} skipped in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return failed === 0 ? 0 : 1;
}

process.exitCode = await main();
