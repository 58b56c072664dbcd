// Writes the engine's worker bundles (compile and frame kernels, @cuttle/jobs' worker) into a
// folder, for running the benchmarks' bundles where the engine's source is not (the GPU machine):
//   pnpm --filter @cuttle/engine bundle:kernels <dir>
import { resolve } from 'node:path';
import { writeKernelBundle } from '../src/workers/kernel-bundle.ts';

const dir = resolve(process.argv[2] ?? '.bench-out/engine-kernels');
console.log(`${(await writeKernelBundle(dir)).join(', ')} written to ${dir}`);
