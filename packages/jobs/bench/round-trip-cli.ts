// Runs bench/round-trip.ts and prints its table (or --json). Here it bundles the kernels and the
// job worker first; bundled by round-trip-bundle.ts it finds them beside itself.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { machine, measureRoundTrips, roundTripTable } from './round-trip.ts';

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
};
const rounds = Number(flag('--rounds') ?? 5);
const workers = Number(flag('--workers') ?? Math.max(1, availableParallelism() - 1));
const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

const beside = fileURLToPath(new URL('.', import.meta.url));
let dir = beside;
if (!existsSync(join(beside, 'kernels.mjs'))) {
  const { bundleEntries, benchSources } = await import('./bundle.ts');
  dir = await bundleEntries(benchSources);
}
const url = (name: string): string => pathToFileURL(join(dir, name)).href;
const rows = await measureRoundTrips({
  kernelsUrl: url('kernels.mjs'),
  workerUrl: url('worker.mjs'),
  piscinaWorker: join(dir, 'piscina-worker.mjs'),
  workers,
  rounds,
  log,
});
if (argv.includes('--json')) process.stdout.write(`${JSON.stringify({ machine: machine(), workers, rounds, rows }, null, 2)}\n`);
else console.log(`${machine()} · ${workers} worker thread(s) per contender · median of ${rounds}\n\n${roundTripTable(rows)}`);
