// Runs bench/round-trip.ts and prints its table (or --json). Here it bundles the kernels and the
// job worker first; bundled by round-trip-bundle.ts it finds them beside itself.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as Bundler from './bundle.ts';
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
  // A computed specifier, so that the device bundle (which never takes this branch) does not
  // inline bundle.ts and with it an import of esbuild, which the GPU machine does not have.
  const bundler = new URL('./bundle.ts', import.meta.url).href;
  const { bundleEntries, benchSources } = (await import(bundler)) as typeof Bundler;
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
const heading = `${machine()} · ${workers} worker thread(s) per contender · median of ${rounds} rounds`;
if (argv.includes('--json')) process.stdout.write(`${JSON.stringify({ machine: machine(), workers, rounds, rows }, null, 2)}\n`);
else console.log(`${heading}\n\n${roundTripTable(rows)}`);
if (argv.includes('--write')) {
  // Here only: the table goes between the round-trip markers of BENCHMARKS.md.
  const file = join(import.meta.dirname, '../BENCHMARKS.md');
  const text = readFileSync(file, 'utf8');
  const start = '<!-- round-trip:start -->';
  const end = '<!-- round-trip:end -->';
  const at = text.indexOf(start);
  if (at < 0) throw new Error(`${file} has no ${start} marker`);
  writeFileSync(file, `${text.slice(0, at)}${start}\n${heading}\n\n${roundTripTable(rows)}\n${text.slice(text.indexOf(end))}`);
  log(`wrote ${file}`);
}
