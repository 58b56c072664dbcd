// pnpm bench:gpu <package> [--run] [-- bench flags]
//   Bundles the package's GPU benchmark to .bench-out/<package>-gpu-bench.mjs for the GPU
//   machine; --run also runs it here (on lavapipe: proves it works, timings mean nothing).
import { spawnSync } from 'node:child_process';
import { relative } from 'node:path';
import { bundleGpuBench } from './gpu-bundle.ts';
import { workspaceRoot } from './workspace.ts';

const argv = process.argv.slice(2);
const separator = argv.indexOf('--');
const own = separator >= 0 ? argv.slice(0, separator) : argv;
const passThrough = separator >= 0 ? argv.slice(separator + 1) : [];
const packageQuery = own.find((arg) => !arg.startsWith('--'));

try {
  if (!packageQuery) throw new Error('usage: pnpm bench:gpu <package> [--run] [-- --json --rounds N]');
  const outfile = await bundleGpuBench(packageQuery);
  const shown = relative(workspaceRoot, outfile);
  console.error(`bundled ${shown}`);
  console.error(`GPU machine: bash ../shared/device/pack.sh ${shown}, then run with carry [".device"]:`);
  console.error(`  source .device/env.sh && $NODE .device/${shown.split('/').pop() ?? ''} --json --out $OUT/report.json`);
  if (own.includes('--run')) {
    const result = spawnSync(process.execPath, [outfile, ...passThrough], { stdio: 'inherit' });
    process.exitCode = result.status ?? 1;
  }
} catch (error) {
  console.error(`bench:gpu: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
