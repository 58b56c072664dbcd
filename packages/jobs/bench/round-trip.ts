// What a spin before sleeping buys: single-job round trips (one Execute, then wait) with workers
// that spin 0, 15 (the default, what 0.x did), 50 or 200 µs before they sleep, and with the waiting thread spinning
// too, side by side with piscina in one process. Two figures each: latency, and the CPU time all
// threads burn per round trip (process.cpuUsage covers every thread). Back to back, a job
// arrives while the worker still spins; every 2 ms it never does, and a spin is pure cost.
//
//   npx tsx bench/round-trip.ts [--json] [--rounds 5]         (here)
//   pnpm --filter @cuttle/jobs bench:round-trip                (bundles it for another machine)
//   node round-trip.mjs [--json]                                (there: plain Node, piscina beside it)
import { availableParallelism, cpus } from 'node:os';
import { Piscina } from 'piscina';
import { JobSystem } from '../src/index.ts';
import type * as KernelModule from './kernels.ts';

export interface Variant {
  name: string;
  spinMicroseconds: number;
  waitSpinMicroseconds: number;
}

export const VARIANTS: readonly Variant[] = [
  { name: 'no spin', spinMicroseconds: 0, waitSpinMicroseconds: 0 },
  { name: 'spin 15 µs (default, as 0.x)', spinMicroseconds: 15, waitSpinMicroseconds: 0 },
  { name: 'spin 50 µs', spinMicroseconds: 50, waitSpinMicroseconds: 0 },
  { name: 'spin 200 µs', spinMicroseconds: 200, waitSpinMicroseconds: 0 },
  { name: 'spin 50 µs, wait spin 50 µs', spinMicroseconds: 50, waitSpinMicroseconds: 50 },
];

export interface RoundTripRow {
  contender: string;
  /** Back to back: mean µs from execute to wait's return. */
  latencyUs: number;
  /** Back to back: CPU µs (all threads) per round trip. */
  cpuUs: number;
  /** One round trip every 2 ms: mean µs from execute to wait's return. */
  spacedLatencyUs: number;
  /** One round trip every 2 ms: CPU µs per round trip, the 2 ms included. */
  spacedCpuUs: number;
}

const BACK_TO_BACK = 2000;
const WARM_UP = 6000;
const SPACED = 200;
const GAP_MS = 2;

interface Contender {
  name: string;
  /** One round trip; ours returns nothing (it blocks), piscina a promise. */
  trip(): unknown;
}

function cpuMicros(): number {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function backToBack(contender: Contender): Promise<{ latencyUs: number; cpuUs: number }> {
  const cpu = cpuMicros();
  const start = performance.now();
  for (let i = 0; i < BACK_TO_BACK; i++) await contender.trip();
  const ms = performance.now() - start;
  return { latencyUs: (ms * 1000) / BACK_TO_BACK, cpuUs: (cpuMicros() - cpu) / BACK_TO_BACK };
}

async function spaced(contender: Contender): Promise<{ latencyUs: number; cpuUs: number }> {
  let inTrips = 0;
  const cpu = cpuMicros();
  for (let i = 0; i < SPACED; i++) {
    await sleep(GAP_MS);
    const start = performance.now();
    await contender.trip();
    inTrips += performance.now() - start;
  }
  return { latencyUs: (inTrips * 1000) / SPACED, cpuUs: (cpuMicros() - cpu) / SPACED };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
}

interface ContenderFactory {
  name: string;
  /** Starts the contender's threads; `close` stops them again. */
  open(): Promise<Contender & { close(): Promise<unknown> }>;
}

/**
 * Measures every variant and piscina (medians of `rounds`). Each measurement has its contender
 * alone in the process, started for it and stopped after: a thread of another contender, idle
 * or spinning, changes how fast this one's threads wake. `workers`: worker threads for every
 * contender (ours on the streaming queue, so a worker runs each job; piscina's min and max).
 */
export async function measureRoundTrips(options: { kernelsUrl: string; workerUrl: string; piscinaWorker: string; workers: number; rounds: number; log?: (line: string) => void }): Promise<RoundTripRow[]> {
  const k = (await import(options.kernelsUrl)) as typeof KernelModule;
  const factories: ContenderFactory[] = VARIANTS.map((variant) => ({
    name: `ours, ${variant.name}`,
    async open() {
      const jobs = await JobSystem.initialize({
        kernels: [options.kernelsUrl],
        workerUrl: options.workerUrl,
        workerCount: options.workers,
        spinMicroseconds: variant.spinMicroseconds,
        waitSpinMicroseconds: variant.waitSpinMicroseconds,
      });
      const streaming = jobs.at('streaming');
      return {
        name: `ours, ${variant.name}`,
        trip() {
          streaming.execute(k.empty);
          jobs.wait();
        },
        close: () => jobs.shutdown(),
      };
    },
  }));
  factories.push({
    name: 'piscina',
    open() {
      const piscina = new Piscina({ filename: options.piscinaWorker, minThreads: options.workers, maxThreads: options.workers, execArgv: [] });
      return Promise.resolve({ name: 'piscina', trip: () => piscina.run(null, { name: 'empty' }), close: () => piscina.destroy() });
    },
  });
  const samples = factories.map(() => ({ latencyUs: [] as number[], cpuUs: [] as number[], spacedLatencyUs: [] as number[], spacedCpuUs: [] as number[] }));
  for (let round = 0; round < options.rounds; round++) {
    for (let c = 0; c < factories.length; c++) {
      const contender = await factories[c]!.open();
      try {
        // Warm up until the workers' loops are compiled: a pool lives long, cold code is not its
        // steady state (a fresh worker's first ~1000 trips run several times slower).
        for (let i = 0; i < WARM_UP; i++) await contender.trip();
        await sleep(20);
        const tight = await backToBack(contender);
        await sleep(20);
        const sparse = await spaced(contender);
        samples[c]!.latencyUs.push(tight.latencyUs);
        samples[c]!.cpuUs.push(tight.cpuUs);
        samples[c]!.spacedLatencyUs.push(sparse.latencyUs);
        samples[c]!.spacedCpuUs.push(sparse.cpuUs);
        options.log?.(`round ${round + 1} ${contender.name}: ${tight.latencyUs.toFixed(1)} µs, ${tight.cpuUs.toFixed(1)} CPU µs; every ${GAP_MS} ms ${sparse.latencyUs.toFixed(1)} µs, ${sparse.cpuUs.toFixed(1)} CPU µs`);
      } finally {
        await contender.close();
      }
    }
  }
  return factories.map((factory, c) => ({
    contender: factory.name,
    latencyUs: median(samples[c]!.latencyUs),
    cpuUs: median(samples[c]!.cpuUs),
    spacedLatencyUs: median(samples[c]!.spacedLatencyUs),
    spacedCpuUs: median(samples[c]!.spacedCpuUs),
  }));
}

export function roundTripTable(rows: readonly RoundTripRow[]): string {
  const piscina = rows.find((row) => row.contender === 'piscina')!;
  const lines = [
    '| contender | round trip, back to back (µs) | CPU per trip (µs) | vs piscina | round trip, one every 2 ms (µs) | CPU per trip (µs) | vs piscina |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const row of rows) {
    lines.push(
      `| ${row.contender} | ${row.latencyUs.toFixed(1)} | ${row.cpuUs.toFixed(1)} | ${(piscina.latencyUs / row.latencyUs).toFixed(2)}x | ` +
        `${row.spacedLatencyUs.toFixed(1)} | ${row.spacedCpuUs.toFixed(1)} | ${(piscina.spacedLatencyUs / row.spacedLatencyUs).toFixed(2)}x |`,
    );
  }
  return lines.join('\n');
}

export function machine(): string {
  return `${new Date().toISOString().slice(0, 10)} · Node ${process.version} · CPU: ${cpus()[0]?.model.trim() ?? '?'} x ${availableParallelism()} cores`;
}
