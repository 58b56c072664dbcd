// The runtime as it was before the debugging hooks (git 2096abc, src/flow-runtime.ts), kept
// verbatim so the bench can show that an unwatched instance still runs at the same speed.
// The interpreter. It walks the static blob, switching on node type ids; per-node state lives
// in the instance's dynamic blob. Pending event inputs sit on one pre-sized int32 stack
// (node offset, event input), so firing events allocates nothing.
import type { FlowActionCall } from '../src/api.ts';
import { H, N, NODE_FIXED_WORDS, Op } from '../src/blob-layout.ts';
import { FlowError } from '../src/errors.ts';
import type { FlowInstance } from '../src/flow-program.ts';

export interface FlowRuntimeOptions {
  /** Pending event inputs the stack holds (default 4096); a cascade deeper than that throws. */
  stackSize?: number;
  /** Node executions one host call may cause before it throws (default 1,000,000): catches event loops. */
  maxStepsPerCall?: number;
}

/** Value of variable input `i` of node `p`: a dynamic slot, or an inline constant when the ref is negative. */
function input(s: Int32Array, c: Float64Array, d: Float64Array, p: number, i: number): number {
  const ref = s[p + NODE_FIXED_WORDS + i]!;
  return ref >= 0 ? d[ref]! : c[~ref]!;
}

function outputSlot(s: Int32Array, p: number, i: number): number {
  return s[p + NODE_FIXED_WORDS + s[p + N.inputs]! + i]!;
}

function stateSlot(s: Int32Array, p: number, i: number): number {
  return s[p + NODE_FIXED_WORDS + s[p + N.inputs]! + s[p + N.outputs]! + i]!;
}

/** Word offset of the target list of event output `k` of node `p`, or 0 when it is unlinked. */
function eventList(s: Int32Array, p: number, k: number): number {
  return s[s[p + N.events]! + k]!;
}

/**
 * Pushes the targets of a target list `[count, (node, input)*]`, last first so the first runs
 * first; returns the new stack pointer.
 */
function pushTargets(stack: Int32Array, sp: number, s: Int32Array, list: number): number {
  if (list === 0) return sp;
  const count = s[list]!;
  if (sp + 2 * count > stack.length) {
    throw new FlowError(`Flow event stack overflow (${stack.length / 2} pending inputs): the graph fans out too deep; raise stackSize.`);
  }
  for (let t = count - 1; t >= 0; t--) {
    stack[sp] = s[list + 1 + 2 * t]!;
    stack[sp + 1] = s[list + 2 + 2 * t]!;
    sp += 2;
  }
  return sp;
}

/** Evaluates one pure node (math, and/or/not, compare) into its output slot. */
function evaluatePure(s: Int32Array, c: Float64Array, d: Float64Array, q: number): void {
  const out = outputSlot(s, q, 0);
  const a = input(s, c, d, q, 0);
  switch (s[q]) {
    case Op.add: d[out] = a + input(s, c, d, q, 1); break;
    case Op.sub: d[out] = a - input(s, c, d, q, 1); break;
    case Op.mul: d[out] = a * input(s, c, d, q, 1); break;
    case Op.div: d[out] = a / input(s, c, d, q, 1); break;
    case Op.min: d[out] = Math.min(a, input(s, c, d, q, 1)); break;
    case Op.max: d[out] = Math.max(a, input(s, c, d, q, 1)); break;
    case Op.neg: d[out] = -a; break;
    case Op.abs: d[out] = Math.abs(a); break;
    case Op.sqrt: d[out] = Math.sqrt(a); break;
    case Op.floor: d[out] = Math.floor(a); break;
    case Op.sin: d[out] = Math.sin(a); break;
    case Op.cos: d[out] = Math.cos(a); break;
    case Op.lerp: {
      const b = input(s, c, d, q, 1);
      d[out] = a + (b - a) * input(s, c, d, q, 2);
      break;
    }
    case Op.clamp: d[out] = Math.min(Math.max(a, input(s, c, d, q, 1)), input(s, c, d, q, 2)); break;
    case Op.and: d[out] = a !== 0 && input(s, c, d, q, 1) !== 0 ? 1 : 0; break;
    case Op.or: d[out] = a !== 0 || input(s, c, d, q, 1) !== 0 ? 1 : 0; break;
    case Op.not: d[out] = a === 0 ? 1 : 0; break;
    case Op.compare: {
      const b = input(s, c, d, q, 1);
      const op = s[q + N.extra];
      d[out] = (op === 0 ? a < b : op === 1 ? a <= b : op === 2 ? a === b : op === 3 ? a !== b : op === 4 ? a >= b : a > b) ? 1 : 0;
      break;
    }
    default: throw new FlowError(`Node type id ${s[q]} at word ${q} is not a pure node: the flow file is damaged; recompile it.`);
  }
}

/** Evaluates the pure nodes of a prelude list `[count, node*]` in order; returns the count. */
function evaluatePrelude(s: Int32Array, c: Float64Array, d: Float64Array, prelude: number): number {
  const count = s[prelude]!;
  for (let i = 1; i <= count; i++) evaluatePure(s, c, d, s[prelude + i]!);
  return count;
}

/** The FlowActionCall handed to host actions; one per runtime, repointed for each call. */
class ActionCall implements FlowActionCall {
  instance!: FlowInstance;
  s!: Int32Array;
  c!: Float64Array;
  d!: Float64Array;
  p = 0;

  number(index: number): number {
    this.#check(index, this.s[this.p + N.inputs]!, 'input');
    return input(this.s, this.c, this.d, this.p, index);
  }
  bool(index: number): boolean {
    return this.number(index) !== 0;
  }
  string(index: number): string {
    return this.instance.program.strings[this.number(index)] ?? '';
  }
  set(index: number, value: number | boolean): void {
    this.#check(index, this.s[this.p + N.outputs]!, 'output');
    this.d[outputSlot(this.s, this.p, index)] = typeof value === 'boolean' ? (value ? 1 : 0) : value;
  }
  #check(index: number, count: number, what: string): void {
    if (!(index >= 0 && index < count)) throw new FlowError(`Action ${what} index ${index} is out of range: this action has ${count} ${what}s.`);
  }
}

/**
 * Runs flow instances. Single-threaded by design (as the post argues): one runtime, any number
 * of instances and programs. Execution order is documented in the README: event nodes in
 * source order; an output fires its links in source order, depth first; a node's pure inputs
 * are evaluated, dependencies first, right before it runs.
 */
export class BaselineFlowRuntime {
  /** Node executions since the runtime was made (event, flow and pure nodes alike). */
  executions = 0;
  /** Highest stack use seen, in pending event inputs. */
  peakStack = 0;
  readonly stackSize: number;
  readonly #stack: Int32Array;
  readonly #maxSteps: number;
  readonly #call = new ActionCall();
  #sp = 0;

  constructor(options: FlowRuntimeOptions = {}) {
    const stackSize = options.stackSize ?? 4096;
    const maxSteps = options.maxStepsPerCall ?? 1_000_000;
    if (!Number.isInteger(stackSize) || stackSize < 16) throw new FlowError(`stackSize must be an integer >= 16, got ${stackSize}.`);
    if (!Number.isInteger(maxSteps) || maxSteps < 1) throw new FlowError(`maxStepsPerCall must be a positive integer, got ${maxSteps}.`);
    this.stackSize = stackSize;
    this.#stack = new Int32Array(stackSize * 2);
    this.#maxSteps = maxSteps;
  }

  /** Fires every event/level_loaded node of the instance. */
  levelLoaded(instance: FlowInstance): void {
    this.#dispatch(instance, instance.program.words[H.levelLoaded]!, 0);
  }

  /** Fires every event/unit_spawned node; their `unit` output is the instance's unit id. */
  unitSpawned(instance: FlowInstance): void {
    this.#dispatch(instance, instance.program.words[H.unitSpawned]!, instance.unit);
  }

  /** Fires every event/collision node with `actor`, the unit that collided. */
  collision(instance: FlowInstance, actor: number): void {
    this.#dispatch(instance, instance.program.words[H.collision]!, actor);
  }

  /** Fires the event/external nodes of `eventId` (from program.externalEvent(name)) with `value`. */
  external(instance: FlowInstance, eventId: number, value = 0): void {
    const s = instance.program.words;
    const table = s[H.externalTable]!;
    if (!(eventId >= 0 && eventId < s[table]! && Number.isInteger(eventId))) {
      throw new FlowError(`External event id ${eventId} is not one of this program's (0..${s[table]! - 1}): get ids from program.externalEvent(name).`);
    }
    this.#dispatch(instance, s[table + 2 + 2 * eventId]!, value);
  }

  /**
   * Advances delays and timers by `dt` seconds; those that come due fire now, in source
   * order, each cascade finishing before the next node is looked at.
   */
  update(instance: FlowInstance, dt: number): void {
    if (!(dt >= 0)) throw new FlowError(`dt must be a non-negative number of seconds, got ${dt}.`);
    const program = instance.program;
    const s = program.words;
    const c = program.constants;
    const d = instance.state;
    const list = s[H.tickList]!;
    const base = this.#sp;
    const stepsBefore = this.executions;
    try {
      for (let i = 0; i < s[list]!; i++) {
        const p = s[list + 1 + i]!;
        if (s[p] === Op.delay) {
          const slot = stateSlot(s, p, 0);
          const left = d[slot]!;
          if (left < 0) continue;
          if (left - dt > 0) {
            d[slot] = left - dt;
            continue;
          }
          d[slot] = -1;
        } else {
          if (d[stateSlot(s, p, 1)] === 0) continue;
          const elapsedSlot = stateSlot(s, p, 0);
          const prelude = s[p + N.prelude]!;
          if (prelude !== 0) this.executions += evaluatePrelude(s, c, d, prelude);
          const period = input(s, c, d, p, 0);
          const elapsed = d[elapsedSlot]! + dt;
          if (!(period > 0) || elapsed < period) {
            d[elapsedSlot] = elapsed;
            continue;
          }
          d[elapsedSlot] = (elapsed - period) % period;
        }
        this.executions++;
        this.#sp = pushTargets(this.#stack, this.#sp, s, eventList(s, p, 0));
        this.#run(instance, base, stepsBefore);
      }
    } catch (error) {
      this.#sp = base;
      throw error;
    }
  }

  #dispatch(instance: FlowInstance, list: number, value: number): void {
    const s = instance.program.words;
    const d = instance.state;
    const base = this.#sp;
    const stepsBefore = this.executions;
    try {
      for (let i = 0; i < s[list]!; i++) {
        const p = s[list + 1 + i]!;
        if (s[p + N.outputs]! > 0) d[outputSlot(s, p, 0)] = value;
        this.executions++;
        this.#sp = pushTargets(this.#stack, this.#sp, s, eventList(s, p, 0));
        this.#run(instance, base, stepsBefore);
      }
    } catch (error) {
      this.#sp = base;
      throw error;
    }
  }

  /**
   * Executes pending event inputs until the stack is back at `base`. The stack pointer and the
   * execution count live in locals, written back only around host actions (which may
   * re-enter). A node's first target runs next without a trip through the stack.
   */
  #run(instance: FlowInstance, base: number, stepsBefore: number): void {
    const program = instance.program;
    const s = program.words;
    const c = program.constants;
    const d = instance.state;
    const stack = this.#stack;
    const limit = stepsBefore + this.#maxSteps;
    let sp = this.#sp;
    let peak = this.peakStack * 2;
    let executed = this.executions;
    let p = 0;
    let socket = 0;
    let ready = false;
    for (;;) {
      if (!ready) {
        if (sp <= base) break;
        if (sp > peak) peak = sp;
        sp -= 2;
        p = stack[sp]!;
        socket = stack[sp + 1]!;
      }
      ready = false;
      const prelude = s[p + N.prelude]!;
      if (prelude !== 0) executed += evaluatePrelude(s, c, d, prelude);
      const events = s[p + N.events]!;
      // The target list to fire next (0: none); nodes that fire several push the later ones.
      let list = 0;
      switch (s[p]) {
        case Op.branch:
          list = s[events + (input(s, c, d, p, 0) !== 0 ? 0 : 1)]!;
          break;
        case Op.gate: {
          const slot = stateSlot(s, p, 0);
          if (socket === 0) {
            if (d[slot] !== 0) list = s[events]!;
          } else d[slot] = socket === 1 ? 1 : socket === 2 ? 0 : d[slot] === 0 ? 1 : 0;
          break;
        }
        case Op.once: {
          const slot = stateSlot(s, p, 0);
          if (socket !== 0) d[slot] = 0;
          else if (d[slot] === 0) {
            d[slot] = 1;
            list = s[events]!;
          }
          break;
        }
        case Op.counter: {
          const slot = outputSlot(s, p, 0);
          if (socket !== 0) {
            d[slot] = 0;
            break;
          }
          const count = d[slot]! + 1;
          d[slot] = count;
          const target = input(s, c, d, p, 0);
          // `out` and its cascade run before `reached`.
          if (target > 0 && count === target) sp = pushTargets(stack, sp, s, s[events + 1]!);
          list = s[events]!;
          break;
        }
        case Op.sequence:
          for (let k = s[p + N.eventOutputs]! - 1; k > 0; k--) sp = pushTargets(stack, sp, s, s[events + k]!);
          list = s[events]!;
          break;
        case Op.delay:
          d[stateSlot(s, p, 0)] = socket === 0 ? Math.max(0, input(s, c, d, p, 0)) : -1;
          break;
        case Op.timer:
          d[stateSlot(s, p, 1)] = socket === 0 ? 1 : 0;
          if (socket === 0) d[stateSlot(s, p, 0)] = 0;
          break;
        case Op.variableSet:
          d[s[p + N.extra]!] = input(s, c, d, p, 0);
          list = s[events]!;
          break;
        case Op.action:
          this.#sp = sp;
          this.executions = executed;
          this.peakStack = Math.max(this.peakStack, peak >> 1);
          this.#callAction(instance, s, c, d, p);
          sp = this.#sp;
          executed = this.executions;
          list = s[events]!;
          break;
        default:
          this.#sp = base;
          this.executions = executed;
          throw new FlowError(`Node type id ${s[p]} at word ${p} cannot take event input ${socket}: the flow file is damaged; recompile it.`);
      }
      if (++executed > limit) {
        this.executions = executed;
        throw new FlowError(`One call ran more than ${this.#maxSteps} nodes: an event loop in graph "${program.name}" without a gate or once? Raise maxStepsPerCall if intended.`);
      }
      if (list !== 0) {
        if (s[list] === 1) {
          p = s[list + 1]!;
          socket = s[list + 2]!;
          ready = true;
        } else sp = pushTargets(stack, sp, s, list);
      }
    }
    this.#sp = sp;
    this.executions = executed;
    if (peak >> 1 > this.peakStack) this.peakStack = peak >> 1;
  }

  #callAction(instance: FlowInstance, s: Int32Array, c: Float64Array, d: Float64Array, p: number): void {
    const call = this.#call;
    // An action may fire events itself (re-entrancy); keep the outer call's view intact.
    const saved = call.p;
    const savedInstance = call.instance as FlowInstance | undefined;
    call.instance = instance;
    call.s = s;
    call.c = c;
    call.d = d;
    call.p = p;
    instance.program.actions[s[p + N.extra]!]!(call);
    if (savedInstance) {
      call.instance = savedInstance;
      call.s = savedInstance.program.words;
      call.c = savedInstance.program.constants;
      call.d = savedInstance.state;
      call.p = saved;
    }
  }
}
