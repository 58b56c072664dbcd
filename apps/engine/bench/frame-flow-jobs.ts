// The frame's Flow update on @cuttle/jobs (issue #36): N flickering lamps, each a timer at its own
// period stepping a counter that sets the light scale (an action, recorded on the workers and
// replayed on the main thread), updated by FlowScripts on 1 thread and on 2, 4, 8 and 16 (the main
// thread helping). Before timing, every thread count's states and host calls over 40 frames are
// checked against the one-thread update. Each timed frame is the next frame (timers move on).
// No GPU. Bundled for the GPU machine's host:
//   pnpm bundle:node apps/engine/bench/frame-flow-jobs.ts .bench-out/frame-flow-jobs.mjs --external esbuild --external @cuttle/build
//   node .bench-out/frame-flow-jobs.mjs --kernels .bench-out/kernels
import { writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { compileFlowGraph, loadFlowProgram, type FlowGraphSource } from '@cuttle/flow';
import type { JobSystem } from '@cuttle/jobs';
import { median } from '@cuttle/bench';
import { createFlowRegistry } from '../src/runtime/flow-actions.ts';
import { FlowParallelUpdate } from '../src/runtime/flow-parallel.ts';
import { FlowScripts } from '../src/runtime/flow-scripts.ts';
import { startFrameWorkers } from '../src/workers/frame-workers.ts';
import { kernelUrlsIn } from '../src/workers/kernel-bundle.ts';

const { values } = parseArgs({ options: { kernels: { type: 'string' }, threads: { type: 'string' }, counts: { type: 'string' }, frames: { type: 'string' }, 'per-job': { type: 'string' }, out: { type: 'string' } } });
const kernels = values.kernels ? kernelUrlsIn(values.kernels) : undefined;
const threadCounts = (values.threads ?? '1,2,4,8,16').split(',').map(Number);
const counts = (values.counts ?? '100,1000,10000,100000').split(',').map(Number);
const frames = Number(values.frames ?? 300);
// FlowParallelUpdate's minPerJob floors to compare (each thread count runs each): fewer jobs
// wake fewer workers.
const perJobFloors = (values['per-job'] ?? '64').split(',').map(Number);

/** A lamp that flickers at its own `period`: each tick steps a counter (0..3) and sets the light to count / 4. */
const flicker: FlowGraphSource = {
  flow: 1,
  kind: 'unit',
  variables: { period: { type: 'float', value: 0.2 } },
  nodes: [
    { id: 'period', type: 'variable/get', settings: { variable: 'period' } },
    { id: 'timer', type: 'event/timer' },
    { id: 'count', type: 'logic/counter', inputs: { target: 4 } },
    { id: 'scale', type: 'math/mul', inputs: { b: 0.25 } },
    { id: 'light', type: 'action/set_light_scale' },
  ],
  events: [
    { from: 'timer.tick', to: 'count.in' },
    { from: 'count.out', to: 'light.in' },
    { from: 'count.reached', to: 'count.reset' },
  ],
  links: [
    { from: 'period.value', to: 'timer.period' },
    { from: 'count.count', to: 'scale.a' },
    { from: 'scale.result', to: 'light.scale' },
  ],
};

interface Lamps {
  flow: FlowScripts;
  /** Light scales set this frame, in order. */
  calls: number[];
}

function lamps(count: number, jobs: JobSystem | undefined, minPerJob = 64): Lamps {
  const calls: number[] = [];
  const registry = createFlowRegistry({ log: () => undefined, setLightScale: (scale) => calls.push(scale), setWalkSpeed: () => undefined, setTitle: () => undefined });
  const file = compileFlowGraph(flicker, registry);
  const units = Array.from({ length: count }, (_, i) => ({ unit: `lamp_${i}`, graph: 'flow/flicker', entity: i + 1 }));
  // minInstances 1: every row goes to the workers, so the table shows where they start to pay.
  const flow = new FlowScripts(registry, () => ({ program: loadFlowProgram(file, registry), types: undefined }), units, undefined, jobs ? new FlowParallelUpdate(jobs, { minInstances: 1, minPerJob }) : undefined);
  const { slot } = flow.targets[0]!.instance.program.variable('period');
  let x = 2024;
  for (const target of flow.targets) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    target.instance.state[slot] = 0.05 + (x / 2 ** 32) * 0.45; // 0.05-0.5 s
  }
  flow.start();
  return { flow, calls };
}

console.log(`machine: ${cpus()[0]?.model ?? '?'}, ${availableParallelism()} threads, Node ${process.version}`);
const rows: { units: number; threads: number; minPerJob: number; jobs: number; ms: number; speedup: number; callsPerFrame: number }[] = [];
const pools = new Map<number, JobSystem | undefined>();
for (const threads of threadCounts) pools.set(threads, await startFrameWorkers(threads, kernels));
try {
  for (const count of counts) {
    let base = 0;
    for (const threads of threadCounts) {
      for (const minPerJob of threads === 1 ? [perJobFloors[0]!] : perJobFloors) {
        const reference = lamps(count, undefined);
        const run = lamps(count, pools.get(threads), minPerJob);
        // Checked before timing: the same host calls and the same states as one thread.
        for (let f = 0; f < 40; f++) {
          reference.calls.length = 0;
          run.calls.length = 0;
          reference.flow.update(1 / 60);
          run.flow.update(1 / 60);
          if (run.calls.length !== reference.calls.length || run.calls.some((c, i) => !Object.is(c, reference.calls[i]))) throw new Error(`${threads} threads, ${count} lamps: frame ${f}'s host calls differ`);
        }
        run.flow.targets.forEach((t, i) => {
          const want = reference.flow.targets[i]!.instance.state;
          if (t.instance.state.some((v, k) => !Object.is(v, want[k]))) throw new Error(`${threads} threads, ${count} lamps: lamp ${i}'s state differs`);
        });
        if (threads > 1 && !run.flow.updatedOnWorkers) throw new Error('the update did not go to the workers');
        const times: number[] = [];
        let calls = 0;
        for (let f = 0; f < frames; f++) {
          run.calls.length = 0;
          const t0 = performance.now();
          run.flow.update(1 / 60);
          times.push(performance.now() - t0);
          calls += run.calls.length;
        }
        const ms = median(times);
        if (threads === 1) base = ms;
        const jobs = run.flow.workerStats?.jobs ?? 0;
        rows.push({ units: count, threads, minPerJob, jobs, ms, speedup: base / ms, callsPerFrame: calls / frames });
        console.log(`${count} lamps, ${threads} thread(s), at least ${minPerJob} a job (${jobs} jobs): ${ms.toFixed(4)} ms per frame (${(base / ms).toFixed(2)}x), ${(calls / frames).toFixed(0)} light calls a frame`);
      }
    }
  }
} finally {
  for (const jobs of pools.values()) await jobs?.shutdown();
}
console.log('\n| lamps | threads | at least a job | jobs | Flow update ms / frame | speed-up |\n| --- | --- | --- | --- | --- | --- |');
for (const r of rows) console.log(`| ${r.units.toLocaleString('en')} | ${r.threads} | ${r.threads === 1 ? '–' : r.minPerJob} | ${r.jobs} | ${r.ms.toFixed(4)} | ${r.speedup.toFixed(2)}x |`);
if (values.out) writeFileSync(values.out, JSON.stringify({ machine: { cpu: cpus()[0]?.model, threads: availableParallelism(), node: process.version }, rows, date: new Date().toISOString() }, null, 2));
