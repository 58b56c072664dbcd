import { describe, expect, test } from 'vitest';
import { compileFlowGraph, FlowGraphError, type FlowIssueCode } from '../src/index.ts';
import { e, loggingRegistry } from './helpers.ts';

const registry = loggingRegistry([]);
const go = { id: 'go', type: 'event/external', settings: { name: 'go' } };

function issueOf(source: unknown): FlowGraphError {
  try {
    compileFlowGraph(source, registry);
  } catch (error) {
    if (error instanceof FlowGraphError) return error;
    throw error;
  }
  throw new Error('expected the graph to be rejected');
}

function graph(rest: Record<string, unknown>): Record<string, unknown> {
  return { flow: 1, kind: 'unit', ...rest };
}

describe('validation names the node and socket', () => {
  const cases: [string, Record<string, unknown>, FlowIssueCode, string, string][] = [
    ['unknown type', graph({ nodes: [{ id: 'x', type: 'logic/teleport' }] }), 'unknown-type', 'x', ''],
    ['dangling link to a missing node', graph({ nodes: [go], events: [e('go.out', 'ghost.in')] }), 'dangling-link', 'ghost', 'in'],
    ['dangling link to a missing socket', graph({ nodes: [go, { id: 'b', type: 'logic/branch' }], events: [e('go.out', 'b.enter')] }), 'dangling-link', 'b', 'enter'],
    ['dangling variable link from a missing output', graph({ nodes: [go, { id: 'b', type: 'logic/branch' }], links: [e('go.speed', 'b.condition')] }), 'dangling-link', 'go', 'speed'],
    ['type mismatch', graph({ nodes: [go, { id: 'b', type: 'logic/branch' }], links: [e('go.value', 'b.condition')] }), 'type-mismatch', 'b', 'condition'],
    ['unit into float', graph({ nodes: [{ id: 'h', type: 'event/collision' }, { id: 'm', type: 'math/add' }], links: [e('h.actor', 'm.a')] }), 'type-mismatch', 'm', 'a'],
    [
      'variable cycle',
      graph({ nodes: [{ id: 'a', type: 'math/add' }, { id: 'b', type: 'math/mul' }], links: [e('a.result', 'b.a'), e('b.result', 'a.b')] }),
      'variable-cycle',
      'b',
      'a',
    ],
    ['event link onto a variable input', graph({ nodes: [go, { id: 'b', type: 'logic/branch' }], events: [e('go.out', 'b.condition')] }), 'wrong-socket-kind', 'b', 'condition'],
    ['variable link from an event output', graph({ nodes: [go, { id: 'b', type: 'logic/branch' }], links: [e('go.out', 'b.condition')] }), 'wrong-socket-kind', 'go', 'out'],
    ['two links into one input', graph({ nodes: [go, { id: 'm', type: 'math/add' }], links: [e('go.value', 'm.a'), e('go.value', 'm.a')] }), 'duplicate-link', 'm', 'a'],
    ['constant and link on one input', graph({ nodes: [go, { id: 'm', type: 'math/add', inputs: { a: 1 } }], links: [e('go.value', 'm.a')] }), 'constant-and-link', 'm', 'a'],
    ['constant of the wrong type', graph({ nodes: [{ id: 'b', type: 'logic/branch', inputs: { condition: 1 } }] }), 'bad-constant', 'b', 'condition'],
    ['constant on a missing input', graph({ nodes: [{ id: 'm', type: 'math/add', inputs: { c: 1 } }] }), 'bad-constant', 'm', 'c'],
    ['fractional int constant', graph({ nodes: [{ id: 'c', type: 'logic/counter', inputs: { target: 1.5 } }] }), 'bad-constant', 'c', 'target'],
    ['unknown variable', graph({ nodes: [{ id: 'g', type: 'variable/get', settings: { variable: 'hp' } }] }), 'unknown-variable', 'g', 'variable'],
    ['missing required setting', graph({ nodes: [{ id: 'x', type: 'event/external' }] }), 'bad-setting', 'x', 'name'],
    ['setting outside its choices', graph({ nodes: [{ id: 'c', type: 'logic/compare', settings: { op: '<>' } }] }), 'bad-setting', 'c', 'op'],
    ['unknown setting', graph({ nodes: [{ id: 'c', type: 'logic/once', settings: { twice: true } }] }), 'bad-setting', 'c', 'twice'],
    ['duplicate node id', graph({ nodes: [go, go] }), 'duplicate-node', 'go', ''],
  ];
  test.each(cases)('%s', (_name, source, code, node, socket) => {
    const error = issueOf(source);
    expect(error).toBeInstanceOf(FlowGraphError);
    expect({ code: error.code, node: error.node, socket: error.socket }).toEqual({ code, node, socket });
    if (node) expect(error.message).toContain(node);
  });

  test('the cycle message walks the cycle', () => {
    const error = issueOf(graph({ nodes: [{ id: 'a', type: 'math/add' }, { id: 'b', type: 'math/mul' }, { id: 'c', type: 'math/neg' }], links: [e('a.result', 'b.a'), e('b.result', 'c.a'), e('c.result', 'a.b')] }));
    expect(error.message).toMatch(/a -> c -> b -> a|b -> a -> c -> b|c -> b -> a -> c/);
  });

  test('a flow node may read its own output: only pure nodes can form a cycle', () => {
    expect(() => compileFlowGraph(graph({ nodes: [go, { id: 'c', type: 'logic/counter' }], events: [e('go.out', 'c.in')], links: [e('c.count', 'c.target')] }), registry)).not.toThrow();
  });

  test('every problem is listed, the first repeated on the error', () => {
    const error = issueOf(graph({ nodes: [{ id: 'x', type: 'nope' }, { id: 'y', type: 'nope/either' }], events: [e('x.out', 'z.in')] }));
    expect(error.issues.map((i) => i.code)).toEqual(['unknown-type', 'unknown-type', 'dangling-link', 'dangling-link']);
    expect(error.message).toContain('and 3 more issues');
  });

  test.each([
    ['not an object', 5],
    ['wrong version', { flow: 2, kind: 'unit', nodes: [] }],
    ['wrong kind', { flow: 1, kind: 'world', nodes: [] }],
    ['nodes not an array', { flow: 1, kind: 'unit', nodes: {} }],
    ['node without id', { flow: 1, kind: 'unit', nodes: [{ type: 'logic/once' }] }],
    ['id with a dot', { flow: 1, kind: 'unit', nodes: [{ id: 'a.b', type: 'logic/once' }] }],
    ['unknown top-level key', { flow: 1, kind: 'unit', nodes: [], edges: [] }],
    ['link without a dot', { flow: 1, kind: 'unit', nodes: [go], events: [{ from: 'go', to: 'go' }] }],
    ['variable without type', { flow: 1, kind: 'unit', nodes: [], variables: { hp: { value: 3 } } }],
  ])('malformed source: %s', (_name, source) => {
    expect(issueOf(source).code).toBe('bad-source');
  });

  test('bad SJSON text is a parse issue with line and column', () => {
    const error = issueOf('flow = 1\nkind = "unit"\nnodes = [ { id = "a" type = } ]');
    expect(error.code).toBe('parse');
    expect(error.message).toMatch(/3:\d+/);
  });
});
