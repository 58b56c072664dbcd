import { describe, expect, test } from 'vitest';
import { compileFlowGraph, FlowRuntime, loadFlowProgram, type FlowGraphSource, type FlowInstance, type FlowProgram, type FlowRegistry } from '../src/index.ts';
import { e, loggingRegistry } from './helpers.ts';

// Version 1: hits (float) counts collisions; fuse (delay 2s) logs boom; tick (timer 1s) logs tick;
// counter n counts external "go"s; name (string) and armed (bool) are variables too.
const v1: FlowGraphSource = {
  flow: 1,
  kind: 'unit',
  variables: { hits: { type: 'float', value: 0 }, armed: { type: 'bool', value: false }, label: { type: 'string', value: 'one' } },
  nodes: [
    { id: 'hit', type: 'event/collision' },
    { id: 'hits', type: 'variable/get', settings: { variable: 'hits' } },
    { id: 'plus', type: 'math/add', inputs: { b: 1 } },
    { id: 'count', type: 'variable/set', settings: { variable: 'hits' } },
    { id: 'fuse', type: 'logic/delay', inputs: { seconds: 2 } },
    { id: 'boom', type: 'action/log', inputs: { tag: 'boom' } },
    { id: 'tick', type: 'event/timer', inputs: { period: 1 } },
    { id: 'tock', type: 'action/log', inputs: { tag: 'tick' } },
    { id: 'go', type: 'event/external', settings: { name: 'go' } },
    { id: 'n', type: 'logic/counter' },
  ],
  events: [e('hit.out', 'count.in'), e('count.out', 'fuse.in'), e('fuse.out', 'boom.in'), e('tick.tick', 'tock.in'), e('go.out', 'n.in')],
  links: [e('hits.value', 'plus.a'), e('plus.result', 'count.value')],
};

function edit(change: (g: FlowGraphSource) => void): FlowGraphSource {
  const g = structuredClone(v1);
  change(g);
  return g;
}

function load(source: FlowGraphSource, registry: FlowRegistry): FlowProgram {
  return loadFlowProgram(compileFlowGraph(source, registry), registry);
}

function started(runtime: FlowRuntime, program: FlowProgram, unit = 1): FlowInstance {
  const instance = program.instantiate(unit);
  runtime.collision(instance, 9); // hits 1, fuse armed (2 s)
  runtime.collision(instance, 9); // hits 2, fuse restarted
  for (let i = 0; i < 3; i++) runtime.external(instance, program.externalEvent('go')); // n = 3
  runtime.update(instance, 0.5); // fuse 1.5 s left, timer 0.5 s in
  return instance;
}

describe('hot reload', () => {
  test('variables keep their values where name and type still exist; the rest take the new defaults', () => {
    const log: string[] = [];
    const registry = loggingRegistry(log);
    const runtime = new FlowRuntime();
    const instance = started(runtime, load(v1, registry));
    const v2 = load(edit((g) => {
      g.variables = { hits: { type: 'float', value: 100 }, armed: { type: 'float', value: 7 }, fresh: { type: 'int', value: 4 } };
    }), registry);
    const before = instance.state;
    const report = runtime.reload(instance, v2);
    expect(instance.program).toBe(v2);
    expect(instance.state).not.toBe(before);
    expect(instance.state[v2.variable('hits').slot]).toBe(2);
    expect(instance.state[v2.variable('armed').slot]).toBe(7); // bool became float: new default
    expect(instance.state[v2.variable('fresh').slot]).toBe(4);
    expect(report).toMatchObject({ instances: 1, variablesKept: ['hits'], variablesReset: ['armed', 'fresh'], nodesRemoved: [], timersDropped: 0 });
    runtime.collision(instance, 9);
    expect(instance.state[v2.variable('hits').slot]).toBe(3);
  });

  test('node state carries over by id and type: delays keep their time left, timers their phase, counters their count', () => {
    const log: string[] = [];
    const registry = loggingRegistry(log);
    const runtime = new FlowRuntime();
    const instance = started(runtime, load(v1, registry));
    // v2 logs differently and adds a node: same ids for fuse, tick and n.
    const v2 = load(edit((g) => {
      g.nodes.find((n) => n.id === 'boom')!.inputs = { tag: 'BOOM' };
      g.nodes.push({ id: 'again', type: 'action/log', inputs: { tag: 'again' } });
      g.events!.push(e('n.out', 'again.in'));
    }), registry);
    runtime.reload(instance, v2);
    expect(instance.state[v2.words[v2.nodeWord(v2.nodeIndex('n')) + 8 + 1]!]).toBe(3); // counter target input, then count output slot
    runtime.update(instance, 0.5); // timer at 1 s: tick
    expect(log).toEqual(['tick']);
    runtime.update(instance, 1); // fuse due (1.5 s left before): BOOM; timer again
    expect(log).toEqual(['tick', 'BOOM', 'tick']);
    runtime.external(instance, v2.externalEvent('go'));
    expect(log.at(-1)).toBe('again');
  });

  test('pending delays and timers of nodes that are gone, or changed type, are dropped and counted', () => {
    const log: string[] = [];
    const registry = loggingRegistry(log);
    const runtime = new FlowRuntime();
    const program = load(v1, registry);
    const instances = [started(runtime, program, 1), started(runtime, program, 2), program.instantiate(3)];
    const v2 = load(edit((g) => {
      g.nodes = g.nodes.filter((n) => n.id !== 'fuse' && n.id !== 'boom');
      g.events = g.events!.filter((l) => !l.from.startsWith('fuse') && !l.to.startsWith('fuse'));
      const tick = g.nodes.find((n) => n.id === 'tick')!;
      tick.type = 'logic/once'; // same id, other type
      delete tick.inputs;
      g.events = g.events.filter((l) => !l.from.startsWith('tick'));
    }), registry);
    const report = runtime.reload(instances, v2);
    expect(report.instances).toBe(3);
    expect(report.nodesRemoved).toEqual(['fuse', 'boom', 'tick']);
    // fuse pending in two instances; the timer runs in all three (autostart).
    expect(report.timersDropped).toBe(2 + 3);
    for (const instance of instances) runtime.update(instance, 10);
    expect(log).toEqual([]);
  });

  test('breakpoints follow node ids, a watch is resized; a paused instance stays paused with its queue', () => {
    const log: string[] = [];
    const registry = loggingRegistry(log);
    const runtime = new FlowRuntime();
    const program = load(v1, registry);
    const instance = program.instantiate(1);
    const watch = runtime.watch(instance);
    runtime.setBreakpoint(instance, 'count');
    runtime.setBreakpoint(instance, 'boom');
    runtime.collision(instance, 9); // paused before count
    runtime.external(instance, program.externalEvent('go')); // queued
    expect(runtime.debugStatus(instance)).toMatchObject({ paused: true, nodeId: 'count', queued: 1 });
    const v2 = load(edit((g) => {
      g.nodes = g.nodes.filter((n) => n.id !== 'boom');
      g.events = g.events!.filter((l) => l.to !== 'boom.in');
      g.nodes.unshift({ id: 'first', type: 'event/level_loaded' });
    }), registry);
    const report = runtime.reload(instance, v2);
    expect(report.pausedWorkDropped).toBe(1);
    expect(runtime.debugStatus(instance)).toMatchObject({ paused: true, node: -1, breakpoints: ['count'], queued: 1 });
    expect(watch.runs.length).toBe(v2.nodeCount);
    expect(watch.count).toBe(0);
    runtime.continue(instance); // the queued go runs on the new graph
    expect(watch.record(0)).toMatchObject({ id: 'go' });
    expect(watch.lastValues('n')).toEqual([0, 1]);
  });

  test('queued external events that the new graph lacks are dropped', () => {
    const registry = loggingRegistry([]);
    const runtime = new FlowRuntime();
    const program = load(v1, registry);
    const instance = program.instantiate(1);
    runtime.pause(instance);
    runtime.collision(instance, 1);
    runtime.external(instance, program.externalEvent('go'));
    runtime.collision(instance, 2);
    const v2 = load(edit((g) => {
      g.nodes = g.nodes.filter((n) => n.id !== 'go' && n.id !== 'n');
      g.events = g.events!.filter((l) => l.from !== 'go.out');
    }), registry);
    expect(runtime.reload([instance], v2).queuedEventsDropped).toBe(1);
    expect(runtime.debugStatus(instance).queued).toBe(1);
  });

  test('bad calls change nothing', () => {
    const registry = loggingRegistry([]);
    const runtime = new FlowRuntime();
    const program = load(v1, registry);
    const instance = program.instantiate(1);
    const state = instance.state;
    const level = load({ flow: 1, kind: 'level', nodes: [] }, registry);
    expect(() => runtime.reload(instance, ({} as unknown as FlowProgram))).toThrow(/needs a FlowProgram/);
    expect(() => runtime.reload([], program)).toThrow(/at least one instance/);
    expect(() => runtime.reload([instance, ({} as unknown as FlowInstance)], program)).toThrow(/needs a FlowInstance/);
    expect(() => runtime.reload(instance, level)).toThrow(/unit graph .* cannot take level graph/);
    expect(instance.program).toBe(program);
    expect(instance.state).toBe(state);
  });
});
