// What live debugging keeps per instance: the watch (which nodes ran this frame and the values
// on their pins, in fixed-size typed arrays) and the pause state (breakpoints, the cascade a
// breakpoint interrupted, events fired while paused). None of it exists for an instance nobody
// debugs: FlowInstance.debug stays null and the runtime's fast interpreter never looks here.
import { N, NODE_FIXED_WORDS } from './blob-layout.ts';
import { FlowError } from './errors.ts';
import type { FlowInstance, FlowProgram } from './flow-program.ts';

/** Socket of a watch record whose node the host fired: an event node, or a delay or timer coming due in update(). */
export const FLOW_FIRED_BY_HOST = -1;
/** Socket of a watch record for a pure node, evaluated because a node that reads it ran. */
export const FLOW_PURE_EVALUATION = -2;

/** Capacities of a {@link FlowWatch}'s per-frame trace (integers from 1 to 2^24). */
export interface FlowWatchOptions {
  /** Node executions the frame's trace keeps (default 1024); later ones are counted in `dropped`. */
  records?: number;
  /** Pin values the frame's trace keeps (default 8192); a record that does not fit is dropped. */
  values?: number;
}

/** One trace record as an object, for tools and tests (FlowWatch.record); the engine reads the arrays. */
export interface FlowWatchRecord {
  /** Node index, source order. */
  node: number;
  /** The node's id in the graph source. */
  id: string;
  /** Event input that ran it, or FLOW_FIRED_BY_HOST, or FLOW_PURE_EVALUATION. */
  socket: number;
  /** The node's variable inputs as read, then its outputs after it ran. */
  values: number[];
}

function positiveInteger(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 1 << 24) {
    throw new FlowError(`${name} must be an integer from 1 to ${1 << 24}, got ${typeof value === 'number' ? value : typeof value}.`);
  }
  return value;
}

/** Pins per node (inputs then outputs) laid end to end: node i's start at pinStart[i]. */
function pinLayout(program: FlowProgram): Int32Array {
  const s = program.words;
  const start = new Int32Array(program.nodeCount + 1);
  for (let i = 0; i < program.nodeCount; i++) {
    const p = program.nodeWord(i);
    start[i + 1] = start[i]! + s[p + N.inputs]! + s[p + N.outputs]!;
  }
  return start;
}

/**
 * What a watcher sees of one instance, in flat arrays the engine can serialise as they are.
 * Per frame (until clear()): `runs` counts each node's executions, and the trace lists node
 * executions in the order they started (node, socket, values) up to a fixed capacity; what
 * does not fit is counted in `dropped`, never stored. Across frames: `pinValues` holds every
 * pin's value from the node's last execution (what a tool shows on hover).
 */
export class FlowWatch {
  /** The instance watched. */
  readonly instance: FlowInstance;
  /** Executions of each node (by index) since clear(). Never overflows the trace's capacity. */
  runs: Uint32Array;
  /** Last value of every pin: node i's inputs then outputs at pinValues[pinStart[i] .. pinStart[i + 1]). NaN: never ran. */
  pinValues: Float64Array;
  /** Where each node's pins start in `pinValues` (length: nodes + 1; the last entry is the total). */
  pinStart: Int32Array;
  /** Trace, record r: node index, socket (event input, FLOW_FIRED_BY_HOST or FLOW_PURE_EVALUATION), first value in `values`. */
  readonly recordNode: Int32Array;
  /** Trace, record r: the socket that ran the node (an event input index, {@link FLOW_FIRED_BY_HOST} or {@link FLOW_PURE_EVALUATION}). */
  readonly recordSocket: Int32Array;
  /** Trace, record r: index in `values` of the record's first value; its values run to the next record's start (or `valueCount`). */
  readonly recordValueStart: Int32Array;
  /** Trace values: each record's variable inputs as read, then its outputs after it ran. */
  readonly values: Float64Array;
  /** Records in the trace this frame. */
  count = 0;
  /** Node executions this frame that the trace had no room for. */
  dropped = 0;
  /** Values used in `values` this frame. */
  valueCount = 0;
  /** Frames cleared so far. */
  frame = 0;

  /** Made by runtime.watch(instance, options). */
  constructor(instance: FlowInstance, options: FlowWatchOptions = {}) {
    if ((options as unknown) === null || typeof options !== 'object') throw new FlowError(`Watch options must be an object, got ${typeof options}.`);
    const records = positiveInteger(options.records, 'records', 1024);
    const values = positiveInteger(options.values, 'values', 8192);
    this.instance = instance;
    this.recordNode = new Int32Array(records);
    this.recordSocket = new Int32Array(records);
    this.recordValueStart = new Int32Array(records);
    this.values = new Float64Array(values);
    this.pinStart = pinLayout(instance.program);
    this.runs = new Uint32Array(instance.program.nodeCount);
    this.pinValues = new Float64Array(this.pinStart[instance.program.nodeCount]!).fill(NaN);
  }

  /** The instance's current program (changes when the runtime reloads the instance's graph). */
  get program(): FlowProgram {
    return this.instance.program;
  }

  /** Ends the frame: the trace and the run counts start over; pinValues stay. */
  clear(): void {
    this.runs.fill(0);
    this.count = 0;
    this.dropped = 0;
    this.valueCount = 0;
    this.frame++;
  }

  /** Trace record `r` (0..count-1) as an object; allocates, for tools and tests. */
  record(r: number): FlowWatchRecord {
    if (!(Number.isInteger(r) && r >= 0 && r < this.count)) throw new FlowError(`Record ${r} is out of range: the trace holds ${this.count} this frame.`);
    const node = this.recordNode[r]!;
    const start = this.recordValueStart[r]!;
    const pins = this.pinStart[node + 1]! - this.pinStart[node]!;
    return { node, id: this.program.nodeId(node), socket: this.recordSocket[r]!, values: Array.from(this.values.subarray(start, start + pins)) };
  }

  /** Node `node`'s pins from its last execution (inputs, then outputs); allocates. */
  lastValues(node: number | string): number[] {
    const index = typeof node === 'string' ? this.program.nodeIndex(node) : node;
    this.program.nodeId(index); // validates
    return Array.from(this.pinValues.subarray(this.pinStart[index], this.pinStart[index + 1]));
  }

  /** After a reload: arrays sized for the new program; the frame starts over. */
  resize(): void {
    this.pinStart = pinLayout(this.program);
    this.runs = new Uint32Array(this.program.nodeCount);
    this.pinValues = new Float64Array(this.pinStart[this.program.nodeCount]!).fill(NaN);
    this.clear();
  }

  /**
   * Starts the record of node `index` (word `p`) and writes its inputs; returns the record, or
   * -1 when the trace is full. end() adds the outputs once the node has run.
   */
  begin(s: Int32Array, c: Float64Array, d: Float64Array, p: number, index: number, socket: number): number {
    this.runs[index] = this.runs[index]! + 1;
    const inputs = s[p + N.inputs]!;
    const pins = inputs + s[p + N.outputs]!;
    const pin = this.pinStart[index]!;
    let r = this.count;
    if (r === this.recordNode.length || this.valueCount + pins > this.values.length) {
      this.dropped++;
      r = -1;
    } else {
      this.count = r + 1;
      this.recordNode[r] = index;
      this.recordSocket[r] = socket;
      this.recordValueStart[r] = this.valueCount;
    }
    const at = this.valueCount;
    for (let i = 0; i < inputs; i++) {
      const ref = s[p + NODE_FIXED_WORDS + i]!;
      const value = ref >= 0 ? d[ref]! : c[~ref]!;
      this.pinValues[pin + i] = value;
      if (r >= 0) this.values[at + i] = value;
    }
    if (r >= 0) this.valueCount = at + pins;
    return r;
  }

  /** Completes what begin() started: the node's outputs, into pinValues and the record. */
  end(s: Int32Array, d: Float64Array, p: number, index: number, r: number): void {
    const inputs = s[p + N.inputs]!;
    const outputs = s[p + N.outputs]!;
    const pin = this.pinStart[index]! + inputs;
    const at = r >= 0 ? this.recordValueStart[r]! + inputs : -1;
    for (let i = 0; i < outputs; i++) {
      const value = d[s[p + NODE_FIXED_WORDS + inputs + i]!]!;
      this.pinValues[pin + i] = value;
      if (at >= 0) this.values[at + i] = value;
    }
  }
}

/** Host call kinds a paused instance queues (external events are EXTERNAL_KIND + id). */
export const QueuedKind = { levelLoaded: 0, unitSpawned: 1, collision: 2, external: 3 } as const;

/** Where the host call a breakpoint interrupted goes on: the rest of an event list, or of update()'s tick list. */
export const Resume = { none: 0, dispatch: 1, update: 2 } as const;

/**
 * One debugged instance's state. Everything is sized when it is made (the saved cascade holds
 * as much as the runtime's stack, the queue `queueSize` events), so pausing, queueing and
 * resuming allocate nothing.
 */
export class FlowDebugState {
  watch: FlowWatch | null = null;
  /** 1 where node (by index) has a breakpoint. */
  breakpoints: Uint8Array;
  breakpointCount = 0;
  /** Node index by record word, of the instance's current program. */
  nodeAtWord: Int32Array;
  /** Stop before the next node that runs (set by step() and pause()). */
  stepping = false;
  paused = false;
  /** Runs of this instance on the JavaScript stack: breakpoints stop only the outermost (depth 1). */
  depth = 0;
  /** The node a pause stopped before (record word; 0: none), the event input it was to get, and the host value for event nodes. */
  held = 0;
  heldSocket = 0;
  heldValue = 0;
  /** The interrupted cascade's pending event inputs, bottom of its stack first. */
  readonly saved: Int32Array;
  savedCount = 0;
  resume: number = Resume.none;
  resumeList = 0;
  resumeIndex = 0;
  resumeValue = 0;
  /** Host calls made while paused, in order (ring). */
  readonly queueKind: Int32Array;
  readonly queueValue: Float64Array;
  queueHead = 0;
  queueCount = 0;
  /** Events fired while paused that found the queue full, and update() calls skipped while paused. */
  droppedEvents = 0;
  skippedUpdates = 0;

  constructor(program: FlowProgram, stackWords: number, queueSize: number) {
    this.breakpoints = new Uint8Array(program.nodeCount);
    this.nodeAtWord = program.nodeAtWord;
    this.saved = new Int32Array(stackWords);
    this.queueKind = new Int32Array(queueSize);
    this.queueValue = new Float64Array(queueSize);
  }

  /** Whether nothing is left that needs the debug interpreter (the instance can go back to the fast path). */
  get idle(): boolean {
    return this.watch === null && this.breakpointCount === 0 && !this.paused && !this.stepping && this.queueCount === 0;
  }

  enqueue(kind: number, value: number): void {
    const size = this.queueKind.length;
    if (this.queueCount === size) {
      this.droppedEvents++;
      return;
    }
    const at = (this.queueHead + this.queueCount) % size;
    this.queueKind[at] = kind;
    this.queueValue[at] = value;
    this.queueCount++;
  }

  /** Drops the interrupted cascade (not the queue); returns how many pending node inputs it held, the held node included. */
  dropCascade(): number {
    const dropped = this.savedCount / 2 + (this.held !== 0 ? 1 : 0);
    this.held = 0;
    this.savedCount = 0;
    this.resume = Resume.none;
    return dropped;
  }

  /** instance.reset(): no pause, no queued events, no pending step. */
  dropPendingWork(): void {
    this.dropCascade();
    this.queueCount = 0;
    this.paused = false;
    this.stepping = false;
  }
}
