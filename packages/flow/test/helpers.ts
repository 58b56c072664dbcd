import { compileFlowGraph, FlowRegistry, FlowRuntime, loadFlowProgram, type FlowGraphSource, type FlowInstance, type FlowProgram } from '../src/index.ts';

export interface Harness {
  registry: FlowRegistry;
  program: FlowProgram;
  runtime: FlowRuntime;
  instance: FlowInstance;
  log: string[];
}

/** A registry with logging actions: log(tag: string), log_value(value: float), log_unit(unit: unit). */
export function loggingRegistry(log: string[]): FlowRegistry {
  const registry = new FlowRegistry();
  registry.defineAction({ name: 'log', inputs: [{ name: 'tag', type: 'string' }], run: (call) => log.push(call.string(0)) });
  registry.defineAction({ name: 'log_value', inputs: [{ name: 'value', type: 'float' }], run: (call) => log.push(String(call.number(0))) });
  registry.defineAction({ name: 'log_unit', inputs: [{ name: 'unit', type: 'unit' }], run: (call) => log.push(`unit ${call.number(0)}`) });
  return registry;
}

export function harness(source: Omit<FlowGraphSource, 'flow' | 'kind'> & Partial<Pick<FlowGraphSource, 'kind'>>, unit = 1): Harness {
  const log: string[] = [];
  const registry = loggingRegistry(log);
  const program = loadFlowProgram(compileFlowGraph({ flow: 1, kind: 'unit', ...source }, registry), registry);
  const runtime = new FlowRuntime();
  return { registry, program, runtime, instance: program.instantiate(unit), log };
}

/** Shorthand for event links: e('a.out', 'b.in'). */
export const e = (from: string, to: string): { from: string; to: string } => ({ from, to });
