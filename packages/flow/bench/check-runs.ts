// Runs each benchmark graph once on every contender and checks what it did before anything is
// timed: the same node executions per event (the figure the rates divide by), and, for the math
// graph, the value a plain TypeScript evaluation of the same tree gives.
import type { Engine } from '@behave-graph/core';
import { FlowRuntime, type FlowProgram } from '../src/index.ts';
import { BaselineFlowRuntime } from './baseline-runtime.ts';
import { mathHeavyValue } from './graphs.ts';

export class BenchCheckError extends Error {
  override readonly name = 'BenchCheckError';
}

interface BehaveRun {
  engine: Engine;
  fire: () => void;
  /** The graph's `out` variable, for the math graph. */
  out?: () => unknown;
}

function expectEqual(what: string, got: unknown, want: unknown): void {
  if (got !== want) throw new BenchCheckError(`${what}: got ${String(got)}, expected ${String(want)}.`);
}

/**
 * Fires `events` events into each runtime and into behave-graph; throws unless every contender
 * ran `nodesPerEvent` nodes an event as behave-graph counts them (ours also counts the event
 * node) and, where `x` is given, wrote the tree's value for it into `out`.
 */
export function checkGraphRuns(label: string, program: FlowProgram, behave: BehaveRun, nodesPerEvent: number, x?: number, events = 3): void {
  for (const runtime of [new FlowRuntime(), new BaselineFlowRuntime()]) {
    const instance = program.instantiate(0);
    const go = program.externalEvent('go');
    for (let i = 0; i < events; i++) runtime.external(instance, go, x ?? 2);
    expectEqual(`${label}, ${runtime.constructor.name} executions`, runtime.executions, events * (nodesPerEvent + 1));
    if (x !== undefined) expectEqual(`${label}, ${runtime.constructor.name} out`, instance.state[program.variable('out').slot], mathHeavyValue(x));
  }
  const stepsBefore = behave.engine.executionSteps;
  for (let i = 0; i < events; i++) behave.fire();
  expectEqual(`${label}, behave-graph executionSteps`, behave.engine.executionSteps - stepsBefore, events * nodesPerEvent);
  if (x !== undefined && behave.out) expectEqual(`${label}, behave-graph out`, behave.out(), mathHeavyValue(x));
}
