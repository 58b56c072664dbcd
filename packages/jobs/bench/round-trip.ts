// What a spin before sleeping buys: single-job round trips (one Execute, then wait) with workers
// that spin 0 (default), 15 (what 0.x did), 50 or 200 µs before they sleep, and with the waiting thread spinning
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
  { name: 'no spin (default)', spinMicroseconds: 0, waitSpinMicroseconds: 0 },
  { name: 'spin 15 µs (the 0.x fixed spin)', spinMicroseconds: 15, waitSpinMicroseconds: 0 },
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

/**
 * Measures every variant and piscina, interleaved round by round (medians of `rounds`).
 * `workers`: worker threads for every contender (ours, on the streaming queue so a worker runs
 * each job; piscina's min and max threads).
 */
export async function measureRoundTrips(options: { kernelsUrl: string; workerUrl: string; piscinaWorker: string; workers: number; rounds: number; log?: (line: string) => void }): Promise<RoundTripRow[]> {
  const k = (await import(options.kernelsUrl)) as typeof KernelModule;
  const pools: JobSystem[] = [];
  const contenders: Contender[] = [];
  for (const variant of VARIANTS) {
    const jobs = await JobSystem.initialize({
      kernels: [options.kernelsUrl],
      workerUrl: options.workerUrl,
      workerCount: options.workers,
      spinMicroseconds: variant.spinMicroseconds,
      waitSpinMicroseconds: variant.waitSpinMicroseconds,
    });
    pools.push(jobs);
    const streaming = jobs.at('streaming');
    contenders.push({
      name: `ours, ${variant.name}`,
      trip() {
        streaming.execute(k.empty);
        jobs.wait();
      },
    });
  }
  const piscina = new Piscina({ filename: options.piscinaWorker, minThreads: options.workers, maxThreads: options.workers, execArgv: [] });
  contenders.push({ name: 'piscina', trip: () => piscina.run(null, { name: 'empty' }) });
  try {
    // Warm up every contender (JIT, worker start-up).
    for (const contender of contenders) for (let i = 0; i < 200; i++) await contender.trip();
    const samples = contenders.map(() => ({ latencyUs: [] as number[], cpuUs: [] as number[], spacedLatencyUs: [] as number[], spacedCpuUs: [] as number[] }));
    for (let round = 0; round < options.rounds; round++) {
      for (let c = 0; c < contenders.length; c++) {
        const contender = contenders[c]!;
        const tight = await backToBack(contender);
        await sleep(20);
        const sparse = await spaced(contender);
        samples[c]!.latencyUs.push(tight.latencyUs);
        samples[c]!.cpuUs.push(tight.cpuUs);
        samples[c]!.spacedLatencyUs.push(sparse.latencyUs);
        samples[c]!.spacedCpuUs.push(sparse.cpuUs);
        options.log?.(`round ${round + 1} ${contender.name}: ${tight.latencyUs.toFixed(1)} µs, ${tight.cpuUs.toFixed(1)} CPU µs; every ${GAP_MS} ms ${sparse.latencyUs.toFixed(1)} µs, ${sparse.cpuUs.toFixed(1)} CPU µs`);
      }
    }
    return contenders.map((contender, c) => ({
      contender: contender.name,
      latencyUs: median(samples[c]!.latencyUs),
      cpuUs: median(samples[c]!.cpuUs),
      spacedLatencyUs: median(samples[c]!.spacedLatencyUs),
      spacedCpuUs: median(samples[c]!.spacedCpuUs),
    }));
  } finally {
    await Promise.all(pools.map((jobs) => jobs.shutdown()));
    await piscina.destroy();
  }
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
