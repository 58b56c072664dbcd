// The GPU benchmark path end to end: bundle a package's bench/*.gpu.ts into one file, run it
// under plain Node from a folder with no node_modules (as on the GPU machine), read the JSON.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test } from 'vitest';
import type { BenchReport } from '../src/index.ts';
import { bundleGpuBench, bundleGpuSuites, bundleNodeScript } from '../src/gpu-bundle.ts';

const skipGpu = process.env.CUTTLE_GPU_TESTS === 'skip';

// A package's whole GPU suite verifies every kernel before timing (minutes on lavapipe), so the
// run goes through a fixture suite shaped like one (WGSL import, test-utils GPU, copy yardstick,
// results checked first) that takes a second or two; the packages' own suites are bundled below.
test.skipIf(skipGpu)('a bundled GPU benchmark runs with CUTTLE_DAWN from a folder without node_modules and prints the JSON contract', async () => {
  const outDir = mkdtempSync(join(tmpdir(), 'cuttle-gpu-bundle-'));
  const bundle = await bundleGpuSuites([join(import.meta.dirname, 'fixtures', 'tiny.gpu.ts')], 'fixture', outDir);
  const isolated = mkdtempSync(join(tmpdir(), 'cuttle-isolated-'));
  copyFileSync(bundle, join(isolated, 'bench.mjs'));
  const dawn = join(dirname(createRequire(import.meta.url).resolve('webgpu/package.json')), 'dist', 'linux-x64', 'dawn.node');
  execFileSync(process.execPath, ['bench.mjs', '--json', '--rounds', '1', '--out', 'report.json'], {
    cwd: isolated,
    env: { ...process.env, CUTTLE_DAWN: dawn },
    stdio: 'pipe',
  });
  const report = JSON.parse(readFileSync(join(isolated, 'report.json'), 'utf8')) as BenchReport;
  expect(report.package).toBe('@cuttle/bench');
  expect(report.suite).toBe('gpu');
  expect(report.gpu).toEqual(expect.any(String));
  expect(report.cases).toHaveLength(1);
  expect(report.cases[0]!.unit).toBe('GB/s moved');
  expect(report.cases[0]!.ours).toBeGreaterThan(0);
}, 60_000);

test('every package\'s GPU suite bundles into one file with its WGSL inlined and nothing to import but Node\'s built-ins', async () => {
  const outDir = mkdtempSync(join(tmpdir(), 'cuttle-gpu-bundles-'));
  for (const pkg of ['gpu-primitives', 'gpu-fluid', 'gpu-culling', 'gpu-skinning', 'render']) {
    const text = readFileSync(await bundleGpuBench(pkg, outDir), 'utf8');
    expect(text).toContain('@compute');
    // Dawn is loaded at run time (CUTTLE_DAWN or the webgpu package), not imported.
    const imports = [...text.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]!);
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((from) => !from.startsWith('node:'))).toEqual([]);
  }
}, 60_000);

test('bundleNodeScript: WGSL inlined, CommonJS dependencies get a require, externals stay imports', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cuttle-node-bundle-'));
  writeFileSync(join(dir, 'shader.wgsl'), '@compute @workgroup_size(1) fn main() {}\n');
  // A CommonJS module that loads a Node built-in with require(), as ws does.
  writeFileSync(join(dir, 'events-dep.cjs'), "const { EventEmitter } = require('node:events');\nmodule.exports = { kind: typeof EventEmitter };\n");
  writeFileSync(
    join(dir, 'entry.ts'),
    [
      "import shader from './shader.wgsl?raw';",
      "import dep from './events-dep.cjs';",
      'const load = (): Promise<unknown> => import(String(process.env.NEVER_SET ?? "left-out-addon"));',
      'console.log(JSON.stringify({ wgsl: shader.includes("@compute"), dep: dep.kind, lazy: typeof load }));',
      '',
    ].join('\n'),
  );
  const out = join(dir, 'out', 'script.mjs');
  await bundleNodeScript(join(dir, 'entry.ts'), out, ['left-out-addon'], true);
  const printed = execFileSync(process.execPath, [out], { cwd: dirname(out), encoding: 'utf8' });
  expect(JSON.parse(printed)).toEqual({ wgsl: true, dep: 'function', lazy: 'function' });
  // Without the require shim the same bundle fails on the CommonJS dependency.
  await bundleNodeScript(join(dir, 'entry.ts'), out, ['left-out-addon'], false);
  expect(() => execFileSync(process.execPath, [out], { cwd: dirname(out), stdio: 'pipe' })).toThrow(/Dynamic require of "node:events" is not supported/);
}, 60_000);
