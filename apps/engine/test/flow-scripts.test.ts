// FlowScripts.update skips the instances whose graph has no delays or timers (their update does
// nothing) unless the debugger holds them. Against a reference that updates every instance, as
// FlowScripts did before: the same states bit for bit, the same node executions, the same
// paused updates counted, and a graph that gains a timer on reload starts ticking.
import { compileFlowGraph, loadFlowProgram, type FlowGraphSource } from '@cuttle/flow';
import { describe, expect, test } from 'vitest';
import { createFlowRegistry } from '../src/runtime/flow-actions.ts';
import { FlowScripts, type FlowUnitPlacement } from '../src/runtime/flow-scripts.ts';
import { ticker } from './flow-graphs.ts';

/** A unit graph that adds 1 to `ticks` every 0.05 s, or (still) sets `spawned` once and has no timer. */
function graph(kind: 'ticker' | 'still'): FlowGraphSource {
  if (kind === 'ticker') return ticker(1);
  return {
    flow: 1,
    kind: 'unit',
    variables: { spawned: { type: 'float', value: 0 } },
    nodes: [
      { id: 'spawned', type: 'event/unit_spawned' },
      { id: 'set', type: 'variable/set', settings: { variable: 'spawned' }, inputs: { value: 1 } },
    ],
    events: [{ from: 'spawned.out', to: 'set.in' }],
  };
}

const UNITS: FlowUnitPlacement[] = Array.from({ length: 40 }, (_, i) => ({ unit: `u${i}`, graph: i % 3 === 0 ? 'flow/ticker' : 'flow/still', entity: i + 1 }));

function scripts(sources: Map<string, FlowGraphSource>): FlowScripts {
  const registry = createFlowRegistry();
  const flow = new FlowScripts(registry, (name) => {
    const source = sources.get(name)!;
    return { program: loadFlowProgram(compileFlowGraph(source, registry), registry), types: source.nodes.map((n) => n.type) };
  }, UNITS, undefined);
  flow.start();
  return flow;
}

/** The per-frame step as FlowScripts took it before: every instance, every frame. */
function updateEveryInstance(flow: FlowScripts, dt: number): void {
  for (const target of flow.targets) flow.runtime.update(target.instance, dt);
}

const states = (flow: FlowScripts): number[][] => flow.targets.map((t) => Array.from(t.instance.state));

describe('FlowScripts.update', () => {
  test('skips graphs without delays or timers, and every state and execution count stays as updating all would leave it', () => {
    const sources = new Map([['flow/ticker', graph('ticker')], ['flow/still', graph('still')]]);
    const skipping = scripts(sources);
    const reference = scripts(sources);
    expect(skipping.find('u0')!.instance.program.tickNodes).toBe(1);
    expect(skipping.find('u1')!.instance.program.tickNodes).toBe(0);
    for (let frame = 0; frame < 50; frame++) {
      const dt = frame % 7 === 0 ? 0.031 : 1 / 60;
      skipping.update(dt);
      updateEveryInstance(reference, dt);
    }
    expect(states(skipping)).toEqual(states(reference));
    expect(skipping.runtime.executions).toBe(reference.runtime.executions);
    expect(skipping.find('u0')!.instance.state.some((v) => v >= 10), 'the tickers ticked').toBe(true);
  });

  test('a debugged instance without timers is still updated: its paused updates are counted', () => {
    const sources = new Map([['flow/ticker', graph('ticker')], ['flow/still', graph('still')]]);
    const skipping = scripts(sources);
    const reference = scripts(sources);
    for (const flow of [skipping, reference]) {
      const still = flow.find('u1')!.instance;
      flow.runtime.pause(still);
      flow.runtime.unitSpawned(still);
      expect(flow.runtime.isPaused(still)).toBe(true);
    }
    for (let frame = 0; frame < 5; frame++) {
      skipping.update(1 / 60);
      updateEveryInstance(reference, 1 / 60);
    }
    expect(skipping.runtime.debugStatus(skipping.find('u1')!.instance).skippedUpdates).toBe(5);
    expect(reference.runtime.debugStatus(reference.find('u1')!.instance).skippedUpdates).toBe(5);
  });

  test('a graph that gains a timer on reload starts ticking', () => {
    const sources = new Map([['flow/ticker', graph('ticker')], ['flow/still', graph('still')]]);
    const flow = scripts(sources);
    const still = flow.find('u1')!;
    sources.set('flow/still', graph('ticker'));
    flow.reload(['flow/still']);
    expect(still.instance.program.tickNodes).toBe(1);
    for (let frame = 0; frame < 12; frame++) flow.update(1 / 60);
    // 0.2 s of updates at one tick every 0.05 s: `ticks` (new with the reload, so from 0) is 4.
    const ticker = scripts(new Map([['flow/ticker', graph('ticker')], ['flow/still', graph('ticker')]]));
    for (let frame = 0; frame < 12; frame++) ticker.update(1 / 60);
    expect(Array.from(still.instance.state)).toEqual(Array.from(ticker.find('u1')!.instance.state));
    expect(Array.from(still.instance.state)).toContain(4);
  });
});
