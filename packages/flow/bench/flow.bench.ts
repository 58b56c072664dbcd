import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DefaultLogger, Engine, ManualLifecycleEventEmitter, readGraphFromJSON, Registry, registerCoreProfile, type GraphJSON } from '@behave-graph/core';
import { defineSuite, opsPerSecond, timeMs } from '@cuttle/bench';
import { compileFlowGraph, FlowRegistry, FlowRuntime, loadFlowProgram, type FlowProgram } from '../src/index.ts';
import { BaselineFlowRuntime } from './baseline-runtime.ts';
import { checkGraphRuns } from './check-runs.ts';
import { eventHeavyGraph, mathHeavyGraph } from './graphs.ts';

// The bench runs under tsx without --expose-gc; V8 can still hand out gc() after start-up.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const behaveRegistry = new Registry();
registerCoreProfile(behaveRegistry, new DefaultLogger(), new ManualLifecycleEventEmitter());
const flowRegistry = new FlowRegistry();

const eventHeavy = eventHeavyGraph();
const mathHeavy = mathHeavyGraph();
const eventProgram = loadFlowProgram(compileFlowGraph(eventHeavy.ours, flowRegistry), flowRegistry);
const mathProgram = loadFlowProgram(compileFlowGraph(mathHeavy.ours, flowRegistry), flowRegistry);

// Node executions per event, as behave-graph counts them (its Engine.executionSteps): it does
// not count the event node itself, which @cuttle/flow does, so both sides use its lower figure.
const EVENT_HEAVY_NODES = 53;
const MATH_HEAVY_NODES = 32;

/** Measures `fire`; the first call first runs it for 300 ms so both JITs reach their top tier. */
function rate(fire: () => void, nodesPerEvent: number): () => number {
  let warm = false;
  return () => {
    if (!warm) {
      warm = true;
      opsPerSecond(fire, { minMs: 300 });
    }
    return opsPerSecond(fire, { minMs: 200, opsPerCall: nodesPerEvent });
  };
}

function oursRate(program: FlowProgram, nodesPerEvent: number): () => number {
  const runtime = new FlowRuntime();
  const instance = program.instantiate(0);
  const go = program.externalEvent('go');
  return rate(() => { runtime.external(instance, go, 2); }, nodesPerEvent);
}

/** The runtime as it was before the debugging hooks (bench/baseline-runtime.ts), same graph. */
function baselineRate(program: FlowProgram, nodesPerEvent: number): () => number {
  const runtime = new BaselineFlowRuntime();
  const instance = program.instantiate(0);
  const go = program.externalEvent('go');
  return rate(() => { runtime.external(instance, go, 2); }, nodesPerEvent);
}

/**
 * A watched instance, one frame per event: every node execution is counted and traced with its
 * pin values, then the frame is cleared (what the engine does once per frame).
 */
function watchedRate(program: FlowProgram, nodesPerEvent: number): () => number {
  const runtime = new FlowRuntime();
  const instance = program.instantiate(0);
  const watch = runtime.watch(instance, { records: 1024 });
  const go = program.externalEvent('go');
  return rate(() => {
    runtime.external(instance, go, 2);
    watch.clear();
  }, nodesPerEvent);
}

function behaveInstance(json: GraphJSON, x = 2): { engine: Engine; fire: () => void; out: () => unknown } {
  const graph = readGraphFromJSON(json, behaveRegistry);
  const engine = new Engine(graph);
  const emitter = graph.customEvents['0']!.eventEmitter;
  const params = { x };
  return { engine, fire: () => { emitter.emit(params); engine.executeAllSync(); }, out: (): unknown => graph.variables['0']?.get() as unknown };
}

function behaveRate(json: GraphJSON, nodesPerEvent: number): () => number {
  return rate(behaveInstance(json).fire, nodesPerEvent);
}

/**
 * Bytes each live instance adds: heap plus ArrayBuffer backing stores (which heapUsed leaves
 * out), after full collections, over `count` instances kept alive.
 */
function bytesPerInstance(create: () => unknown, count: number): number {
  const keep = new Array<unknown>(count).fill(null);
  gc();
  gc();
  const before = process.memoryUsage();
  for (let i = 0; i < count; i++) keep[i] = create();
  gc();
  gc();
  const after = process.memoryUsage();
  if (keep.length !== count) throw new Error('unreachable');
  return (after.heapUsed - before.heapUsed + (after.arrayBuffers - before.arrayBuffers)) / count;
}

export const suite = defineSuite({
  package: '@cuttle/flow',
  setup() {
    // Nothing is timed until every contender runs the graphs as the rates assume.
    checkGraphRuns('event-heavy graph', eventProgram, behaveInstance(eventHeavy.behave), EVENT_HEAVY_NODES);
    checkGraphRuns('math-heavy graph', mathProgram, behaveInstance(mathHeavy.behave, 3), MATH_HEAVY_NODES, 3);
  },
  cases: [
    {
      name: 'event-heavy graph (54 nodes: sequence, gate, counter, branch)',
      unit: 'node executions/s',
      higherIsBetter: true,
      ours: oursRate(eventProgram, EVENT_HEAVY_NODES),
      peers: { '@behave-graph/core': behaveRate(eventHeavy.behave, EVENT_HEAVY_NODES) },
    },
    {
      name: 'math-heavy graph (31 math nodes into variable/set)',
      unit: 'node executions/s',
      higherIsBetter: true,
      ours: oursRate(mathProgram, MATH_HEAVY_NODES),
      peers: { '@behave-graph/core': behaveRate(mathHeavy.behave, MATH_HEAVY_NODES) },
    },
    {
      name: 'event-heavy graph, no watcher: against the runtime before debugging hooks',
      unit: 'node executions/s',
      higherIsBetter: true,
      ours: oursRate(eventProgram, EVENT_HEAVY_NODES),
      peers: { 'runtime before debugging hooks': baselineRate(eventProgram, EVENT_HEAVY_NODES) },
    },
    {
      name: 'math-heavy graph, no watcher: against the runtime before debugging hooks',
      unit: 'node executions/s',
      higherIsBetter: true,
      ours: oursRate(mathProgram, MATH_HEAVY_NODES),
      peers: { 'runtime before debugging hooks': baselineRate(mathProgram, MATH_HEAVY_NODES) },
    },
    {
      name: 'event-heavy graph, watched instance: against unwatched',
      unit: 'node executions/s',
      higherIsBetter: true,
      ours: watchedRate(eventProgram, EVENT_HEAVY_NODES),
      peers: { unwatched: oursRate(eventProgram, EVENT_HEAVY_NODES) },
    },
    {
      name: 'math-heavy graph, watched instance: against unwatched',
      unit: 'node executions/s',
      higherIsBetter: true,
      ours: watchedRate(mathProgram, MATH_HEAVY_NODES),
      peers: { unwatched: oursRate(mathProgram, MATH_HEAVY_NODES) },
    },
    {
      name: 'memory per instance, event-heavy graph',
      unit: 'bytes',
      higherIsBetter: false,
      rounds: 3,
      ours: () => bytesPerInstance(() => eventProgram.instantiate(0), 20_000),
      peers: { '@behave-graph/core': () => bytesPerInstance(() => behaveInstance(eventHeavy.behave).engine, 1_000) },
    },
    {
      name: 'memory per instance, math-heavy graph',
      unit: 'bytes',
      higherIsBetter: false,
      rounds: 3,
      ours: () => bytesPerInstance(() => mathProgram.instantiate(0), 20_000),
      peers: { '@behave-graph/core': () => bytesPerInstance(() => behaveInstance(mathHeavy.behave).engine, 1_000) },
    },
    {
      name: 'instantiate 10,000 instances, event-heavy graph',
      unit: 'ms',
      higherIsBetter: false,
      rounds: 3,
      ours: () => timeMs(() => {
        const all = new Array<unknown>(10_000);
        for (let i = 0; i < 10_000; i++) all[i] = eventProgram.instantiate(i);
        return all;
      }),
      peers: {
        '@behave-graph/core': () => timeMs(() => {
          const all = new Array<unknown>(10_000);
          for (let i = 0; i < 10_000; i++) all[i] = new Engine(readGraphFromJSON(eventHeavy.behave, behaveRegistry));
          return all;
        }),
      },
    },
  ],
  notes: [
    'Both engines run the same graphs (bench/graphs.ts builds each twice from one description) in one Node process;',
    'each event is one external event into the graph, run to completion. Node executions count nodes as behave-graph',
    'counts them (Engine.executionSteps: 53 and 32 per event); @cuttle/flow also runs the event node, not counted.',
    'Memory: process.memoryUsage() heapUsed plus arrayBuffers (typed-array backing stores are off the V8 heap), after two',
    'forced collections (gc() taken from V8 at start-up), around creating 20,000 of ours or 1,000 behave-graph',
    'instances (Graph from readGraphFromJSON plus Engine) kept alive; divided by the count. Ours is the FlowInstance',
    'object, its Float64Array and its dynamic blob (264 bytes for both graphs); the shared static blob (4,936 and',
    '2,624 bytes) is paid once per graph, not per instance. behave-graph has no separate shared part: every instance',
    'builds its own node objects. Instantiate: wall time to create 10,000 instances and keep them in an array.',
    'Debugging hooks: "no watcher" runs the same graph in today\'s runtime and in bench/baseline-runtime.ts, a verbatim',
    'copy of the runtime before the hooks (git 2096abc), in the same process: the ratio is their cost on an unwatched',
    'instance (one null check per host call) and should sit at 1.0 within noise. "Watched instance" runs the',
    'instrumented interpreter with a FlowWatch (1,024 records) that records every node execution and its pin values,',
    'cleared after every event as the engine clears it every frame; the ratio against the same runtime unwatched is what',
    'watching costs. Before timing, the bench fires three events into every contender and checks the node executions',
    '(bench/check-runs.ts) and, for the math graph, the value written to its variable against a plain TypeScript',
    'evaluation of the same tree.',
  ].join(' '),
});
