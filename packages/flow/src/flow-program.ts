import type { FlowActionCall, FlowGraphKind, FlowInstanceHandle, FlowProgramStats, FlowValueType } from './api.ts';
import { FLOW_FORMAT_VERSION, FLOW_MAGIC, H, HEADER_WORDS, VALUE_TYPE_CODES } from './blob-layout.ts';
import { FlowError } from './errors.ts';
import type { ActionDef, FlowRegistry } from './flow-registry.ts';
import type { FlowDebugState } from './flow-debug.ts';

const TYPE_BY_CODE = Object.keys(VALUE_TYPE_CODES) as FlowValueType[];

/**
 * A loaded flow file: views over the static blob and the dynamic template (no copy when the
 * bytes are 8-byte aligned), the decoded string table and the host actions bound by name.
 * Shared by every instance of the graph; nothing in it changes at run time.
 */
export class FlowProgram {
  /** The static blob as int32 words: header, node records, tables. */
  readonly words: Int32Array;
  /** The same bytes as float64: inline constants are read through this view. */
  readonly constants: Float64Array;
  /** The template every instance copies (one memcpy). */
  readonly template: Float64Array;
  /** The string table: names and string constants, indexed by string values. */
  readonly strings: readonly string[];
  /** Host action functions, indexed by the action table of the blob. */
  readonly actions: readonly ((call: FlowActionCall) => void)[];
  /** What the graph is attached to. */
  readonly kind: FlowGraphKind;
  /** The graph's name from its source (`''` when it has none). */
  readonly name: string;
  /** The whole file, as loaded. */
  readonly buffer: ArrayBuffer;
  /** Node index (source order) by word offset of its record, -1 elsewhere; built on first debug use. */
  #nodeAtWord: Int32Array | null = null;

  constructor(words: Int32Array, template: Float64Array, buffer: ArrayBuffer, registry: FlowRegistry) {
    this.words = words;
    this.constants = new Float64Array(words.buffer, words.byteOffset, words.byteLength / 8);
    this.template = template;
    this.buffer = buffer;
    const s = words;
    const table = s[H.stringTable]!;
    const decoder = new TextDecoder();
    const bytes = new Uint8Array(words.buffer, words.byteOffset, words.byteLength);
    const strings: string[] = [];
    for (let i = 0; i < s[table]!; i++) {
      const start = s[table + 1 + 2 * i]!;
      const length = s[table + 2 + 2 * i]!;
      if (start < 0 || start + length > bytes.length) throw new FlowError('Flow file string table points outside the blob: the file is damaged; recompile it.');
      strings.push(decoder.decode(bytes.subarray(start, start + length)));
    }
    this.strings = strings;
    const actionTable = s[H.actionTable]!;
    const actions: ((call: FlowActionCall) => void)[] = [];
    for (let i = 0; i < s[actionTable]!; i++) {
      const name = this.#string(s[actionTable + 1 + 3 * i]!);
      const def = registry.definition(name) as ActionDef | undefined;
      if (!def?.action) throw new FlowError(`The graph calls ${name}, which this registry does not define: call registry.defineAction for it before loading.`);
      const inputs = s[actionTable + 2 + 3 * i]!;
      const outputs = s[actionTable + 3 + 3 * i]!;
      if (def.inputs.length !== inputs || def.outputs.length !== outputs) {
        throw new FlowError(
          `${name} was compiled with ${inputs} inputs and ${outputs} outputs but is registered with ${def.inputs.length} and ${def.outputs.length}: recompile the graph.`,
        );
      }
      actions.push(def.action.run);
    }
    this.actions = actions;
    this.kind = s[H.kind] === 1 ? 'level' : 'unit';
    this.name = this.#string(s[H.name]!);
  }

  /** Creates an instance: its own copy of the dynamic template. `unit` is -1 for level graphs. */
  instantiate(unit = -1): FlowInstance {
    if (!Number.isInteger(unit)) throw new FlowError(`unit must be an integer id, got ${unit}.`);
    return new FlowInstance(this, unit);
  }

  /**
   * An instance that runs on `state` as it is, without copying the template: for a second thread
   * that updates instances whose state another thread placed in shared memory
   * ({@link FlowInstance.placeState}). `state` must hold this program's dynamic slots, no more, no
   * fewer; the two threads must not run the same instance at the same time.
   */
  instanceOver(state: Float64Array, unit = -1): FlowInstance {
    if (!Number.isInteger(unit)) throw new FlowError(`unit must be an integer id, got ${unit}.`);
    checkStateLength(this, state);
    return new FlowInstance(this, unit, state);
  }

  /** The id runtime.external() takes for the named external event (resolve once, fire often). */
  externalEvent(name: string): number {
    const s = this.words;
    const table = s[H.externalTable]!;
    for (let i = 0; i < s[table]!; i++) {
      if (this.strings[s[table + 1 + 2 * i]!] === name) return i;
    }
    throw new FlowError(`This graph has no event/external node named "${name}"; names: ${this.externalEventNames().join(', ') || 'none'}.`);
  }

  /** Names of the graph's `event/external` nodes, in source order: the names `externalEvent` resolves. */
  externalEventNames(): string[] {
    const s = this.words;
    const table = s[H.externalTable]!;
    const names: string[] = [];
    for (let i = 0; i < s[table]!; i++) names.push(this.strings[s[table + 1 + 2 * i]!]!);
    return names;
  }

  /** Slot of a graph variable in every instance's `state` (read or write it directly). */
  variable(name: string): { slot: number; type: FlowValueType } {
    const s = this.words;
    const table = s[H.variableTable]!;
    for (let i = 0; i < s[table]!; i++) {
      if (this.strings[s[table + 1 + 3 * i]!] === name) return { slot: s[table + 2 + 3 * i]!, type: TYPE_BY_CODE[s[table + 3 + 3 * i]!]! };
    }
    throw new FlowError(`This graph has no variable "${name}".`);
  }

  /** Number of nodes; node indices (watch records, breakpoints) run 0..nodeCount-1 in source order. */
  get nodeCount(): number {
    return this.words[H.nodeCount]!;
  }

  /** The source id of node `index` (source order), from the node table the blob keeps. */
  nodeId(index: number): string {
    if (!(Number.isInteger(index) && index >= 0 && index < this.nodeCount)) {
      throw new FlowError(`Node index ${index} is out of range: graph "${this.name}" has ${this.nodeCount} nodes (0..${this.nodeCount - 1}).`);
    }
    return this.strings[this.words[this.words[H.nodeTable]! + 2 + 2 * index]!]!;
  }

  /** The index (source order) of the node with source id `id`. */
  nodeIndex(id: string): number {
    if (typeof id !== 'string') throw new FlowError(`A node id is a string, got ${typeof id}.`);
    const s = this.words;
    const table = s[H.nodeTable]!;
    for (let i = 0; i < s[table]!; i++) if (this.strings[s[table + 2 + 2 * i]!] === id) return i;
    throw new FlowError(`Graph "${this.name}" has no node "${id}".`);
  }

  /** Word offset of node `index`'s record. Internal: the index must be valid. */
  nodeWord(index: number): number {
    return this.words[this.words[H.nodeTable]! + 1 + 2 * index]!;
  }

  /** Node index by record word offset (-1 when `word` starts no record); one int per word, made once. */
  get nodeAtWord(): Int32Array {
    if (this.#nodeAtWord) return this.#nodeAtWord;
    const map = new Int32Array(this.words.length).fill(-1);
    for (let i = 0; i < this.nodeCount; i++) map[this.nodeWord(i)] = i;
    this.#nodeAtWord = map;
    return map;
  }

  /**
   * Delay and timer nodes of the graph: what `runtime.update` advances. With none, update has
   * nothing to do for an instance that is not being debugged, and a host may skip the call.
   */
  get tickNodes(): number {
    return this.words[this.words[H.tickList]!]!;
  }

  /** Sizes of the compiled graph. */
  get stats(): FlowProgramStats {
    return { nodes: this.words[H.nodeCount]!, staticBytes: this.words.byteLength, dynamicBytes: this.template.byteLength, strings: this.strings.length };
  }

  #string(index: number): string {
    const text = this.strings[index];
    if (text === undefined) throw new FlowError(`Flow file refers to string ${index} of ${this.strings.length}: the file is damaged; recompile it.`);
    return text;
  }
}

/**
 * One unit's (or the level's) graph state: the shared program plus its own dynamic blob.
 * `program` and `state` change only when runtime.reload() switches the instance to a new graph
 * (state is then a new array: read it through the instance, do not keep it).
 */
export class FlowInstance implements FlowInstanceHandle {
  /** The compiled graph this instance runs; a reload may replace it. */
  program: FlowProgram;
  /** This instance's copy of the dynamic template: outputs, state and variables, one slot each. */
  state: Float64Array;
  /** The unit (entity) id the instance was created for, or -1 for a level graph. */
  readonly unit: number;
  /** Free for the host: a game object index, a team... (starts at 0). */
  user = 0;
  /**
   * Watch, breakpoints and paused work, or null: the runtime's one check per host call. Set
   * and cleared by FlowRuntime (watch, setBreakpoint, ...); not for the host to touch.
   */
  debug: FlowDebugState | null = null;

  /** Prefer `program.instantiate(unit)`; `state`, when given, is used as it is (see `program.instanceOver`). */
  constructor(program: FlowProgram, unit: number, state?: Float64Array) {
    this.program = program;
    this.unit = unit;
    this.state = state ?? program.template.slice();
  }

  /**
   * Moves the state into `into` (a view of a SharedArrayBuffer, say, so that workers can update
   * the instance): copies it there and runs on `into` from now on. `into` must be exactly the
   * program's dynamic slots long. A reload gives the instance a new array again: place it anew.
   */
  placeState(into: Float64Array): void {
    checkStateLength(this.program, into);
    if (into === this.state) return;
    into.set(this.state);
    this.state = into;
  }

  /**
   * Back to the freshly instantiated state (one memcpy). A paused instance stops being paused:
   * its interrupted cascade and queued events are dropped. Watch and breakpoints stay.
   */
  reset(): void {
    this.state.set(this.program.template);
    this.debug?.dropPendingWork();
  }
}

function checkStateLength(program: FlowProgram, state: Float64Array): void {
  if (!(state instanceof Float64Array)) throw new FlowError(`An instance's state is a Float64Array, got ${Object.prototype.toString.call(state)}.`);
  if (state.length !== program.template.length) {
    throw new FlowError(`Graph "${program.name}" keeps ${program.template.length} state slots per instance; the array given has ${state.length}: size it with program.template.length.`);
  }
}

/**
 * Loads a flow file (what compileFlowGraph returned, or the same bytes read back from disk)
 * in one call. Views the bytes in place when they start 8-byte aligned, else copies once.
 */
export function loadFlowProgram(file: ArrayBuffer | ArrayBufferView, registry: FlowRegistry): FlowProgram {
  let buffer: ArrayBuffer;
  let offset = 0;
  let length: number;
  if (file instanceof ArrayBuffer) {
    buffer = file;
    length = file.byteLength;
  } else if (ArrayBuffer.isView(file) && file.buffer instanceof ArrayBuffer) {
    buffer = file.buffer;
    offset = file.byteOffset;
    length = file.byteLength;
    if (offset % 8 !== 0) {
      buffer = buffer.slice(offset, offset + length);
      offset = 0;
    }
  } else {
    throw new FlowError('loadFlowProgram needs an ArrayBuffer or a view of one (Uint8Array, Node Buffer).');
  }
  if (length < HEADER_WORDS * 4) throw new FlowError(`A flow file is at least ${HEADER_WORDS * 4} bytes; got ${length}. Pass what compileFlowGraph returned.`);
  const header = new Int32Array(buffer, offset, HEADER_WORDS);
  if (header[H.magic] !== FLOW_MAGIC) throw new FlowError('Not a flow file (bad magic number): pass what compileFlowGraph returned.');
  if (header[H.version] !== FLOW_FORMAT_VERSION) throw new FlowError(`Flow file version ${header[H.version]} is not ${FLOW_FORMAT_VERSION}: recompile the graph source.`);
  const staticBytes = header[H.staticBytes]!;
  const slots = header[H.dynamicSlots]!;
  if (staticBytes % 8 !== 0 || staticBytes < HEADER_WORDS * 4 || staticBytes + slots * 8 !== length) {
    throw new FlowError(`Flow file sizes do not add up (${staticBytes} + ${slots * 8} bytes, file ${length}): the file is truncated or damaged.`);
  }
  const words = new Int32Array(buffer, offset, staticBytes / 4);
  const template = new Float64Array(buffer, offset + staticBytes, slots);
  return new FlowProgram(words, template, buffer, registry);
}
