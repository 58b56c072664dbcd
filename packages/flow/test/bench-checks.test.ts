import { DefaultLogger, Engine, ManualLifecycleEventEmitter, readGraphFromJSON, Registry, registerCoreProfile, type GraphJSON } from '@behave-graph/core';
import { describe, expect, it } from 'vitest';
import { BenchCheckError, checkGraphRuns } from '../bench/check-runs.ts';
import { eventHeavyGraph, mathHeavyGraph } from '../bench/graphs.ts';
import { compileFlowGraph, FlowRegistry, loadFlowProgram } from '../src/index.ts';

const behaveRegistry = new Registry();
registerCoreProfile(behaveRegistry, new DefaultLogger(), new ManualLifecycleEventEmitter());
const registry = new FlowRegistry();

function behave(json: GraphJSON, x: number) {
  const graph = readGraphFromJSON(json, behaveRegistry);
  const engine = new Engine(graph);
  const emitter = graph.customEvents['0']!.eventEmitter;
  return { engine, fire: () => { emitter.emit({ x }); engine.executeAllSync(); }, out: (): unknown => graph.variables['0']?.get() as unknown };
}

describe('the benchmark graph checks', () => {
  const math = mathHeavyGraph();
  const mathProgram = loadFlowProgram(compileFlowGraph(math.ours, registry), registry);
  const events = eventHeavyGraph();
  const eventProgram = loadFlowProgram(compileFlowGraph(events.ours, registry), registry);

  it('pass both graphs with the node counts the rates use', () => {
    expect(() => { checkGraphRuns('math', mathProgram, behave(math.behave, 3), 32, 3); }).not.toThrow();
    expect(() => { checkGraphRuns('events', eventProgram, behave(events.behave, 2), 53); }).not.toThrow();
  });

  it('catch a wrong node count', () => {
    expect(() => { checkGraphRuns('math', mathProgram, behave(math.behave, 3), 31, 3); }).toThrow(/FlowRuntime executions: got 99, expected 96/);
    expect(() => { checkGraphRuns('events', eventProgram, behave(events.behave, 2), 54); }).toThrow(BenchCheckError);
  });

  it('catch a peer that computed another value', () => {
    expect(() => { checkGraphRuns('math', mathProgram, behave(math.behave, 5), 32, 3); }).toThrow(/behave-graph out: got -18.75, expected -6.75/);
  });
});
