// The compiler: a validated graph becomes one ArrayBuffer, the static blob followed by the
// dynamic template. Node references are word offsets, constants sit inline after each node
// record, and every output, state value and graph variable owns one float64 slot of the
// template; links simply make a reader point at the writer's slot.
import type { FlowConstant } from './api.ts';
import { COMPARE_OPS, FLOW_FORMAT_VERSION, FLOW_MAGIC, GRAPH_KIND_CODES, H, HEADER_WORDS, N, Op, VALUE_TYPE_CODES } from './blob-layout.ts';
import { FlowGraphError } from './errors.ts';
import type { FlowRegistry } from './flow-registry.ts';
import { parseSjson } from './sjson.ts';
import { isPure, validateGraph, type ResolvedGraph, type ResolvedNode } from './validate-graph.ts';

/**
 * Compiles a graph source (an object, or JSON/SJSON text) into a flow file: one
 * position-independent ArrayBuffer to save, copy or hand to loadFlowProgram. Throws
 * FlowGraphError listing every problem found.
 */
export function compileFlowGraph(source: unknown, registry: FlowRegistry): ArrayBuffer {
  const parsed = typeof source === 'string' ? parseSjson(source) : source;
  const { graph, issues } = validateGraph(parsed, registry);
  if (!graph) throw new FlowGraphError(issues);
  return emit(graph);
}

class WordWriter {
  words: number[] = [];
  readonly #f64 = new Float64Array(1);
  readonly #i32 = new Int32Array(this.#f64.buffer);

  get length(): number {
    return this.words.length;
  }
  push(...values: number[]): number {
    const at = this.words.length;
    for (const v of values) this.words.push(v | 0);
    return at;
  }
  /** Appends `values` (no spread: lists may be longer than an argument list can be). */
  pushList(values: readonly number[]): number {
    const at = this.words.length;
    for (const v of values) this.words.push(v | 0);
    return at;
  }
  /** Appends `count` zero words to patch later. */
  reserve(count: number): number {
    const at = this.words.length;
    for (let i = 0; i < count; i++) this.words.push(0);
    return at;
  }
  align8(): void {
    if (this.words.length % 2 === 1) this.words.push(0);
  }
  /** Appends a float64 at an 8-byte boundary; returns its float64 index. */
  pushF64(value: number): number {
    this.align8();
    this.#f64[0] = value;
    const at = this.words.length;
    this.words.push(this.#i32[0]!, this.#i32[1]!);
    return at / 2;
  }
}

class StringTable {
  readonly list: string[] = [''];
  readonly #index = new Map<string, number>([['', 0]]);
  intern(text: string): number {
    let at = this.#index.get(text);
    if (at === undefined) {
      at = this.list.length;
      this.list.push(text);
      this.#index.set(text, at);
    }
    return at;
  }
}

function emit(graph: ResolvedGraph): ArrayBuffer {
  const strings = new StringTable();
  const valueOf = (c: FlowConstant): number => (typeof c === 'boolean' ? (c ? 1 : 0) : typeof c === 'string' ? strings.intern(c) : c);

  // Dynamic slots: graph variables first, then each node's outputs and state in source order.
  const template: number[] = [];
  const variableSlot = new Map<string, number>();
  for (const v of graph.variables) {
    variableSlot.set(v.name, template.length);
    template.push(valueOf(v.value));
  }
  const outputSlots: number[][] = [];
  const stateSlots: number[][] = [];
  for (const node of graph.nodes) {
    const shared = node.def.op === Op.variableGet ? variableSlot.get(node.settings.variable as string) : undefined;
    outputSlots.push(
      node.outputs.map(() => {
        if (shared !== undefined) return shared;
        template.push(0);
        return template.length - 1;
      }),
    );
    const initial = node.def.initialState?.(node.settings) ?? [];
    const state: number[] = [];
    for (let i = 0; i < node.def.stateSlots; i++) {
      state.push(template.length);
      template.push(initial[i] ?? 0);
    }
    stateSlots.push(state);
  }

  const w = new WordWriter();
  w.reserve(HEADER_WORDS);
  const nodeOffset: number[] = [];
  // Words holding a node index until every node has an offset.
  const nodeRefs: number[] = [];
  const actions: string[] = [];
  const actionShape: [number, number][] = [];
  const preludes = graph.nodes.map((node) => preludeOf(graph, node));

  for (const node of graph.nodes) {
    w.align8();
    const p = w.length;
    nodeOffset.push(p);
    const { def } = node;
    let extra = 0;
    if (def.op === Op.action) {
      let index = actions.indexOf(def.name);
      if (index < 0) {
        index = actions.push(def.name) - 1;
        actionShape.push([node.inputs.length, node.outputs.length]);
      }
      extra = index;
    } else if (def.op === Op.external) extra = strings.intern(node.settings.name as string);
    else if (def.op === Op.compare) extra = COMPARE_OPS.indexOf(node.settings.op as (typeof COMPARE_OPS)[number]);
    else if (def.op === Op.variableSet) extra = variableSlot.get(node.settings.variable as string) ?? 0;
    w.push(def.op, 0, node.inputs.length, node.outputs.length, def.stateSlots, def.eventOutputs.length, extra, 0);
    const inputsAt = w.reserve(node.inputs.length);
    w.pushList(outputSlots[node.index]!);
    w.pushList(stateSlots[node.index]!);
    const eventsAt = w.reserve(def.eventOutputs.length);
    w.words[p + N.events] = eventsAt;

    for (let i = 0; i < node.inputs.length; i++) {
      const link = node.inputLinks[i];
      if (link) w.words[inputsAt + i] = outputSlots[link.node]![link.socket]!;
      else w.words[inputsAt + i] = ~w.pushF64(valueOf(node.constants[i] ?? 0));
    }
    for (let e = 0; e < def.eventOutputs.length; e++) {
      const targets = node.eventTargets[e]!;
      if (targets.length === 0) continue;
      w.words[eventsAt + e] = w.push(targets.length);
      for (const t of targets) {
        nodeRefs.push(w.length);
        w.push(t.node, t.socket);
      }
    }
    const prelude = preludes[node.index]!;
    if (prelude.length > 0) {
      w.words[p + N.prelude] = w.push(prelude.length);
      for (const q of prelude) {
        nodeRefs.push(w.length);
        w.push(q);
      }
    }
  }
  for (const at of nodeRefs) w.words[at] = nodeOffset[w.words[at]!]!;

  const nodeList = (pick: (n: ResolvedNode) => boolean): number => {
    const chosen = graph.nodes.filter(pick);
    const at = w.push(chosen.length);
    w.pushList(chosen.map((n) => nodeOffset[n.index]!));
    return at;
  };
  const header = w.words;
  header[H.nodeTable] = w.push(graph.nodes.length);
  for (const node of graph.nodes) w.push(nodeOffset[node.index]!, strings.intern(node.id));
  header[H.levelLoaded] = nodeList((n) => n.def.event === 'level_loaded');
  header[H.unitSpawned] = nodeList((n) => n.def.event === 'unit_spawned');
  header[H.collision] = nodeList((n) => n.def.event === 'collision');
  header[H.tickList] = nodeList((n) => n.def.ticks);

  const externalNames: string[] = [];
  for (const node of graph.nodes) {
    if (node.def.event === 'external' && !externalNames.includes(node.settings.name as string)) externalNames.push(node.settings.name as string);
  }
  const externalLists = externalNames.map((name) => nodeList((n) => n.def.event === 'external' && n.settings.name === name));
  header[H.externalTable] = w.push(externalNames.length);
  externalNames.forEach((name, i) => w.push(strings.intern(name), externalLists[i]!));

  header[H.actionTable] = w.push(actions.length);
  actions.forEach((name, i) => w.push(strings.intern(name), ...actionShape[i]!));
  header[H.variableTable] = w.push(graph.variables.length);
  for (const v of graph.variables) w.push(strings.intern(v.name), variableSlot.get(v.name)!, VALUE_TYPE_CODES[v.type]);
  header[H.kind] = GRAPH_KIND_CODES[graph.kind];
  header[H.name] = strings.intern(graph.name);

  // Strings last, so interning above has finished: the table, then UTF-8 bytes.
  const encoder = new TextEncoder();
  const encoded = strings.list.map((s) => encoder.encode(s));
  header[H.stringTable] = w.push(encoded.length);
  const stringEntries = w.length;
  w.reserve(encoded.length * 2);
  let byteCursor = w.length * 4;
  encoded.forEach((bytes, i) => {
    w.words[stringEntries + 2 * i] = byteCursor;
    w.words[stringEntries + 2 * i + 1] = bytes.length;
    byteCursor += bytes.length;
  });
  const staticBytes = Math.ceil(byteCursor / 8) * 8;

  header[H.magic] = FLOW_MAGIC;
  header[H.version] = FLOW_FORMAT_VERSION;
  header[H.staticBytes] = staticBytes;
  header[H.dynamicSlots] = template.length;
  header[H.nodeCount] = graph.nodes.length;

  const buffer = new ArrayBuffer(staticBytes + template.length * 8);
  new Int32Array(buffer, 0, w.length).set(w.words);
  const bytes = new Uint8Array(buffer);
  let cursor = w.length * 4;
  for (const e of encoded) {
    bytes.set(e, cursor);
    cursor += e.length;
  }
  new Float64Array(buffer, staticBytes, template.length).set(template);
  return buffer;
}

/**
 * The pure nodes `node` needs evaluated before it runs, dependencies first: a post-order walk
 * of its inputs in socket order, each pure node once. This is the one place the graph is
 * "unrolled" (the post's second option), limited to data, so stateful flow stays a graph.
 */
function preludeOf(graph: ResolvedGraph, node: ResolvedNode): number[] {
  if (isPure(node.def) || node.def.op === Op.variableGet) return [];
  const order: number[] = [];
  const seen = new Set<number>();
  const visit = (n: ResolvedNode): void => {
    for (const link of n.inputLinks) {
      if (!link) continue;
      const source = graph.nodes[link.node]!;
      if (!isPure(source.def) || seen.has(source.index)) continue;
      seen.add(source.index);
      visit(source);
      order.push(source.index);
    }
  };
  visit(node);
  return order;
}
