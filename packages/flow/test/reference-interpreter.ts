// A deliberately plain reference for the runtime: an object graph walked recursively, straight
// from the source format, for the subset of node types the random-graph property test uses.
// It shares no code with the compiler or the interpreter.
import type { FlowGraphSource, FlowNodeSource } from '../src/index.ts';

interface Endpoint { node: string; socket: string }

const split = (text: string): Endpoint => {
  const dot = text.indexOf('.');
  return { node: text.slice(0, dot), socket: text.slice(dot + 1) };
};

export class ReferenceFlow {
  readonly log: string[] = [];
  readonly #nodes = new Map<string, FlowNodeSource>();
  readonly #events = new Map<string, Endpoint[]>(); // "node.output" -> targets in link order
  readonly #links = new Map<string, Endpoint>(); // "node.input" -> source output
  readonly #state = new Map<string, number>();
  readonly #order: FlowNodeSource[];

  constructor(graph: FlowGraphSource) {
    this.#order = graph.nodes;
    for (const node of graph.nodes) this.#nodes.set(node.id, node);
    for (const link of graph.events ?? []) {
      const list = this.#events.get(link.from) ?? [];
      list.push(split(link.to));
      this.#events.set(link.from, list);
    }
    for (const link of graph.links ?? []) this.#links.set(link.to, split(link.from));
    for (const node of graph.nodes) if (node.type === 'logic/gate') this.#state.set(`${node.id}.open`, node.settings?.open === false ? 0 : 1);
  }

  external(name: string, value: number): void {
    for (const node of this.#order) {
      if (node.type === 'event/external' && node.settings?.name === name) {
        this.#state.set(`${node.id}.value`, value);
        this.#fire(node.id, 'out');
      }
    }
  }

  #fire(node: string, output: string): void {
    for (const target of this.#events.get(`${node}.${output}`) ?? []) this.#run(target.node, target.socket);
  }

  #input(node: FlowNodeSource, name: string, fallback: number): number {
    const link = this.#links.get(`${node.id}.${name}`);
    if (link) return this.#value(link.node, link.socket);
    const constant = node.inputs?.[name];
    return constant === undefined ? fallback : typeof constant === 'boolean' ? Number(constant) : Number(constant);
  }

  #value(id: string, output: string): number {
    const node = this.#nodes.get(id)!;
    switch (node.type) {
      case 'logic/not': return this.#input(node, 'a', 0) === 0 ? 1 : 0;
      case 'math/add': return this.#input(node, 'a', 0) + this.#input(node, 'b', 0);
      case 'logic/compare': {
        const a = this.#input(node, 'a', 0);
        const b = this.#input(node, 'b', 0);
        const op = node.settings?.op ?? '<';
        const r = op === '<' ? a < b : op === '<=' ? a <= b : op === '==' ? a === b : op === '!=' ? a !== b : op === '>=' ? a >= b : a > b;
        return r ? 1 : 0;
      }
      default: return this.#state.get(`${id}.${output}`) ?? 0;
    }
  }

  #run(id: string, input: string): void {
    const node = this.#nodes.get(id)!;
    const key = (s: string): string => `${id}.${s}`;
    switch (node.type) {
      case 'logic/branch':
        this.#fire(id, this.#input(node, 'condition', 0) !== 0 ? 'true' : 'false');
        return;
      case 'logic/gate':
        if (input === 'in') {
          if (this.#state.get(key('open')) !== 0) this.#fire(id, 'out');
        } else this.#state.set(key('open'), input === 'open' ? 1 : input === 'close' ? 0 : this.#state.get(key('open')) === 0 ? 1 : 0);
        return;
      case 'logic/once':
        if (input === 'reset') this.#state.set(key('done'), 0);
        else if (!this.#state.get(key('done'))) {
          this.#state.set(key('done'), 1);
          this.#fire(id, 'out');
        }
        return;
      case 'logic/counter': {
        if (input === 'reset') {
          this.#state.set(key('count'), 0);
          return;
        }
        const count = (this.#state.get(key('count')) ?? 0) + 1;
        this.#state.set(key('count'), count);
        const target = this.#input(node, 'target', 0);
        this.#fire(id, 'out');
        if (target > 0 && count === target) this.#fire(id, 'reached');
        return;
      }
      case 'logic/sequence':
        for (const out of ['out0', 'out1', 'out2', 'out3']) this.#fire(id, out);
        return;
      case 'action/log':
        this.log.push(String(node.inputs?.tag ?? ''));
        this.#fire(id, 'out');
        return;
      case 'action/log_value':
        this.log.push(String(this.#input(node, 'value', 0)));
        this.#fire(id, 'out');
        return;
      default:
        throw new Error(`reference interpreter has no event input ${input} on ${node.type}`);
    }
  }
}
