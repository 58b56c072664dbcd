// Writes the self-contained scaling benchmark: <root>/.bench-out/jobs-scaling/{scaling,
// worker,scaling-kernels}.mjs, runnable with plain Node 20 and no node_modules:
//   pnpm --filter @cuttle/jobs bench:scaling
//   node .bench-out/jobs-scaling/scaling.mjs --threads 1,2,4,8,16 --json
import { join } from 'node:path';
import { bundleEntries } from './bundle.ts';

const here = import.meta.dirname;
const outDir = join(here, '../../../.bench-out/jobs-scaling');
await bundleEntries(
  {
    scaling: join(here, 'scaling.ts'),
    worker: join(here, '../src/worker.ts'),
    'scaling-kernels': join(here, 'scaling-kernels.ts'),
  },
  outDir,
);
console.log(`wrote ${outDir}/scaling.mjs (+ worker.mjs, scaling-kernels.mjs)`);
