import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { compileFlowGraph, FlowError, FlowRuntime, loadFlowProgram, type FlowGraphSource, type FlowInstance, type FlowProgram } from '../src/index.ts';
import { e, loggingRegistry } from './helpers.ts';
import { randomGraph } from './random-graph.ts';

// go -> sequence: out0 logs a; out1 -> once -> logs b; out2 -> delay 1s -> logs c;
// out3 -> variable/set hits (+1) -> branch (hits > 1) -> logs d or e.
const graph: FlowGraphSource = {
  flow: 1,
  kind: 'unit',
  variables: { hits: { type: 'float', value: 0 } },
  nodes: [
    { id: 'go', type: 'event/external', settings: { name: 'go' } },
    { id: 'seq', type: 'logic/sequence' },
    { id: 'a', type: 'action/log', inputs: { tag: 'a' } },
    { id: 'once', type: 'logic/once' },
    { id: 'b', type: 'action/log', inputs: { tag: 'b' } },
    { id: 'wait', type: 'logic/delay', inputs: { seconds: 1 } },
    { id: 'c', type: 'action/log', inputs: { tag: 'c' } },
    { id: 'hits', type: 'variable/get', settings: { variable: 'hits' } },
    { id: 'plus', type: 'math/add', inputs: { b: 1 } },
    { id: 'count', type: 'variable/set', settings: { variable: 'hits' } },
    { id: 'many', type: 'logic/compare', settings: { op: '>' }, inputs: { b: 1 } },
    { id: 'check', type: 'logic/branch' },
    { id: 'd', type: 'action/log', inputs: { tag: 'd' } },
    { id: 'e', type: 'action/log', inputs: { tag: 'e' } },
  ],
  events: [e('go.out', 'seq.in'), e('seq.out0', 'a.in'), e('seq.out1', 'once.in'), e('once.out', 'b.in'), e('seq.out2', 'wait.in'), e('wait.out', 'c.in'), e('seq.out3', 'count.in'), e('count.out', 'check.in'), e('check.true', 'd.in'), e('check.false', 'e.in')],
  links: [e('hits.value', 'plus.a'), e('plus.result', 'count.value'), e('hits.value', 'many.a'), e('many.result', 'check.condition')],
};

function setup(options: ConstructorParameters<typeof FlowRuntime>[0] = {}): { program: FlowProgram; runtime: FlowRuntime; log: string[]; go: (i: FlowInstance) => void } {
  const log: string[] = [];
  const registry = loggingRegistry(log);
  const program = loadFlowProgram(compileFlowGraph(graph, registry), registry);
  const runtime = new FlowRuntime(options);
  const id = program.externalEvent('go');
  return { program, runtime, log, go: (i) => { runtime.external(i, id); } };
}

describe('breakpoints', () => {
  test('a breakpoint pauses that instance before the node; others keep running; continue finishes the cascade', () => {
    const pauses: string[] = [];
    const { program, runtime, log, go } = setup({ onPause: (instance, node) => pauses.push(`${instance.unit}:${instance.program.nodeId(node)}`) });
    const paused = program.instantiate(1);
    const other = program.instantiate(2);
    runtime.setBreakpoint(paused, 'b');
    go(paused);
    expect(log).toEqual(['a']);
    expect(runtime.isPaused(paused)).toBe(true);
    expect(runtime.debugStatus(paused)).toMatchObject({ paused: true, nodeId: 'b', node: program.nodeIndex('b'), breakpoints: ['b'] });
    expect(pauses).toEqual(['1:b']);
    go(other); // unaffected
    expect(log).toEqual(['a', 'a', 'b', 'e']);
    runtime.continue(paused);
    expect(log).toEqual(['a', 'a', 'b', 'e', 'b', 'e']);
    expect(runtime.isPaused(paused)).toBe(false);
    expect(paused.state).toEqual(other.state);
  });

  test('events fired while paused are queued and run in order on continue; time stands still', () => {
    const { program, runtime, log, go } = setup();
    const instance = program.instantiate(1);
    runtime.setBreakpoint(instance, 'count');
    go(instance); // a, b, (delay armed), pause before count
    expect(log).toEqual(['a', 'b']);
    go(instance); // queued
    runtime.update(instance, 5); // skipped: the delay does not advance
    expect(runtime.debugStatus(instance)).toMatchObject({ queued: 1, skippedUpdates: 1 });
    expect(log).toEqual(['a', 'b']);
    runtime.clearBreakpoint(instance, 'count');
    runtime.continue(instance);
    // count (hits 1) -> e; then the queued go: a, once closed, delay restarted, count (hits 2) -> d.
    expect(log).toEqual(['a', 'b', 'e', 'a', 'd']);
    expect(instance.state[program.variable('hits').slot]).toBe(2);
    expect(instance.debug).toBeNull(); // nothing left to debug: back on the fast path
    runtime.update(instance, 0.5);
    runtime.update(instance, 0.5);
    expect(log).toEqual(['a', 'b', 'e', 'a', 'd', 'c']);
  });

  test('a breakpoint on a delay stops when it comes due in update(); the rest of the update goes on after continue', () => {
    const { program, runtime, log, go } = setup();
    const instance = program.instantiate(1);
    go(instance);
    runtime.setBreakpoint(instance, 'wait');
    runtime.update(instance, 1);
    expect(runtime.debugStatus(instance).nodeId).toBe('wait');
    expect(log).toEqual(['a', 'b', 'e']);
    runtime.continue(instance);
    expect(log).toEqual(['a', 'b', 'e', 'c']);
  });

  test('a breakpoint on an event node stops before it fires; continue fires it with the host value', () => {
    const { program, runtime, log } = setup();
    const instance = program.instantiate(1);
    runtime.setBreakpoint(instance, program.nodeIndex('go'));
    runtime.external(instance, program.externalEvent('go'), 3);
    expect(runtime.debugStatus(instance).nodeId).toBe('go');
    expect(log).toEqual([]);
    const watch = runtime.watch(instance);
    runtime.continue(instance);
    expect(log).toEqual(['a', 'b', 'e']);
    expect(watch.record(0)).toMatchObject({ id: 'go', values: [3] });
  });

  test('step runs one node and stops before the next, in execution order, across host calls', () => {
    const { program, runtime, log, go } = setup();
    // The order a watch sees on an unpaused twin: the nodes that can stop (not pure ones).
    const twin = program.instantiate(2);
    const watch = runtime.watch(twin);
    go(twin);
    go(twin);
    const order: string[] = [];
    for (let r = 0; r < watch.count; r++) if (watch.recordSocket[r] !== -2) order.push(program.nodeId(watch.recordNode[r]!));

    const instance = program.instantiate(1);
    runtime.pause(instance);
    expect(runtime.isPaused(instance)).toBe(false); // armed: stops at the next node
    go(instance);
    go(instance); // queued
    const seen: string[] = [];
    while (runtime.isPaused(instance)) {
      seen.push(runtime.debugStatus(instance).nodeId);
      runtime.step(instance);
    }
    expect(seen).toEqual(order);
    expect(runtime.debugStatus(instance).stepping).toBe(true); // the next node of a later event will stop
    go(instance);
    expect(runtime.debugStatus(instance).nodeId).toBe('go');
    runtime.continue(instance);
    expect(log.filter((x) => x === 'a').length).toBe(2 + 3);
  });

  test('a breakpoint in an instance another graph fires into pauses only that one', () => {
    const log: string[] = [];
    const registry = loggingRegistry(log);
    let target: FlowInstance | null = null;
    const runtime = new FlowRuntime();
    registry.defineAction({ name: 'poke', run: () => { runtime.collision(target!, 5); } });
    const source = (kind: 'poker' | 'poked'): FlowGraphSource => kind === 'poker'
      ? { flow: 1, kind: 'unit', nodes: [{ id: 'go', type: 'event/external', settings: { name: 'go' } }, { id: 'p', type: 'action/poke' }, { id: 'after', type: 'action/log', inputs: { tag: 'after poke' } }], events: [e('go.out', 'p.in'), e('p.out', 'after.in')] }
      : { flow: 1, kind: 'unit', nodes: [{ id: 'hit', type: 'event/collision' }, { id: 'l', type: 'action/log_unit' }], events: [e('hit.out', 'l.in')], links: [e('hit.actor', 'l.unit')] };
    const poker = loadFlowProgram(compileFlowGraph(source('poker'), registry), registry).instantiate(1);
    const pokedProgram = loadFlowProgram(compileFlowGraph(source('poked'), registry), registry);
    target = pokedProgram.instantiate(2);
    runtime.setBreakpoint(target, 'l');
    runtime.external(poker, poker.program.externalEvent('go'));
    expect(log).toEqual(['after poke']);
    expect(runtime.isPaused(target)).toBe(true);
    runtime.continue(target);
    expect(log).toEqual(['after poke', 'unit 5']);
  });

  test('reset() ends a pause and drops its pending work; breakpoints stay', () => {
    const { program, runtime, log, go } = setup();
    const instance = program.instantiate(1);
    runtime.setBreakpoint(instance, 'a');
    go(instance);
    go(instance);
    instance.reset();
    expect(runtime.isPaused(instance)).toBe(false);
    expect(runtime.debugStatus(instance)).toMatchObject({ queued: 0, breakpoints: ['a'] });
    expect(log).toEqual([]);
  });

  test('random graphs, random breakpoints, steps and continues: the same log and state as never pausing', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.integer({ min: 3, max: 20 }),
        fc.array(fc.tuple(fc.constantFrom('a', 'b'), fc.integer({ min: -3, max: 3 })), { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 4 }),
        fc.array(fc.boolean(), { maxLength: 40 }),
        (seed, size, fired, breakAt, controls) => {
          const source = randomGraph(seed, size);
          const logs: string[][] = [[], []];
          const [plain, debugged] = logs.map((log) => {
            const registry = loggingRegistry(log);
            const program = loadFlowProgram(compileFlowGraph(source, registry), registry);
            return { program, runtime: new FlowRuntime({ pausedQueueSize: 16 }), instance: program.instantiate(0) };
          }) as [{ program: FlowProgram; runtime: FlowRuntime; instance: FlowInstance }, { program: FlowProgram; runtime: FlowRuntime; instance: FlowInstance }];
          const { program, runtime, instance } = debugged;
          for (const k of breakAt) {
            const node = k % program.nodeCount;
            if (program.words[program.nodeWord(node) + 5]! > 0) runtime.setBreakpoint(instance, node);
          }
          let c = 0;
          for (const run of [plain, debugged]) {
            const names = run.program.externalEventNames();
            for (const [name, value] of fired) {
              if (!names.includes(name)) continue;
              run.runtime.external(run.instance, run.program.externalEvent(name), value);
              if (run === debugged && runtime.isPaused(instance) && c < controls.length) {
                if (controls[c++]) runtime.step(instance);
                else runtime.continue(instance);
              }
            }
          }
          for (const id of runtime.debugStatus(instance).breakpoints) runtime.clearBreakpoint(instance, id);
          while (runtime.isPaused(instance)) runtime.continue(instance);
          if (runtime.debugStatus(instance).stepping) runtime.continue(instance); // disarms a step that ran out of work
          expect(logs[1]).toEqual(logs[0]);
          expect(instance.state).toEqual(plain.instance.state);
          expect(runtime.executions).toBe(plain.runtime.executions);
          expect(instance.debug).toBeNull();
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('bad debug calls change nothing', () => {
  test('typed errors naming the problem', () => {
    const { program, runtime } = setup();
    const instance = program.instantiate(1);
    expect(() => { runtime.setBreakpoint(instance, 'nope'); }).toThrow(/no node "nope"/);
    expect(() => { runtime.setBreakpoint(instance, 99); }).toThrow(/Node index 99 is out of range/);
    expect(() => { runtime.setBreakpoint(instance, 'plus'); }).toThrow(/"plus" is a pure node/);
    expect(() => { runtime.setBreakpoint(instance, 'hits'); }).toThrow(FlowError);
    expect(() => { runtime.setBreakpoint(instance, {} as never); }).toThrow(/id \(string\) or index \(number\)/);
    expect(() => { runtime.setBreakpoint(({} as unknown as FlowInstance), 'a'); }).toThrow(/needs a FlowInstance/);
    expect(() => { runtime.continue(instance); }).toThrow(/not paused/);
    expect(() => { runtime.step(instance); }).toThrow(/not paused/);
    expect(() => new FlowRuntime({ pausedQueueSize: 0 })).toThrow(/pausedQueueSize/);
    expect(() => new FlowRuntime({ onPause: 3 as never })).toThrow(/onPause must be a function/);
    expect(instance.debug).toBeNull();
    expect(runtime.clearBreakpoint(instance, 'a')).toBe(false);
    expect(instance.debug).toBeNull();
  });

  test('a full paused queue drops and counts what does not fit', () => {
    const { program, runtime, go } = setup({ pausedQueueSize: 2 });
    const instance = program.instantiate(1);
    runtime.setBreakpoint(instance, 'a');
    for (let i = 0; i < 5; i++) go(instance);
    expect(runtime.debugStatus(instance)).toMatchObject({ queued: 2, droppedEvents: 2 });
  });
});

describe('runtime.debuggedInstances', () => {
  test('counts the instances debugging holds: watch, breakpoints and pauses attach one once; it drops when the last of them goes', () => {
    const { program, runtime, go } = setup();
    const a = program.instantiate(1);
    const b = program.instantiate(2);
    expect(runtime.debuggedInstances).toBe(0);
    runtime.watch(a);
    runtime.setBreakpoint(a, 'b');
    expect(runtime.debuggedInstances, 'one instance, twice held').toBe(1);
    runtime.setBreakpoint(b, 'c');
    expect(runtime.debuggedInstances).toBe(2);
    runtime.pause(b);
    runtime.clearBreakpoint(b, 'c');
    expect(runtime.debuggedInstances, 'b still stepping').toBe(2);
    go(b);
    expect(runtime.isPaused(b)).toBe(true);
    runtime.continue(b);
    expect(b.debug).toBeNull();
    expect(runtime.debuggedInstances).toBe(1);
    runtime.unwatch(a);
    expect(runtime.debuggedInstances, 'a keeps its breakpoint').toBe(1);
    runtime.clearBreakpoint(a, 'b');
    expect(a.debug).toBeNull();
    expect(runtime.debuggedInstances).toBe(0);
  });
});
