// Writes the self-contained round-trip benchmark for a many-core machine:
// <root>/.bench-out/jobs-round-trip/{round-trip-cli,worker,kernels,piscina-worker}.mjs plus a copy of
// piscina in node_modules/, runnable with plain Node 20:
//   pnpm --filter @cuttle/jobs bench:round-trip
//   node .bench-out/jobs-round-trip/round-trip-cli.mjs --json
import { cpSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { benchSources, bundleEntries } from './bundle.ts';

const here = import.meta.dirname;
const outDir = join(here, '../../../.bench-out/jobs-round-trip');
await bundleEntries({ ...benchSources, 'round-trip-cli': join(here, 'round-trip-cli.ts') }, outDir, ['piscina', 'esbuild']);
// piscina's exports map hides package.json: take the folder pnpm linked into this package.
const piscina = realpathSync(join(here, '../node_modules/piscina'));
cpSync(piscina, join(outDir, 'node_modules/piscina'), { recursive: true, dereference: true });
console.log(`wrote ${outDir}/round-trip-cli.mjs (+ worker.mjs, kernels.mjs, piscina-worker.mjs, node_modules/piscina)`);
