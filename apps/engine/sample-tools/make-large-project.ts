// Writes the large project (see large/write-project.ts), kept out of git under apps/engine/.out/:
//   pnpm --filter @cuttle/engine large-project [out] [--scale 0.1] [--seed 1]
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { FULL_SIZE, scaledCounts } from './large/options.ts';
import { writeLargeProject } from './large/write-project.ts';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { scale: { type: 'string' }, seed: { type: 'string' } } });
const out = resolve(positionals[0] ?? join(import.meta.dirname, '..', '.out', 'large-project'));
const counts = values.scale === undefined ? FULL_SIZE : scaledCounts(Number(values.scale));
const started = performance.now();
const summary = await writeLargeProject(out, counts, values.seed === undefined ? 1 : Number(values.seed));
console.log(`large project written to ${out}: ${summary.files} files, ${(summary.bytes / 1e6).toFixed(1)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s`);
console.log(JSON.stringify(summary.counts));
