// Speedup and parallel efficiency of Dispatch at 1, 2, 4, 8, 16 worker threads, for a
// compute-bound and a memory-bound kernel (against 1 worker, and against a serial loop). Bundled
// by scaling-bundle.ts into self-contained .mjs files that run under plain Node (no
// node_modules), so it can go to a many-core machine:
//   node scaling.mjs --threads 1,2,4,8,16 [--json] [--rounds 5]
// The jobs go on the streaming queue, which the main thread never helps with, so exactly N
// worker threads do the work at "N threads".
import { cpus } from 'node:os';
import { JobSystem } from '../src/index.ts';
import type * as ScalingKernels from './scaling-kernels.ts';

interface Workload {
  name: string;
  jobCount: number;
  groupSize: number;
  run(jobs: JobSystem | null): void;
}

interface Row {
  workload: string;
  threads: number;
  serialMs: number;
  ms: number;
  /** Against Dispatch on 1 worker (strong scaling); against the serial loop without --threads 1. */
  speedup: number;
  efficiency: number;
  vsSerial: number;
}

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
};
const threadCounts = (flag('--threads') ?? '1,2,4,8,16').split(',').map(Number);
const rounds = Number(flag('--rounds') ?? 5);
const json = argv.includes('--json');
if (threadCounts.some((n) => !Number.isInteger(n) || n < 1) || !Number.isInteger(rounds) || rounds < 1) {
  throw new Error('usage: node scaling.mjs --threads 1,2,4,8,16 [--json] [--rounds 5]');
}
const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

const kernelsUrl = new URL('./scaling-kernels.mjs', import.meta.url);
const k = (await import(kernelsUrl.href)) as typeof ScalingKernels;

const COMPUTE_ITEMS = 1 << 16;
const COMPUTE_ITERATIONS = 800;
const MEMORY_ITEMS = 1 << 21;
const out = new Float64Array(new SharedArrayBuffer(COMPUTE_ITEMS * 8));
const data = new Float32Array(new SharedArrayBuffer(MEMORY_ITEMS * 16 * 4));
const job = { jobIndex: 0, groupIndex: 0 };

const workloads: Workload[] = [
  {
    name: 'compute-bound',
    jobCount: COMPUTE_ITEMS,
    groupSize: 64,
    run(jobs) {
      if (!jobs) {
        for (let i = 0; i < COMPUTE_ITEMS; i++) {
          job.jobIndex = i;
          k.computeBound(job, out, COMPUTE_ITERATIONS);
        }
        return;
      }
      jobs.at('streaming').dispatch(COMPUTE_ITEMS, 64, k.computeBound, out, COMPUTE_ITERATIONS);
      jobs.wait();
    },
  },
  {
    name: 'memory-bound',
    jobCount: MEMORY_ITEMS,
    groupSize: 2048,
    run(jobs) {
      if (!jobs) {
        for (let i = 0; i < MEMORY_ITEMS; i++) {
          job.jobIndex = i;
          k.memoryBound(job, data);
        }
        return;
      }
      jobs.at('streaming').dispatch(MEMORY_ITEMS, 2048, k.memoryBound, data);
      jobs.wait();
    },
  },
];

function medianMs(run: () => void): number {
  run();
  run();
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    run();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return samples[samples.length >> 1]!;
}

const serialMs = new Map<string, number>();
for (const workload of workloads) {
  serialMs.set(workload.name, medianMs(() => {
    workload.run(null);
  }));
  log(`serial ${workload.name}: ${serialMs.get(workload.name)!.toFixed(1)} ms`);
}

const rows: Row[] = [];
for (const threads of threadCounts) {
  const jobs = await JobSystem.initialize({
    kernels: [kernelsUrl],
    workerUrl: new URL('./worker.mjs', import.meta.url),
    workerCount: threads,
  });
  try {
    for (const workload of workloads) {
      const ms = medianMs(() => {
        workload.run(jobs);
      });
      const serial = serialMs.get(workload.name)!;
      const oneThread = rows.find((row) => row.workload === workload.name && row.threads === 1)?.ms ?? (threads === 1 ? ms : serial);
      const speedup = oneThread / ms;
      rows.push({ workload: workload.name, threads, serialMs: serial, ms, speedup, efficiency: speedup / threads, vsSerial: serial / ms });
      log(`${workload.name} @${threads}: ${ms.toFixed(1)} ms, speedup ${speedup.toFixed(2)}x, efficiency ${(100 * speedup / threads).toFixed(0)}%, vs serial loop ${(serial / ms).toFixed(2)}x`);
    }
  } finally {
    await jobs.shutdown();
  }
}

const cpuList = cpus();
const cpu = `${cpuList[0]?.model.trim() ?? 'unknown CPU'} x ${cpuList.length} cores`;
const table = [
  '| kernel | threads | Dispatch ms | speedup | efficiency | serial loop ms | vs serial loop |',
  '| --- | --- | --- | --- | --- | --- | --- |',
  ...rows.map(
    (row) =>
      `| ${row.workload} | ${row.threads} | ${row.ms.toFixed(1)} | ${row.speedup.toFixed(2)}x | ${(100 * row.efficiency).toFixed(0)}% | ${row.serialMs.toFixed(1)} | ${row.vsSerial.toFixed(2)}x |`,
  ),
].join('\n');

if (json) {
  const report = {
    package: '@cuttle/jobs',
    suite: 'cpu',
    node: process.version,
    cpu,
    gpu: null,
    date: new Date().toISOString().slice(0, 10),
    cases: rows.map((row) => ({
      case: `${row.workload} speedup @${row.threads}`,
      unit: 'x',
      higherIsBetter: true,
      ours: row.speedup,
      peers: { ideal: row.threads },
    })),
    notes:
      `Strong scaling of Dispatch (streaming queue: N worker threads, main thread idle): speedup = time on 1 worker / time on N; ` +
      `ratio ours/ideal is the parallel efficiency. The table also compares with the kernel in a plain loop on the main thread. compute-bound: ${COMPUTE_ITEMS} items x ${COMPUTE_ITERATIONS} sqrt steps, ` +
      `groupSize 64; memory-bound: ${MEMORY_ITEMS} items x 16 floats (the post's Data::Compute), groupSize 2048.\n\n${table}`,
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
} else {
  console.log(`@cuttle/jobs scaling — Node ${process.version} · ${cpu}\n${table}`);
}
