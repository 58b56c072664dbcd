import fc from 'fast-check';
import { expect, test } from 'vitest';
import { compileFlowGraph, FlowRegistry, FlowRuntime, loadFlowProgram, type FlowNodeSource, type FlowLinkSource } from '../src/index.ts';

type Expr = { leaf: number | 'x' } | { op: 'add' | 'sub' | 'mul' | 'min' | 'max'; a: Expr; b: Expr } | { op: 'neg' | 'abs' | 'floor'; a: Expr };

const exprArb = fc.letrec<{ expr: Expr }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ leaf: fc.oneof(fc.constant<'x'>('x'), fc.double({ min: -1e3, max: 1e3, noNaN: true })) }),
    fc.record({ op: fc.constantFrom<'add' | 'sub' | 'mul' | 'min' | 'max'>('add', 'sub', 'mul', 'min', 'max'), a: tie('expr'), b: tie('expr') }),
    fc.record({ op: fc.constantFrom<'neg' | 'abs' | 'floor'>('neg', 'abs', 'floor'), a: tie('expr') }),
  ),
})).expr;

function evaluate(e: Expr, x: number): number {
  if ('leaf' in e) return e.leaf === 'x' ? x : e.leaf;
  const a = evaluate(e.a, x);
  switch (e.op) {
    case 'neg': return -a;
    case 'abs': return Math.abs(a);
    case 'floor': return Math.floor(a);
    case 'add': return a + evaluate(e.b, x);
    case 'sub': return a - evaluate(e.b, x);
    case 'mul': return a * evaluate(e.b, x);
    case 'min': return Math.min(a, evaluate(e.b, x));
    case 'max': return Math.max(a, evaluate(e.b, x));
  }
}

/** Builds the graph for `e`: one math node per operation, the external value as x. */
function toGraph(root: Expr): { nodes: FlowNodeSource[]; links: FlowLinkSource[] } {
  const nodes: FlowNodeSource[] = [
    { id: 'go', type: 'event/external', settings: { name: 'go' } },
    { id: 'set', type: 'variable/set', settings: { variable: 'out' } },
  ];
  const links: FlowLinkSource[] = [];
  // Wires `e` into input `to`: a constant on the input, a link from x, or a new node.
  const wire = (e: Expr, node: FlowNodeSource, input: string): void => {
    if ('leaf' in e) {
      if (e.leaf === 'x') links.push({ from: 'go.value', to: `${node.id}.${input}` });
      else (node.inputs ??= {})[input] = e.leaf;
      return;
    }
    const child: FlowNodeSource = { id: `n${nodes.length}`, type: `math/${e.op}` };
    nodes.push(child);
    wire(e.a, child, 'a');
    if ('b' in e) wire(e.b, child, 'b');
    links.push({ from: `${child.id}.result`, to: `${node.id}.${input}` });
  };
  wire(root, nodes[1]!, 'value');
  return { nodes, links };
}

test('compiled math graphs compute exactly what the same expression computes in JavaScript', () => {
  const registry = new FlowRegistry();
  const runtime = new FlowRuntime();
  fc.assert(
    fc.property(exprArb, fc.double({ min: -1e3, max: 1e3, noNaN: true }), (expr, x) => {
      const { nodes, links } = toGraph(expr);
      const source = { flow: 1, kind: 'unit', variables: { out: { type: 'float' } }, nodes, events: [{ from: 'go.out', to: 'set.in' }], links };
      const program = loadFlowProgram(compileFlowGraph(source, registry), registry);
      const instance = program.instantiate(0);
      runtime.external(instance, 0, x);
      expect(instance.state[program.variable('out').slot]).toBe(evaluate(expr, x));
    }),
    { numRuns: 300 },
  );
});
