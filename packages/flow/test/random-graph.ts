// Random flow graphs for property tests: events, gate, once, counter, sequence, branch, pure
// compare/not/add and logging actions, links only forwards so nothing loops.
import type { FlowGraphSource, FlowLinkSource, FlowNodeSource } from '../src/index.ts';

interface Kind {
  type: string;
  eventIn: string[];
  eventOut: string[];
  /** Variable inputs with the type each takes. */
  inputs: [string, 'float' | 'bool' | 'int'][];
  outputs: [string, 'float' | 'bool' | 'int'][];
}

const KINDS: Kind[] = [
  { type: 'logic/branch', eventIn: ['in'], eventOut: ['true', 'false'], inputs: [['condition', 'bool']], outputs: [] },
  { type: 'logic/gate', eventIn: ['in', 'open', 'close', 'toggle'], eventOut: ['out'], inputs: [], outputs: [] },
  { type: 'logic/once', eventIn: ['in', 'reset'], eventOut: ['out'], inputs: [], outputs: [] },
  { type: 'logic/counter', eventIn: ['in', 'reset'], eventOut: ['out', 'reached'], inputs: [['target', 'int']], outputs: [['count', 'int']] },
  { type: 'logic/sequence', eventIn: ['in'], eventOut: ['out0', 'out1', 'out2', 'out3'], inputs: [], outputs: [] },
  { type: 'action/log', eventIn: ['in'], eventOut: ['out'], inputs: [], outputs: [] },
  { type: 'action/log_value', eventIn: ['in'], eventOut: ['out'], inputs: [['value', 'float']], outputs: [] },
  { type: 'logic/compare', eventIn: [], eventOut: [], inputs: [['a', 'float'], ['b', 'float']], outputs: [['result', 'bool']] },
  { type: 'logic/not', eventIn: [], eventOut: [], inputs: [['a', 'bool']], outputs: [['result', 'bool']] },
  { type: 'math/add', eventIn: [], eventOut: [], inputs: [['a', 'float'], ['b', 'float']], outputs: [['result', 'float']] },
];
const EXTERNAL: Kind = { type: 'event/external', eventIn: [], eventOut: ['out'], inputs: [], outputs: [['value', 'float']] };
const OPS = ['<', '<=', '==', '!=', '>=', '>'];

/** Builds a graph from a seed: event and variable links only go forwards, so nothing loops. */
export function randomGraph(seed: number, size: number): FlowGraphSource {
  let x = seed >>> 0 || 1;
  const next = (n: number): number => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x % n;
  };
  const nodes: FlowNodeSource[] = [];
  const kinds: Kind[] = [];
  const events: FlowLinkSource[] = [];
  const links: FlowLinkSource[] = [];
  for (let i = 0; i < size; i++) {
    const kind = i < 2 || next(6) === 0 ? EXTERNAL : KINDS[next(KINDS.length)]!;
    const node: FlowNodeSource = { id: `n${i}`, type: kind.type };
    if (kind === EXTERNAL) node.settings = { name: next(2) === 0 ? 'a' : 'b' };
    if (kind.type === 'logic/gate') node.settings = { open: next(2) === 0 };
    if (kind.type === 'logic/compare') node.settings = { op: OPS[next(OPS.length)]! };
    if (kind.type === 'action/log') node.inputs = { tag: node.id };
    for (const [name, type] of kind.inputs) {
      const sources: [number, string][] = [];
      for (let j = 0; j < i; j++) {
        for (const [out, outType] of kinds[j]!.outputs) if (outType === type || (outType === 'int' && type === 'float')) sources.push([j, out]);
      }
      if (sources.length > 0 && next(3) !== 0) {
        const [j, out] = sources[next(sources.length)]!;
        links.push({ from: `n${j}.${out}`, to: `${node.id}.${name}` });
      } else if (next(2) === 0) {
        (node.inputs ??= {})[name] = type === 'bool' ? next(2) === 0 : type === 'int' ? next(4) : next(5) - 2;
      }
    }
    nodes.push(node);
    kinds.push(kind);
  }
  for (let i = 0; i < size; i++) {
    for (const out of kinds[i]!.eventOut) {
      const fan = next(3);
      for (let f = 0; f < fan && i + 1 < size; f++) {
        const j = i + 1 + next(size - i - 1);
        const targets = kinds[j]!.eventIn;
        if (targets.length > 0) events.push({ from: `n${i}.${out}`, to: `n${j}.${targets[next(targets.length)]!}` });
      }
    }
  }
  return { flow: 1, kind: 'unit', nodes, events, links };
}
