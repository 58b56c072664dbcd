// The benchmark graphs, built twice from one description: as a @cuttle/flow source and as an
// equivalent behave-graph GraphJSON (same nodes, same links, same constants).
import type { GraphJSON, NodeJSON } from '@behave-graph/core';
import type { FlowGraphSource, FlowLinkSource, FlowNodeSource } from '../src/index.ts';

export interface GraphPair {
  ours: FlowGraphSource;
  behave: GraphJSON;
}

/**
 * Event-heavy: one external event into a sequence of 4, each into a sequence of 4, each of the
 * 16 leaves into gate (open) -> counter -> branch (constant true). 54 nodes, all flow logic.
 */
export function eventHeavyGraph(): GraphPair {
  const nodes: FlowNodeSource[] = [{ id: 'go', type: 'event/external', settings: { name: 'go' } }, { id: 'seqA', type: 'logic/sequence' }];
  const events: FlowLinkSource[] = [{ from: 'go.out', to: 'seqA.in' }];
  const behave: NodeJSON[] = [
    { id: 'go', type: 'customEvent/onTriggered', configuration: { customEventId: '0' }, flows: { flow: { nodeId: 'seqA', socket: 'flow' } } },
    { id: 'seqA', type: 'flow/sequence', configuration: { numOutputs: 4 }, flows: {} },
  ];
  for (let a = 0; a < 4; a++) {
    const seqB = `seqB${a}`;
    nodes.push({ id: seqB, type: 'logic/sequence' });
    events.push({ from: `seqA.out${a}`, to: `${seqB}.in` });
    behave[1]!.flows![`${a + 1}`] = { nodeId: seqB, socket: 'flow' };
    const seqBJson: NodeJSON = { id: seqB, type: 'flow/sequence', configuration: { numOutputs: 4 }, flows: {} };
    behave.push(seqBJson);
    for (let b = 0; b < 4; b++) {
      const k = `${a}_${b}`;
      nodes.push({ id: `gate${k}`, type: 'logic/gate' }, { id: `counter${k}`, type: 'logic/counter' }, { id: `branch${k}`, type: 'logic/branch', inputs: { condition: true } });
      events.push({ from: `${seqB}.out${b}`, to: `gate${k}.in` }, { from: `gate${k}.out`, to: `counter${k}.in` }, { from: `counter${k}.out`, to: `branch${k}.in` });
      seqBJson.flows![`${b + 1}`] = { nodeId: `gate${k}`, socket: 'flow' };
      behave.push(
        { id: `gate${k}`, type: 'flow/gate', parameters: { startClosed: { value: false } }, flows: { flow: { nodeId: `counter${k}`, socket: 'flow' } } },
        { id: `counter${k}`, type: 'flow/counter', flows: { flow: { nodeId: `branch${k}`, socket: 'flow' } } },
        { id: `branch${k}`, type: 'flow/branch', parameters: { condition: { value: true } } },
      );
    }
  }
  return {
    ours: { flow: 1, kind: 'unit', name: 'event_heavy', nodes, events },
    behave: { name: 'event_heavy', customEvents: [{ id: '0', name: 'go', parameters: [] }], nodes: behave },
  };
}

const OPS = [
  ['add', 'math/add/float'],
  ['mul', 'math/multiply/float'],
  ['sub', 'math/subtract/float'],
] as const;

/**
 * Math-heavy: one external event (carrying x) into variable/set, whose value is a full binary
 * tree of `depth` levels of add/mul/sub (31 math nodes at depth 5); leaves alternate x and a
 * constant. Every event evaluates the whole tree.
 */
export function mathHeavyGraph(depth = 5): GraphPair {
  const nodes: FlowNodeSource[] = [
    { id: 'go', type: 'event/external', settings: { name: 'go' } },
    { id: 'set', type: 'variable/set', settings: { variable: 'out' } },
  ];
  const links: FlowLinkSource[] = [];
  const behave: NodeJSON[] = [
    { id: 'go', type: 'customEvent/onTriggered', configuration: { customEventId: '0' }, flows: { flow: { nodeId: 'set', socket: 'flow' } } },
    { id: 'set', type: 'variable/set', configuration: { variableId: '0' }, parameters: {} },
  ];
  let count = 0;
  let leaf = 0;
  // Builds the subtree feeding `to` (ours: node id + input; behave: the parameters object).
  const build = (level: number, toId: string, toInput: string, toParams: NonNullable<NodeJSON['parameters']>): void => {
    if (level === depth) {
      if (leaf++ % 2 === 0) {
        links.push({ from: 'go.value', to: `${toId}.${toInput}` });
        toParams[toInput] = { link: { nodeId: 'go', socket: 'x' } };
      } else {
        const value = 1 + (leaf % 7) * 0.25;
        (nodes.find((n) => n.id === toId)!.inputs ??= {})[toInput] = value;
        toParams[toInput] = { value };
      }
      return;
    }
    const [ours, theirs] = OPS[level % OPS.length]!;
    const id = `m${count++}`;
    nodes.push({ id, type: `math/${ours}` });
    const params: NonNullable<NodeJSON['parameters']> = {};
    behave.push({ id, type: theirs, parameters: params });
    links.push({ from: `${id}.result`, to: `${toId}.${toInput}` });
    toParams[toInput] = { link: { nodeId: id, socket: 'result' } };
    build(level + 1, id, 'a', params);
    build(level + 1, id, 'b', params);
  };
  build(0, 'set', 'value', behave[1]!.parameters!);
  return {
    ours: { flow: 1, kind: 'unit', name: 'math_heavy', variables: { out: { type: 'float' } }, nodes, events: [{ from: 'go.out', to: 'set.in' }], links },
    behave: {
      name: 'math_heavy',
      variables: [{ id: '0', name: 'out', valueTypeName: 'float', initialValue: 0 }],
      customEvents: [{ id: '0', name: 'go', parameters: [{ name: 'x', valueTypeName: 'float', defaultValue: 0 }] }],
      nodes: behave,
    },
  };
}

/**
 * The value `mathHeavyGraph(depth)` writes into `out` for event value `x`, evaluated in plain
 * TypeScript over the same tree (same operators by level, same leaves in the same order).
 */
export function mathHeavyValue(x: number, depth = 5): number {
  let leaf = 0;
  const evaluate = (level: number): number => {
    if (level === depth) return leaf++ % 2 === 0 ? x : 1 + (leaf % 7) * 0.25;
    const a = evaluate(level + 1);
    const b = evaluate(level + 1);
    const op = OPS[level % OPS.length]![0];
    return op === 'add' ? a + b : op === 'mul' ? a * b : a - b;
  };
  return evaluate(0);
}
