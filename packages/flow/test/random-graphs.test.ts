// Random graphs from the flow subset (events, gate, once, counter, sequence, branch, pure
// compare/not/add, logging actions), random event sequences: the compiled blob run by the
// interpreter must log exactly what the plain recursive reference logs.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { compileFlowGraph, FlowRuntime, loadFlowProgram } from '../src/index.ts';
import { loggingRegistry } from './helpers.ts';
import { randomGraph } from './random-graph.ts';
import { ReferenceFlow } from './reference-interpreter.ts';

test('the interpreter matches the reference on random graphs and event sequences', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 2 ** 31 - 1 }),
      fc.integer({ min: 3, max: 24 }),
      fc.array(fc.tuple(fc.constantFrom('a', 'b'), fc.integer({ min: -3, max: 3 })), { minLength: 1, maxLength: 12 }),
      (seed, size, fired) => {
        const graph = randomGraph(seed, size);
        const log: string[] = [];
        const registry = loggingRegistry(log);
        const program = loadFlowProgram(compileFlowGraph(graph, registry), registry);
        const instance = program.instantiate(0);
        const runtime = new FlowRuntime();
        const reference = new ReferenceFlow(graph);
        const names = program.externalEventNames();
        for (const [name, value] of fired) {
          if (names.includes(name)) runtime.external(instance, program.externalEvent(name), value);
          reference.external(name, value);
        }
        expect(log).toEqual(reference.log);
      },
    ),
    { numRuns: 400 },
  );
});
