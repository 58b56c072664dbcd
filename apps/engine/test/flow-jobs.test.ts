// The Flow update on the frame workers against the one-thread update: the same instance states bit
// for bit, the same host calls in the same order, the same node executions and the same failures,
// frame after frame, with debugged instances (debugging starting and stopping), a graph whose update fails, graphs without timers, a
// reload in the middle, and a tape so small that workers give instances back to the main thread.
import { compileFlowGraph, loadFlowProgram, type FlowGraphSource } from '@cuttle/flow';
import type { JobSystem } from '@cuttle/jobs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createFlowRegistry } from '../src/runtime/flow-actions.ts';
import { FlowParallelUpdate, type FlowParallelOptions } from '../src/runtime/flow-parallel.ts';
import { FlowScripts, type FlowUnitPlacement } from '../src/runtime/flow-scripts.ts';
import { startFrameWorkers } from '../src/workers/frame-workers.ts';
import { ticker } from './flow-graphs.ts';

let jobs: JobSystem;

beforeAll(async () => {
  jobs = (await startFrameWorkers(3))!;
}, 60_000);

afterAll(async () => {
  await jobs.shutdown();
});

/** A lamp that flickers: every `period` its counter steps, sets the light scale and logs; every third step it waits, then retitles. */
function flicker(period: number): FlowGraphSource {
  return {
    flow: 1,
    kind: 'unit',
    nodes: [
      { id: 'timer', type: 'event/timer', inputs: { period } },
      { id: 'count', type: 'logic/counter', inputs: { target: 3 } },
      { id: 'scale', type: 'math/mul', inputs: { b: 0.25 } },
      { id: 'light', type: 'action/set_light_scale' },
      { id: 'say', type: 'action/log', inputs: { message: 'flicker' } },
      { id: 'delay', type: 'logic/delay', inputs: { seconds: 0.2 } },
      { id: 'title', type: 'action/set_title', inputs: { text: 'Lamps out' } },
      { id: 'walk', type: 'action/set_walk_speed' },
    ],
    events: [
      { from: 'timer.tick', to: 'count.in' },
      { from: 'count.out', to: 'light.in' },
      { from: 'light.out', to: 'say.in' },
      { from: 'count.reached', to: 'delay.in' },
      { from: 'count.reached', to: 'count.reset' },
      { from: 'delay.out', to: 'title.in' },
      { from: 'title.out', to: 'walk.in' },
    ],
    links: [
      { from: 'count.count', to: 'scale.a' },
      { from: 'scale.result', to: 'light.scale' },
      { from: 'count.count', to: 'walk.scale' },
    ],
  };
}

/** A timer whose tick feeds a counter that fires itself: the update runs into the step limit. */
const runaway: FlowGraphSource = {
  flow: 1,
  kind: 'unit',
  nodes: [
    { id: 'timer', type: 'event/timer', inputs: { period: 0.3 } },
    { id: 'say', type: 'action/log', inputs: { message: 'about to loop' } },
    { id: 'gate', type: 'logic/gate' },
  ],
  events: [
    { from: 'timer.tick', to: 'say.in' },
    { from: 'say.out', to: 'gate.in' },
    { from: 'gate.out', to: 'gate.in' },
  ],
};

/** No timer at all: skipped unless debugged. */
const still: FlowGraphSource = { flow: 1, kind: 'unit', nodes: [{ id: 'spawned', type: 'event/unit_spawned' }, { id: 'once', type: 'logic/once' }], events: [{ from: 'spawned.out', to: 'once.in' }] };

const level: FlowGraphSource = {
  flow: 1,
  kind: 'level',
  nodes: [
    { id: 'timer', type: 'event/timer', inputs: { period: 0.5 } },
    { id: 'title', type: 'action/set_title', inputs: { text: 'Night' } },
  ],
  events: [{ from: 'timer.tick', to: 'title.in' }],
};

const GRAPHS = ['flow/flicker_a', 'flow/flicker_b', 'flow/ticker', 'flow/still'];
const UNITS: FlowUnitPlacement[] = Array.from({ length: 900 }, (_, i) => ({ unit: `u${i}`, graph: i === 17 || i === 650 ? 'flow/runaway' : GRAPHS[i % GRAPHS.length]!, entity: i + 1 }));

/** The graphs the units run, by name: the four unit graphs given, the timer-less one and the level's. */
function graphs(units: { flicker_a: FlowGraphSource; flicker_b: FlowGraphSource; ticker: FlowGraphSource; runaway: FlowGraphSource }): Map<string, FlowGraphSource> {
  return new Map([...Object.entries(units).map(([name, source]) => [`flow/${name}`, source] as const), ['flow/still', still], ['flow/level', level]]);
}

interface Run {
  flow: FlowScripts;
  calls: string[];
}

function start(sources: Map<string, FlowGraphSource>, withJobs: boolean | FlowParallelUpdate, options?: FlowParallelOptions): Run {
  const calls: string[] = [];
  const registry = createFlowRegistry({
    log: (message) => calls.push(`log ${message}`),
    setLightScale: (scale) => calls.push(`light ${scale}`),
    setWalkSpeed: (scale) => calls.push(`walk ${scale}`),
    setTitle: (text) => calls.push(`title ${text}`),
  });
  const load = (name: string) => {
    const source = sources.get(name)!;
    return { program: loadFlowProgram(compileFlowGraph(source, registry), registry), types: source.nodes.map((n) => n.type) };
  };
  const parallel = withJobs instanceof FlowParallelUpdate ? withJobs : withJobs ? new FlowParallelUpdate(jobs, options) : undefined;
  const flow = new FlowScripts(registry, load, UNITS, 'flow/level', parallel);
  flow.start();
  // The debugger holds two units: they update on the main thread, in their place in the order.
  for (const unit of ['u1', 'u402']) flow.runtime.watch(flow.find(unit)!.instance);
  return { flow, calls };
}

function frame(run: Run, dt: number): string {
  try {
    run.flow.update(dt);
    return 'ok';
  } catch (error) {
    return (error as Error).message;
  }
}

const bytes = (run: Run): Uint8Array[] => run.flow.targets.map((t) => new Uint8Array(t.instance.state.buffer, t.instance.state.byteOffset, t.instance.state.byteLength).slice());

describe('the Flow update on frame workers', () => {
  test('leaves every state, host call, execution count and failure as the one-thread update does, through a reload', () => {
    const sources = graphs({ flicker_a: flicker(0.1), flicker_b: flicker(0.07), ticker: ticker(2), runaway });
    const one = start(sources, false);
    const roomy = start(sources, true, { minInstances: 1 });
    const cramped = start(sources, true, { minInstances: 1, tapeFloats: 24 });
    let handedBack = 0;
    let failures = 0;
    for (let f = 0; f < 60; f++) {
      if (f === 30) {
        // A saved graph mid-run: the flickers change period and the runaway one is fixed.
        sources.set('flow/flicker_a', flicker(0.045));
        sources.set('flow/runaway', ticker(3));
        for (const run of [one, roomy, cramped]) run.flow.reload(['flow/flicker_a', 'flow/runaway']);
      }
      // Debugging starts and stops mid-run: a watched unit moves to the main thread and back.
      if (f === 10) for (const run of [one, roomy, cramped]) run.flow.runtime.watch(run.flow.find('u5')!.instance);
      if (f === 45) {
        for (const unit of ['u1', 'u5']) {
          const runs = (run: Run): number[] => Array.from(run.flow.find(unit)!.instance.debug!.watch!.runs);
          expect(runs(roomy)).toEqual(runs(one));
          expect(runs(cramped)).toEqual(runs(one));
        }
        for (const run of [one, roomy, cramped]) for (const unit of ['u1', 'u402', 'u5']) run.flow.runtime.unwatch(run.flow.find(unit)!.instance);
        expect(roomy.flow.runtime.debuggedInstances).toBe(0);
      }
      const dt = 1 / 60 + (f % 5) * 0.004;
      const result = frame(one, dt);
      expect(frame(roomy, dt)).toBe(result);
      expect(frame(cramped, dt)).toBe(result);
      if (result !== 'ok') failures++;
      expect(roomy.flow.updatedOnWorkers).toBe(true);
      expect(roomy.flow.workerStats!.handedBack).toBe(0);
      handedBack += cramped.flow.workerStats!.handedBack;
    }
    expect(failures, 'the runaway graph failed before the reload').toBeGreaterThan(0);
    expect(one.calls.length).toBeGreaterThan(5000);
    expect(one.calls).toContain('title Lamps out');
    expect(one.calls).toContain('title Night');
    expect(handedBack, 'the small tape sent updates back to the main thread').toBeGreaterThan(100);
    expect(roomy.calls).toEqual(one.calls);
    expect(cramped.calls).toEqual(one.calls);
    const expected = bytes(one);
    expect(bytes(roomy)).toEqual(expected);
    expect(bytes(cramped)).toEqual(expected);
    expect(roomy.flow.runtime.executions).toBe(one.flow.runtime.executions);
    expect(cramped.flow.runtime.executions).toBe(one.flow.runtime.executions);
  });

  test('a failing graph does not stop the others: every instance updates and the error names each one that failed', () => {
    const sources = graphs({ flicker_a: flicker(0.1), flicker_b: flicker(0.1), ticker: ticker(1), runaway });
    for (const run of [start(sources, false), start(sources, true, { minInstances: 1 })]) {
      const message = frame(run, 0.31);
      expect(message).toMatch(/^The Flow update failed in 2 instances: u17 \(flow\/runaway\): .*; u650 \(flow\/runaway\): /);
      // The last ticker, after both failures in the order, still ticked.
      const last = run.flow.find('u898')!.instance;
      expect(last.program.tickNodes).toBe(1);
      expect(last.state[last.program.variable('ticks').slot]).toBeGreaterThan(0);
    }
  });

  test('fewer ticking instances than minInstances stay on the main thread', () => {
    const sources = graphs({ flicker_a: still, flicker_b: still, ticker: ticker(1), runaway: still });
    const run = start(sources, true, { minInstances: 300 });
    run.flow.update(1 / 60);
    expect(run.flow.updatedOnWorkers, '225 tickers and the level: under 300').toBe(false);
    expect(run.flow.workerStats).toEqual({ instances: 0, jobs: 0, handedBack: 0 });
    expect(() => new FlowParallelUpdate(jobs, { tapeFloats: 2 })).toThrow(/tapeFloats/);
    expect(() => new FlowParallelUpdate(jobs, { minInstances: 0 })).toThrow(/minInstances/);
  });

  test('minPerJob cuts an update into fewer jobs, with the same frames', () => {
    const sources = graphs({ flicker_a: flicker(0.1), flicker_b: flicker(0.06), ticker: ticker(1), runaway: ticker(5) });
    const coarse = start(sources, true, { minInstances: 1, minPerJob: 400 });
    const fine = start(sources, true, { minInstances: 1 });
    const alone = start(sources, false);
    for (let f = 0; f < 10; f++) for (const run of [coarse, fine, alone]) run.flow.update(1 / 30);
    const { instances, jobs: coarseJobs } = coarse.flow.workerStats!;
    expect(instances).toBeGreaterThan(600);
    expect(coarseJobs).toBe(Math.ceil(instances / 400));
    expect(fine.flow.workerStats!.jobs).toBeGreaterThan(coarseJobs);
    expect(coarse.calls).toEqual(alone.calls);
    expect(bytes(coarse)).toEqual(bytes(alone));
    expect(() => new FlowParallelUpdate(jobs, { minPerJob: 0 })).toThrow(/minPerJob/);
  });

  test('the next world takes the shared buffers over; the world before keeps its state and updates on the main thread', () => {
    const sources = graphs({ flicker_a: flicker(0.1), flicker_b: flicker(0.06), ticker: ticker(1), runaway: ticker(5) });
    const shared = new FlowParallelUpdate(jobs, { minInstances: 1 });
    const before = start(sources, shared);
    const beforeAlone = start(sources, false);
    for (let f = 0; f < 8; f++) for (const run of [before, beforeAlone]) run.flow.update(1 / 30);
    expect(before.flow.updatedOnWorkers).toBe(true);
    // A rebuild: the next world is made while the one before still exists (and may be kept, if the rebuild fails).
    const next = start(sources, shared);
    const nextAlone = start(sources, false);
    for (let f = 0; f < 12; f++) for (const run of [before, beforeAlone, next, nextAlone]) run.flow.update(1 / 30);
    expect(before.flow.updatedOnWorkers).toBe(false);
    expect(next.flow.updatedOnWorkers).toBe(true);
    expect(before.calls).toEqual(beforeAlone.calls);
    expect(next.calls).toEqual(nextAlone.calls);
    expect(bytes(before)).toEqual(bytes(beforeAlone));
    expect(bytes(next)).toEqual(bytes(nextAlone));
    expect(before.flow.targets[0]!.instance.state.buffer).not.toBe(next.flow.targets[0]!.instance.state.buffer);
  });
});
