// Recorded actions replayed on the host thread against running them at once: the same actions in
// the same order with the same values, the same instance states and the same execution counts,
// with the recording side on its own programs (loaded from the same bytes) and its instances over
// state placed in shared memory, as a worker thread would run them.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  compileFlowGraph,
  FlowActionRecorder,
  FlowActionReplay,
  FlowError,
  FlowRegistry,
  FlowRuntime,
  FlowTapeFullError,
  loadFlowProgram,
  type FlowGraphSource,
  type FlowInstance,
  type FlowProgram,
} from '../src/index.ts';
import { e, loggingRegistry } from './helpers.ts';
import { randomGraph } from './random-graph.ts';

/** A unit graph whose timer logs its counter, and whose delay logs its name, every few updates. */
const blinker: FlowGraphSource = {
  flow: 1,
  kind: 'unit',
  nodes: [
    { id: 'timer', type: 'event/timer', inputs: { period: 0.1 } },
    { id: 'count', type: 'logic/counter', inputs: { target: 3 } },
    { id: 'value', type: 'action/log_value' },
    { id: 'delay', type: 'logic/delay', inputs: { seconds: 0.25 } },
    { id: 'name', type: 'action/log', inputs: { tag: 'delayed' } },
    { id: 'unit', type: 'action/log_unit' },
    { id: 'self', type: 'event/unit_spawned' },
  ],
  events: [e('timer.tick', 'count.in'), e('count.out', 'value.in'), e('count.reached', 'delay.in'), e('count.reached', 'count.reset'), e('delay.out', 'name.in'), e('name.out', 'unit.in')],
  links: [
    { from: 'count.count', to: 'value.value' },
    { from: 'self.unit', to: 'unit.unit' },
  ],
};

/** The host side: programs bound to logging actions, instances with their own state. */
function host(file: ArrayBuffer, count: number): { log: string[]; registry: FlowRegistry; program: FlowProgram; runtime: FlowRuntime; instances: FlowInstance[] } {
  const log: string[] = [];
  const registry = loggingRegistry(log);
  const program = loadFlowProgram(file, registry);
  const instances = Array.from({ length: count }, (_, k) => {
    const instance = program.instantiate(100 + k);
    instance.user = k;
    return instance;
  });
  return { log, registry, program, runtime: new FlowRuntime(), instances };
}

/** Moves every instance's state into one shared arena; returns the arena. */
function placeInShared(instances: readonly FlowInstance[]): Float64Array {
  const slots = instances[0]!.program.template.length;
  const arena = new Float64Array(new SharedArrayBuffer(Math.max(1, instances.length * slots) * 8));
  instances.forEach((instance, k) => { instance.placeState(arena.subarray(k * slots, (k + 1) * slots)); });
  return arena;
}

/** The "worker": its own programs from the same bytes with recording actions, instances over the arena. */
function recorderSide(file: ArrayBuffer, arena: Float64Array, count: number, options?: ConstructorParameters<typeof FlowRuntime>[0]) {
  const recorder = new FlowActionRecorder(loggingRegistry([]));
  const program = loadFlowProgram(file, recorder.registry);
  const slots = program.template.length;
  const instances = Array.from({ length: count }, (_, k) => {
    const instance = program.instanceOver(arena.subarray(k * slots, (k + 1) * slots), 100 + k);
    instance.user = k;
    return instance;
  });
  return { recorder, program, instances, runtime: new FlowRuntime(options) };
}

const bytes = (state: Float64Array): Uint8Array => new Uint8Array(state.buffer, state.byteOffset, state.byteLength).slice();

describe('recorded actions, replayed on the host thread', () => {
  test('random graphs and event sequences: the same log, states and executions as running the actions at once', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.integer({ min: 3, max: 24 }),
        fc.array(fc.array(fc.tuple(fc.constantFrom('a', 'b'), fc.integer({ min: -3, max: 3 })), { maxLength: 6 }), { minLength: 1, maxLength: 5 }),
        (seed, size, eventsPerInstance) => {
          const registry = loggingRegistry([]);
          const file = compileFlowGraph(randomGraph(seed, size), registry);
          const count = eventsPerInstance.length;
          const direct = host(file, count);
          const replayed = host(file, count);
          const arena = placeInShared(replayed.instances);
          const worker = recorderSide(file, arena, count);
          const tape = new Float64Array(new SharedArrayBuffer(64 * 1024));
          worker.recorder.begin(tape);
          const names = direct.program.externalEventNames();
          eventsPerInstance.forEach((fired, k) => {
            for (const [name, value] of fired) {
              if (!names.includes(name)) continue;
              direct.runtime.external(direct.instances[k]!, direct.program.externalEvent(name), value);
              worker.runtime.external(worker.instances[k]!, worker.program.externalEvent(name), value);
            }
          });
          const replay = new FlowActionReplay(replayed.registry);
          let at = 0;
          for (let k = 0; k < count; k++) at = replay.run(tape, at, worker.recorder.position, k, replayed.instances[k]!, () => undefined);
          expect(at).toBe(worker.recorder.position);
          expect(replayed.log).toEqual(direct.log);
          expect(worker.runtime.executions).toBe(direct.runtime.executions);
          for (let k = 0; k < count; k++) expect(bytes(replayed.instances[k]!.state)).toEqual(bytes(direct.instances[k]!.state));
        },
      ),
      { numRuns: 200 },
    );
  });

  test('timers and delays over 60 updates, instances split over four recorders: the same log in instance order', () => {
    const file = compileFlowGraph(blinker, loggingRegistry([]));
    const count = 40;
    const direct = host(file, count);
    const replayed = host(file, count);
    const arena = placeInShared(replayed.instances);
    // Four "workers", each with its own runtime, recorder and region of one tape.
    const workers = Array.from({ length: 4 }, () => recorderSide(file, arena, count));
    const region = 4096;
    const tape = new Float64Array(new SharedArrayBuffer(region * workers.length * 8));
    const replay = new FlowActionReplay(replayed.registry);
    for (let k = 0; k < count; k++) {
      direct.runtime.unitSpawned(direct.instances[k]!);
      replayed.runtime.unitSpawned(replayed.instances[k]!);
    }
    let executions = direct.runtime.executions;
    let cursor = 0;
    for (let frame = 0; frame < 60; frame++) {
      const dt = 0.016 + (frame % 7) * 0.004;
      for (const instance of direct.instances) direct.runtime.update(instance, dt);
      workers.forEach((worker, w) => {
        worker.recorder.begin(tape, w * region, (w + 1) * region);
        for (let k = w * 10; k < (w + 1) * 10; k++) worker.runtime.update(worker.instances[k]!, dt);
      });
      for (let k = 0; k < count; k++) {
        const w = Math.floor(k / 10);
        const end = workers[w]!.recorder.position;
        const start = k % 10 === 0 ? w * region : cursor;
        cursor = replay.run(tape, start, end, k, replayed.instances[k]!, () => undefined);
      }
    }
    executions = workers.reduce((sum, worker) => sum + worker.runtime.executions, 0) + executions;
    expect(replayed.log.length).toBeGreaterThan(400);
    expect(replayed.log).toContain('delayed');
    expect(replayed.log).toContain('unit 139');
    expect(replayed.log).toEqual(direct.log);
    expect(executions).toBe(direct.runtime.executions);
    for (let k = 0; k < count; k++) expect(bytes(replayed.instances[k]!.state)).toEqual(bytes(direct.instances[k]!.state));
  });

  test('a full tape throws FlowTapeFullError; the instance restored and run on the host gives the same result', () => {
    const file = compileFlowGraph(blinker, loggingRegistry([]));
    const count = 30;
    const direct = host(file, count);
    const replayed = host(file, count);
    const arena = placeInShared(replayed.instances);
    const worker = recorderSide(file, arena, count);
    const tape = new Float64Array(new SharedArrayBuffer(25 * 8)); // room for about five records
    const replay = new FlowActionReplay(replayed.registry);
    const snapshot = new Float64Array(direct.program.template.length);
    let redone = 0;
    for (let frame = 0; frame < 30; frame++) {
      for (const instance of direct.instances) direct.runtime.update(instance, 0.1);
      // The worker stops at the first update that does not fit; the host runs that one and the rest.
      worker.recorder.begin(tape);
      let stop = count;
      for (let k = 0; k < count; k++) {
        const instance = worker.instances[k]!;
        snapshot.set(instance.state);
        const mark = worker.recorder.position;
        const executions = worker.runtime.executions;
        try {
          worker.runtime.update(instance, 0.1);
        } catch (error) {
          expect(error).toBeInstanceOf(FlowTapeFullError);
          expect((error as FlowTapeFullError).needed).toBe(4);
          instance.state.set(snapshot);
          worker.recorder.rewind(mark);
          worker.runtime.executions = executions;
          stop = k;
          break;
        }
      }
      let at = 0;
      for (let k = 0; k < count; k++) {
        if (k < stop) at = replay.run(tape, at, worker.recorder.position, k, replayed.instances[k]!, () => undefined);
        else replayed.runtime.update(replayed.instances[k]!, 0.1);
      }
      if (stop < count) redone++;
    }
    expect(redone).toBeGreaterThan(5);
    expect(replayed.log).toEqual(direct.log);
    for (let k = 0; k < count; k++) expect(bytes(replayed.instances[k]!.state)).toEqual(bytes(direct.instances[k]!.state));
  });

  test('an update that throws: its actions before the throw replay, then the failure, with the same message', () => {
    const source: FlowGraphSource = {
      flow: 1,
      kind: 'unit',
      nodes: [
        { id: 'timer', type: 'event/timer', inputs: { period: 0.5 } },
        { id: 'first', type: 'action/log', inputs: { tag: 'before' } },
        { id: 'seq', type: 'logic/sequence' },
        { id: 'a', type: 'action/log', inputs: { tag: 'a' } },
        { id: 'b', type: 'action/log', inputs: { tag: 'b' } },
        { id: 'c', type: 'action/log', inputs: { tag: 'c' } },
      ],
      events: [e('timer.tick', 'first.in'), e('first.out', 'seq.in'), e('seq.out0', 'a.in'), e('seq.out1', 'b.in'), e('seq.out2', 'c.in')],
    };
    const file = compileFlowGraph(source, loggingRegistry([]));
    const direct = host(file, 2);
    const strict = new FlowRuntime({ maxStepsPerCall: 5 });
    const replayed = host(file, 2);
    const worker = recorderSide(file, placeInShared(replayed.instances), 2, { maxStepsPerCall: 5 });
    const tape = new Float64Array(new SharedArrayBuffer(1024 * 8));
    worker.recorder.begin(tape);
    const directErrors: string[] = [];
    for (const instance of direct.instances) {
      try {
        strict.update(instance, 0.5);
      } catch (error) {
        directErrors.push((error as Error).message);
      }
    }
    worker.instances.forEach((instance, k) => {
      try {
        worker.runtime.update(instance, 0.5);
      } catch (error) {
        worker.recorder.recordError(k, (error as Error).message);
      }
    });
    const errors: string[] = [];
    const replay = new FlowActionReplay(replayed.registry);
    let at = 0;
    for (let k = 0; k < 2; k++) at = replay.run(tape, at, worker.recorder.position, k, replayed.instances[k]!, (user, message) => errors.push(`${user}: ${message}`));
    expect(directErrors).toHaveLength(2);
    expect(directErrors[0]).toMatch(/5/);
    expect(errors).toEqual(directErrors.map((message, k) => `${k}: ${message}`));
    expect(direct.log).toEqual(['before', 'a', 'b', 'c', 'before', 'a', 'b', 'c']); // the limit is hit after c
    expect(replayed.log).toEqual(direct.log);
    for (let k = 0; k < 2; k++) expect(bytes(replayed.instances[k]!.state)).toEqual(bytes(direct.instances[k]!.state));
  });

  test('an action with outputs cannot be recorded: canRecord says so and running it throws a FlowError', () => {
    const registry = new FlowRegistry();
    registry.defineAction({ name: 'roll', outputs: [{ name: 'value', type: 'float' }], run: (call) => { call.set(0, 4); } });
    registry.defineAction({ name: 'note', inputs: [{ name: 'value', type: 'float' }], run: () => undefined });
    const rolls = compileFlowGraph({ flow: 1, kind: 'unit', nodes: [{ id: 'go', type: 'event/external', settings: { name: 'go' } }, { id: 'roll', type: 'action/roll' }], events: [e('go.out', 'roll.in')] }, registry);
    const notes = compileFlowGraph({ flow: 1, kind: 'unit', nodes: [{ id: 'go', type: 'event/external', settings: { name: 'go' } }, { id: 'note', type: 'action/note' }], events: [e('go.out', 'note.in')] }, registry);
    const recorder = new FlowActionRecorder(registry);
    const rolling = loadFlowProgram(rolls, recorder.registry);
    expect(recorder.canRecord(rolling)).toBe(false);
    expect(recorder.canRecord(loadFlowProgram(notes, recorder.registry))).toBe(true);
    recorder.begin(new Float64Array(64));
    expect(() => { new FlowRuntime().external(rolling.instantiate(), 0); }).toThrow(/has outputs.*host thread/);
    expect(recorder.position).toBe(0);
  });

  test('bad tape ranges, rewinds and registries are refused with a FlowError', () => {
    const recorder = new FlowActionRecorder(loggingRegistry([]));
    const tape = new Float64Array(16);
    expect(() => { recorder.begin(tape, 4, 17); }).toThrow(FlowError);
    expect(() => { recorder.begin(tape, 5, 4); }).toThrow(FlowError);
    expect(() => { recorder.begin([] as unknown as Float64Array); }).toThrow(/Float64Array/);
    recorder.begin(tape, 2, 16);
    expect(() => { recorder.rewind(3); }).toThrow(/rewind/);
    recorder.recordError(7, 'no');
    expect(recorder.position).toBe(7);
    expect(() => { recorder.recordError(7, 'x'.repeat(20)); }).toThrow(FlowTapeFullError);
    expect(recorder.position).toBe(7);
    // A replay whose registry has fewer actions than the recorder's.
    const fewer = new FlowRegistry();
    const program = loadFlowProgram(compileFlowGraph({ flow: 1, kind: 'unit', nodes: [] }, fewer), fewer);
    tape.set([0, 2, 1, 5]);
    expect(() => new FlowActionReplay(fewer).run(tape, 0, 4, 0, program.instantiate(), () => undefined)).toThrow(/same actions in the same order/);
    tape.set([0, 0, 9]);
    expect(() => new FlowActionReplay(loggingRegistry([])).run(tape, 0, 4, 0, program.instantiate(), () => undefined)).toThrow(/damaged/);
  });
});

describe('state placed in caller memory', () => {
  test('placeState copies the state and runs on the given array; instanceOver adopts one as it is', () => {
    const file = compileFlowGraph(blinker, loggingRegistry([]));
    const { program, runtime, instances } = host(file, 1);
    const instance = instances[0]!;
    runtime.update(instance, 0.35);
    const before = instance.state.slice();
    const shared = new Float64Array(new SharedArrayBuffer(program.template.length * 8));
    instance.placeState(shared);
    expect(instance.state).toBe(shared);
    expect(Array.from(shared)).toEqual(Array.from(before));
    runtime.update(instance, 0.1);
    expect(Array.from(shared)).not.toEqual(Array.from(before));
    const other = loadFlowProgram(file, loggingRegistry([])).instanceOver(shared, 5);
    expect(other.state).toBe(shared);
    expect(other.unit).toBe(5);
  });

  test('wrong lengths and types are refused and change nothing', () => {
    const file = compileFlowGraph(blinker, loggingRegistry([]));
    const { program, instances } = host(file, 1);
    const instance = instances[0]!;
    const state = instance.state;
    expect(() => { instance.placeState(new Float64Array(program.template.length + 1)); }).toThrow(/state slots per instance/);
    expect(() => { instance.placeState(new Float32Array(program.template.length) as unknown as Float64Array); }).toThrow(/Float64Array/);
    expect(() => program.instanceOver(new Float64Array(1))).toThrow(FlowError);
    expect(() => program.instanceOver(new Float64Array(program.template.length), 1.5)).toThrow(/integer/);
    expect(instance.state).toBe(state);
  });
});
