// The GPU benchmark path end to end: bundle a package's bench/*.gpu.ts into one file, run it
// under plain Node from a folder with no node_modules (as on the GPU machine), read the JSON.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test } from 'vitest';
import type { BenchReport } from '../src/index.ts';
import { bundleGpuBench } from '../src/gpu-bundle.ts';

const skipGpu = process.env.CUTTLE_GPU_TESTS === 'skip';

test.skipIf(skipGpu)('a bundled GPU benchmark runs with CUTTLE_DAWN and prints the JSON contract', async () => {
  const outDir = mkdtempSync(join(tmpdir(), 'cuttle-gpu-bundle-'));
  const bundle = await bundleGpuBench('gpu-primitives', outDir);
  const isolated = mkdtempSync(join(tmpdir(), 'cuttle-isolated-'));
  copyFileSync(bundle, join(isolated, 'bench.mjs'));
  const dawn = join(dirname(createRequire(import.meta.url).resolve('webgpu/package.json')), 'dist', 'linux-x64', 'dawn.node');
  execFileSync(process.execPath, ['bench.mjs', '--json', '--rounds', '1', '--out', 'report.json'], {
    cwd: isolated,
    env: { ...process.env, CUTTLE_DAWN: dawn, CUTTLE_BENCH_QUICK: '1' },
    stdio: 'pipe',
  });
  const report = JSON.parse(readFileSync(join(isolated, 'report.json'), 'utf8')) as BenchReport;
  expect(report.package).toBe('@cuttle/gpu-primitives');
  expect(report.suite).toBe('gpu');
  expect(report.gpu).toEqual(expect.any(String));
  expect(report.cases[0]!.unit).toBe('GB/s moved');
  expect(report.cases[0]!.ours).toBeGreaterThan(0);
}, 120_000);
