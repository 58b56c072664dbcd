// The instrumented interpreter, chosen per instance: the runtime sends a host call here only
// when the instance has debug state (a watch, breakpoints, a pause), so the fast loop in
// flow-runtime.ts stays as it was. Same node semantics and order, one node at a time through
// the stack (no first-target shortcut), with three additions: a watch record around every
// execution, a stop check before every node, and a continuation so a paused host call can go
// on later exactly where it stopped.
import { H, N, Op } from './blob-layout.ts';
import { FLOW_FIRED_BY_HOST, FLOW_PURE_EVALUATION, QueuedKind, Resume, type FlowDebugState } from './flow-debug.ts';
import { FlowError } from './errors.ts';
import type { FlowInstance, FlowProgram } from './flow-program.ts';
import { evaluatePure, eventList, input, outputSlot, pushTargets, stateSlot } from './interpreter-ops.ts';

/** What the interpreter needs of its runtime: the shared counters, and the way into a host action. */
export interface DebugHost {
  executions: number;
  peakStack: number;
  readonly maxStepsPerCall: number;
  /** Calls node `p`'s action with the runtime's stack pointer at `sp`; returns the stack pointer after. */
  callAction(instance: FlowInstance, s: Int32Array, c: Float64Array, d: Float64Array, p: number, sp: number): number;
}

/** The event list a queued host call fires: `kind` is a QueuedKind, external events QueuedKind.external + id. */
export function eventListOf(program: FlowProgram, kind: number): number {
  const s = program.words;
  if (kind === QueuedKind.levelLoaded) return s[H.levelLoaded]!;
  if (kind === QueuedKind.unitSpawned) return s[H.unitSpawned]!;
  if (kind === QueuedKind.collision) return s[H.collision]!;
  return s[s[H.externalTable]! + 2 + 2 * (kind - QueuedKind.external)]!;
}

/** Read through a call: TypeScript would otherwise keep `paused` narrowed to false across the runs that set it. */
function stopped(dbg: FlowDebugState): boolean {
  return dbg.paused;
}

export class DebugInterpreter {
  readonly #host: DebugHost;
  readonly #stack: Int32Array;

  constructor(host: DebugHost, stack: Int32Array) {
    this.#host = host;
    this.#stack = stack;
  }

  /** A host event into a debugged instance: queued while it is paused, run otherwise. Returns the stack pointer. */
  fire(instance: FlowInstance, dbg: FlowDebugState, kind: number, value: number, sp: number): number {
    if (dbg.paused) {
      dbg.enqueue(kind, value);
      return sp;
    }
    dbg.depth++;
    try {
      return this.#hostCall(instance, dbg, Resume.dispatch, eventListOf(instance.program, kind), 0, value, sp);
    } finally {
      dbg.depth--;
    }
  }

  /** update(dt) of a debugged instance; a paused instance's time stands still (the call is skipped). */
  update(instance: FlowInstance, dbg: FlowDebugState, dt: number, sp: number): number {
    if (dbg.paused) {
      dbg.skippedUpdates++;
      return sp;
    }
    dbg.depth++;
    try {
      return this.#hostCall(instance, dbg, Resume.update, instance.program.words[H.tickList]!, 0, dt, sp);
    } finally {
      dbg.depth--;
    }
  }

  /**
   * Goes on from a pause: the held node runs (without stopping at its own breakpoint), then the
   * rest of its cascade, the rest of the interrupted host call and the events queued meanwhile,
   * in that order, until all is done or the next stop. `stepping` stops before the next node.
   */
  resume(instance: FlowInstance, dbg: FlowDebugState, stepping: boolean, sp: number): number {
    const base = sp;
    const stack = this.#stack;
    if (base + dbg.savedCount > stack.length) {
      throw new FlowError(`Flow event stack overflow (${stack.length / 2} pending inputs) resuming graph "${instance.program.name}": raise stackSize.`);
    }
    dbg.paused = false;
    dbg.stepping = stepping;
    dbg.depth++;
    try {
      for (let i = 0; i < dbg.savedCount; i++) stack[base + i] = dbg.saved[i]!;
      sp = base + dbg.savedCount;
      dbg.savedCount = 0;
      if (dbg.held !== 0) {
        const p = dbg.held;
        dbg.held = 0;
        const limit = this.#host.executions + this.#host.maxStepsPerCall;
        sp = this.#execute(instance, dbg, p, dbg.heldSocket, dbg.heldValue, sp);
        sp = this.#drain(instance, dbg, base, sp, limit);
        if (stopped(dbg)) return base;
      }
      if (dbg.resume !== Resume.none) {
        const mode = dbg.resume;
        dbg.resume = Resume.none;
        sp = this.#hostCall(instance, dbg, mode, dbg.resumeList, dbg.resumeIndex, dbg.resumeValue, sp);
        if (stopped(dbg)) return base;
      }
      while (dbg.queueCount > 0) {
        const kind = dbg.queueKind[dbg.queueHead]!;
        const value = dbg.queueValue[dbg.queueHead]!;
        dbg.queueHead = (dbg.queueHead + 1) % dbg.queueKind.length;
        dbg.queueCount--;
        sp = this.#hostCall(instance, dbg, Resume.dispatch, eventListOf(instance.program, kind), 0, value, sp);
        if (stopped(dbg)) return base;
      }
      return sp;
    } finally {
      dbg.depth--;
    }
  }

  /**
   * Runs nodes `start..` of a host call's node list (event nodes for a dispatch, the tick list
   * for an update) with their cascades. On a stop, saves where to go on and returns `sp` as it
   * found it: the paused cascade is off the shared stack.
   */
  #hostCall(instance: FlowInstance, dbg: FlowDebugState, mode: number, list: number, start: number, value: number, sp: number): number {
    const s = instance.program.words;
    const base = sp;
    const limit = this.#host.executions + this.#host.maxStepsPerCall;
    for (let i = start; i < s[list]!; i++) {
      const p = s[list + 1 + i]!;
      if (mode === Resume.update && !this.#comesDue(instance, dbg, p, value)) continue;
      if (this.#stops(dbg, p)) this.#pause(dbg, p, FLOW_FIRED_BY_HOST, value, base, base);
      else {
        sp = this.#execute(instance, dbg, p, FLOW_FIRED_BY_HOST, value, sp);
        sp = this.#drain(instance, dbg, base, sp, limit);
      }
      if (dbg.paused) {
        dbg.resume = mode;
        dbg.resumeList = list;
        dbg.resumeIndex = i + 1;
        dbg.resumeValue = value;
        return base;
      }
    }
    return sp;
  }

  /** Executes pending event inputs down to `base`, stopping before a node that should stop. */
  #drain(instance: FlowInstance, dbg: FlowDebugState, base: number, sp: number, limit: number): number {
    const stack = this.#stack;
    const host = this.#host;
    while (sp > base) {
      if (sp >> 1 > host.peakStack) host.peakStack = sp >> 1;
      sp -= 2;
      const p = stack[sp]!;
      const socket = stack[sp + 1]!;
      if (this.#stops(dbg, p)) {
        this.#pause(dbg, p, socket, 0, base, sp);
        return base;
      }
      sp = this.#execute(instance, dbg, p, socket, 0, sp);
      if (host.executions > limit) {
        throw new FlowError(`One call ran more than ${host.maxStepsPerCall} nodes: an event loop in graph "${instance.program.name}" without a gate or once? Raise maxStepsPerCall if intended.`);
      }
    }
    return sp;
  }

  #stops(dbg: FlowDebugState, p: number): boolean {
    return dbg.depth === 1 && (dbg.stepping || (dbg.breakpointCount > 0 && dbg.breakpoints[dbg.nodeAtWord[p]!] === 1));
  }

  /** Holds node `p` (not yet run) and moves the pending inputs above `base` off the stack into `dbg`. */
  #pause(dbg: FlowDebugState, p: number, socket: number, value: number, base: number, sp: number): void {
    const stack = this.#stack;
    for (let i = base; i < sp; i++) dbg.saved[i - base] = stack[i]!;
    dbg.savedCount = sp - base;
    dbg.held = p;
    dbg.heldSocket = socket;
    dbg.heldValue = value;
    dbg.paused = true;
    dbg.stepping = false;
  }

  /** Advances delay or timer `p` by `dt`; true when it fires now (as the fast update does, prelude included). */
  #comesDue(instance: FlowInstance, dbg: FlowDebugState, p: number, dt: number): boolean {
    const s = instance.program.words;
    const c = instance.program.constants;
    const d = instance.state;
    if (s[p] === Op.delay) {
      const slot = stateSlot(s, p, 0);
      const left = d[slot]!;
      if (left < 0) return false;
      if (left - dt > 0) {
        d[slot] = left - dt;
        return false;
      }
      d[slot] = -1;
      return true;
    }
    if (d[stateSlot(s, p, 1)] === 0) return false;
    const elapsedSlot = stateSlot(s, p, 0);
    const prelude = s[p + N.prelude]!;
    if (prelude !== 0) this.#prelude(dbg, s, c, d, prelude);
    const period = input(s, c, d, p, 0);
    const elapsed = d[elapsedSlot]! + dt;
    if (!(period > 0) || elapsed < period) {
      d[elapsedSlot] = elapsed;
      return false;
    }
    d[elapsedSlot] = (elapsed - period) % period;
    return true;
  }

  #prelude(dbg: FlowDebugState, s: Int32Array, c: Float64Array, d: Float64Array, prelude: number): void {
    const count = s[prelude]!;
    const watch = dbg.watch;
    for (let i = 1; i <= count; i++) {
      const q = s[prelude + i]!;
      evaluatePure(s, c, d, q);
      this.#host.executions++;
      if (watch !== null) {
        const index = dbg.nodeAtWord[q]!;
        watch.end(s, d, q, index, watch.begin(s, c, d, q, index, FLOW_PURE_EVALUATION));
      }
    }
  }

  /**
   * Runs node `p` for event input `socket` (FLOW_FIRED_BY_HOST: an event node with the host's
   * `value`, or a delay or timer that came due), records it, and pushes the targets it fires.
   */
  #execute(instance: FlowInstance, dbg: FlowDebugState, p: number, socket: number, value: number, sp: number): number {
    const program = instance.program;
    const s = program.words;
    const c = program.constants;
    const d = instance.state;
    const stack = this.#stack;
    const events = s[p + N.events]!;
    // A tick node's prelude (a timer's period) was evaluated when update() looked at it.
    const prelude = s[p + N.prelude]!;
    if (socket >= 0 && prelude !== 0) this.#prelude(dbg, s, c, d, prelude);
    const watch = dbg.watch;
    const index = dbg.nodeAtWord[p]!;
    const record = watch !== null ? watch.begin(s, c, d, p, index, socket) : -1;
    let list = 0;
    if (socket < 0) {
      if (s[p]! <= Op.external && s[p + N.outputs]! > 0) d[outputSlot(s, p, 0)] = value;
      list = eventList(s, p, 0);
    } else {
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
          sp = this.#host.callAction(instance, s, c, d, p, sp);
          list = s[events]!;
          break;
        default:
          throw new FlowError(`Node type id ${s[p]} at word ${p} cannot take event input ${socket}: the flow file is damaged; recompile it.`);
      }
    }
    this.#host.executions++;
    if (watch !== null) watch.end(s, d, p, index, record);
    return pushTargets(stack, sp, s, list);
  }
}
