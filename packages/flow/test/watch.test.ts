import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { explodingBarrel } from '../examples/exploding-barrel.ts';
import { compileFlowGraph, FLOW_FIRED_BY_HOST, FLOW_PURE_EVALUATION, FlowError, FlowRegistry, FlowRuntime, loadFlowProgram, type FlowInstance, type FlowWatch, type FlowProgram } from '../src/index.ts';
import { loggingRegistry } from './helpers.ts';
import { randomGraph } from './random-graph.ts';

function barrelProgram(log: string[] = []): FlowProgram {
  const registry = new FlowRegistry();
  registry.defineAction({ name: 'spawn_effect', inputs: [{ name: 'name', type: 'string' }], run: (call) => log.push(`effect ${call.string(0)}`) });
  registry.defineAction({ name: 'play_sound', inputs: [{ name: 'name', type: 'string' }], run: (call) => log.push(`sound ${call.string(0)}`) });
  registry.defineAction({ name: 'push_actor', inputs: [{ name: 'target', type: 'unit' }, { name: 'force', type: 'float' }], run: (call) => log.push(`push ${call.number(0)}`) });
  registry.defineAction({ name: 'destroy_unit', run: (call) => log.push(`destroy ${call.instance.unit}`) });
  return loadFlowProgram(compileFlowGraph(explodingBarrel, registry), registry);
}

function trace(watch: FlowWatch): [string, number, number[]][] {
  const out: [string, number, number[]][] = [];
  for (let r = 0; r < watch.count; r++) {
    const { id, socket, values } = watch.record(r);
    out.push([id, socket, values]);
  }
  return out;
}

describe('watching one instance', () => {
  test('records which nodes ran, in order, with the values on their pins', () => {
    const program = barrelProgram();
    const runtime = new FlowRuntime();
    const barrel = program.instantiate(7);
    const watch = runtime.watch(barrel);
    runtime.collision(barrel, 100);
    // hit fires store; store reads damage (pure); check reads dead (pure); health > 0: false branch, nothing linked.
    expect(trace(watch)).toEqual([
      ['hit', FLOW_FIRED_BY_HOST, [100]],
      ['damage', FLOW_PURE_EVALUATION, [100, 40, 60]],
      ['store', 0, [60]],
      ['dead', FLOW_PURE_EVALUATION, [60, 0, 0]],
      ['check', 0, [0]],
    ]);
    expect(watch.runs[program.nodeIndex('store')]).toBe(1);
    expect(watch.runs[program.nodeIndex('once')]).toBe(0);
    expect(watch.lastValues('damage')).toEqual([100, 40, 60]);
    expect(watch.lastValues('fuse')).toEqual([NaN]); // never ran
    expect(watch.dropped).toBe(0);
  });

  test('clear() starts a frame: trace and run counts reset, last pin values stay', () => {
    const log: string[] = [];
    const program = barrelProgram(log);
    const runtime = new FlowRuntime();
    const barrel = program.instantiate(3);
    const watch = runtime.watch(barrel);
    runtime.collision(barrel, 1);
    runtime.collision(barrel, 2);
    expect(watch.runs[program.nodeIndex('hit')]).toBe(2);
    watch.clear();
    expect(watch.frame).toBe(1);
    expect(watch.count).toBe(0);
    expect(watch.runs.every((n) => n === 0)).toBe(true);
    expect(watch.lastValues('damage')).toEqual([60, 40, 20]);
    runtime.collision(barrel, 9); // health 20 -> -20: once, fuse
    runtime.update(barrel, 0.5); // fuse fires
    const ids = trace(watch).map(([id]) => id);
    expect(ids).toEqual(['hit', 'damage', 'store', 'dead', 'check', 'once', 'fuse', 'fuse', 'boom', 'effect', 'sound', 'push', 'remove']);
    expect(trace(watch)[7]).toEqual(['fuse', FLOW_FIRED_BY_HOST, [0.5]]);
    expect(log).toEqual(['effect fx/barrel_explosion', 'sound sfx/explosion', 'push 9', 'destroy 3']);
  });

  test('the trace is bounded: what does not fit is counted, never stored', () => {
    const program = barrelProgram();
    const runtime = new FlowRuntime();
    const barrel = program.instantiate(1);
    const watch = runtime.watch(barrel, { records: 3, values: 64 });
    for (let i = 0; i < 10; i++) runtime.collision(barrel, i);
    expect(watch.count).toBe(3);
    // 5 records per collision; the 3rd also runs once and fuse, later ones once (closed).
    expect(watch.dropped).toBe(10 * 5 + 2 + 7 - 3);
    expect(watch.runs[program.nodeIndex('hit')]).toBe(10);
    expect(watch.recordNode.length).toBe(3);

    const narrow = runtime.watch(program.instantiate(2), { records: 100, values: 4 });
    runtime.collision(narrow.instance, 1);
    // hit (1 value) and damage (3) fill the values; store (1) does not fit.
    expect(narrow.count).toBe(2);
    expect(narrow.valueCount).toBe(4);
    expect(narrow.dropped).toBe(3);
  });

  test('only the watched instance is recorded; others, and the watched one, run exactly as unwatched', () => {
    const program = barrelProgram();
    const runtime = new FlowRuntime();
    const plain = new FlowRuntime();
    const watched = program.instantiate(1);
    const other = program.instantiate(2);
    const reference = program.instantiate(1);
    const watch = runtime.watch(watched);
    for (let i = 0; i < 6; i++) {
      runtime.collision(watched, i);
      runtime.collision(other, i);
      plain.collision(reference, i);
      runtime.update(watched, 0.2);
      runtime.update(other, 0.2);
      plain.update(reference, 0.2);
    }
    expect(watched.state).toEqual(reference.state);
    expect(other.state).toEqual(reference.state);
    expect(runtime.executions).toBe(2 * plain.executions);
    expect(watch.runs[program.nodeIndex('hit')]).toBe(6);
    expect(other.debug).toBeNull();
  });

  test('watched random graphs log, count and end in the same state as unwatched ones', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.integer({ min: 3, max: 24 }),
        fc.array(fc.tuple(fc.constantFrom('a', 'b'), fc.integer({ min: -3, max: 3 })), { minLength: 1, maxLength: 10 }),
        (seed, size, fired) => {
          const graph = randomGraph(seed, size);
          const logs: string[][] = [[], []];
          const runs = logs.map((log) => {
            const registry = loggingRegistry(log);
            const program = loadFlowProgram(compileFlowGraph(graph, registry), registry);
            return { program, runtime: new FlowRuntime(), instance: program.instantiate(0) };
          });
          const watch = runs[1]!.runtime.watch(runs[1]!.instance, { records: 16 });
          for (const run of runs) {
            const names = run.program.externalEventNames();
            for (const [name, value] of fired) if (names.includes(name)) run.runtime.external(run.instance, run.program.externalEvent(name), value);
          }
          expect(logs[1]).toEqual(logs[0]);
          expect(runs[1]!.instance.state).toEqual(runs[0]!.instance.state);
          expect(runs[1]!.runtime.executions).toBe(runs[0]!.runtime.executions);
          let total = 0;
          for (const n of watch.runs) total += n;
          expect(total).toBe(runs[0]!.runtime.executions);
          expect(watch.count + watch.dropped).toBe(total);
        },
      ),
      { numRuns: 200 },
    );
  });

  test('unwatch puts the instance back on the fast path', () => {
    const program = barrelProgram();
    const runtime = new FlowRuntime();
    const barrel = program.instantiate(1);
    const watch = runtime.watch(barrel);
    expect(barrel.debug).not.toBeNull();
    expect(runtime.unwatch(barrel)).toBe(true);
    expect(barrel.debug).toBeNull();
    expect(runtime.unwatch(barrel)).toBe(false);
    runtime.collision(barrel, 1);
    expect(watch.count).toBe(0);
  });
});

describe('bad watch calls change nothing', () => {
  test('typed errors naming the problem', () => {
    const program = barrelProgram();
    const runtime = new FlowRuntime();
    const barrel = program.instantiate(1);
    expect(() => runtime.watch(({} as unknown as FlowInstance))).toThrow(/FlowInstance/);
    expect(() => runtime.watch(barrel, { records: 0 })).toThrow(/records must be an integer/);
    expect(() => runtime.watch(barrel, { values: 1.5 })).toThrow(FlowError);
    expect(() => runtime.watch(barrel, null as never)).toThrow(/options must be an object/);
    expect(barrel.debug).toBeNull();
    const watch = runtime.watch(barrel);
    expect(() => runtime.watch(barrel)).toThrow(/already watched/);
    expect(barrel.debug?.watch).toBe(watch);
    expect(() => watch.record(0)).toThrow(/out of range/);
    expect(() => watch.lastValues('nope')).toThrow(/no node "nope"/);
    expect(() => watch.lastValues(99)).toThrow(/Node index 99 is out of range/);
  });

  test('debug calls from inside a host action are refused', () => {
    const registry = new FlowRegistry();
    const runtime = new FlowRuntime();
    const errors: string[] = [];
    registry.defineAction({
      name: 'meddle',
      run: (call) => {
        try {
          runtime.watch(call.instance as unknown as FlowInstance);
        } catch (error) {
          errors.push((error as Error).message);
        }
      },
    });
    const program = loadFlowProgram(compileFlowGraph({ flow: 1, kind: 'unit', nodes: [{ id: 'hit', type: 'event/collision' }, { id: 'm', type: 'action/meddle' }], events: [{ from: 'hit.out', to: 'm.in' }] }, registry), registry);
    const instance = program.instantiate(1);
    runtime.collision(instance, 2);
    expect(errors).toEqual([expect.stringMatching(/inside a host action/)]);
    expect(instance.debug).toBeNull();
  });
});
