// The interpreter. It walks the static blob, switching on node type ids; per-node state lives
// in the instance's dynamic blob. Pending event inputs sit on one pre-sized int32 stack
// (node offset, event input), so firing events allocates nothing. An instance with debug
// state (watch, breakpoints, a pause) takes the instrumented interpreter instead, decided by
// one check per host call; the loop here never looks at debugging.
import type { FlowActionCall } from './api.ts';
import { H, N, NODE_FIXED_WORDS, Op } from './blob-layout.ts';
import { DebugInterpreter, type DebugHost } from './debug-interpreter.ts';
import { FlowError } from './errors.ts';
import { FlowDebugState, FlowWatch, QueuedKind, type FlowWatchOptions } from './flow-debug.ts';
import { FlowInstance, FlowProgram } from './flow-program.ts';
import { countDroppedTimers, planReload, reloadState, type FlowReloadReport, type ReloadPlan } from './reload-graph.ts';

/** Options of {@link FlowRuntime}'s constructor; every one has a default. */
export interface FlowRuntimeOptions {
  /** Pending event inputs the stack holds (default 4096); a cascade deeper than that throws. */
  stackSize?: number;
  /** Node executions one host call may cause before it throws (default 1,000,000): catches event loops. */
  maxStepsPerCall?: number;
  /** Host calls a paused instance queues (default 256); more are dropped and counted. */
  pausedQueueSize?: number;
  /**
   * Called when an instance pauses (a breakpoint, or a step or pause() reaching a node), with
   * the index of the node it stopped before; after the host call that paused it has let go of
   * it. A notification: continue() and step() belong between host calls, not in here.
   */
  onPause?: ((instance: FlowInstance, node: number) => void) | null;
}

/** Where a debugged instance stands, for the engine's report to the tool (runtime.debugStatus). */
export interface FlowDebugStatus {
  /** Whether a {@link FlowWatch} records the instance. */
  watched: boolean;
  /** Whether the instance is paused (at a breakpoint, or by a step or `pause()`). */
  paused: boolean;
  /** Index of the node the pause stopped before, or -1 (not paused, or paused after a reload with nothing held). */
  node: number;
  /** Its id, or ''. */
  nodeId: string;
  /** A step or pause() is armed: the next node that runs stops. */
  stepping: boolean;
  /** Ids of the nodes that have a breakpoint. */
  breakpoints: string[];
  /** Host calls queued while paused, to run on continue. */
  queued: number;
  /** Host calls dropped because the paused queue was full, since debugging began. */
  droppedEvents: number;
  /** update() calls skipped while paused (the instance's time stood still), since debugging began. */
  skippedUpdates: number;
}

// These stay module-private (not imported from interpreter-ops.ts, which holds the same code
// for the debug interpreter): see there why.

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
export class FlowRuntime {
  /** Node executions since the runtime was made (event, flow and pure nodes alike). */
  executions = 0;
  /** Highest stack use seen, in pending event inputs. */
  peakStack = 0;
  /** Pending event inputs the stack holds (an integer, at least 16), as given in the options. */
  readonly stackSize: number;
  readonly #stack: Int32Array;
  readonly #maxSteps: number;
  readonly #call = new ActionCall();
  #sp = 0;
  readonly #queueSize: number;
  /** Host actions running now: debug and reload calls are refused inside one. */
  #actionDepth = 0;
  #debugger: DebugInterpreter | null = null;
  /** Called when an instance pauses, see {@link FlowRuntimeOptions.onPause}; null for none. */
  onPause: ((instance: FlowInstance, node: number) => void) | null;

  constructor(options: FlowRuntimeOptions = {}) {
    const stackSize = options.stackSize ?? 4096;
    const maxSteps = options.maxStepsPerCall ?? 1_000_000;
    if (!Number.isInteger(stackSize) || stackSize < 16) throw new FlowError(`stackSize must be an integer >= 16, got ${stackSize}.`);
    if (!Number.isInteger(maxSteps) || maxSteps < 1) throw new FlowError(`maxStepsPerCall must be a positive integer, got ${maxSteps}.`);
    this.stackSize = stackSize;
    this.#stack = new Int32Array(stackSize * 2);
    this.#maxSteps = maxSteps;
    const queueSize = options.pausedQueueSize ?? 256;
    if (!Number.isInteger(queueSize) || queueSize < 1) throw new FlowError(`pausedQueueSize must be a positive integer, got ${queueSize}.`);
    this.#queueSize = queueSize;
    const onPause = options.onPause ?? null;
    if (onPause !== null && typeof onPause !== 'function') throw new FlowError(`onPause must be a function, got ${typeof onPause}.`);
    this.onPause = onPause;
  }

  /** Node executions one host call may cause before it throws, as given in the options. */
  get maxStepsPerCall(): number {
    return this.#maxSteps;
  }

  /** Fires every event/level_loaded node of the instance. */
  levelLoaded(instance: FlowInstance): void {
    this.#dispatch(instance, QueuedKind.levelLoaded, instance.program.words[H.levelLoaded]!, 0);
  }

  /** Fires every event/unit_spawned node; their `unit` output is the instance's unit id. */
  unitSpawned(instance: FlowInstance): void {
    this.#dispatch(instance, QueuedKind.unitSpawned, instance.program.words[H.unitSpawned]!, instance.unit);
  }

  /** Fires every event/collision node with `actor`, the unit that collided. */
  collision(instance: FlowInstance, actor: number): void {
    this.#dispatch(instance, QueuedKind.collision, instance.program.words[H.collision]!, actor);
  }

  /** Fires the event/external nodes of `eventId` (from program.externalEvent(name)) with `value`. */
  external(instance: FlowInstance, eventId: number, value = 0): void {
    const s = instance.program.words;
    const table = s[H.externalTable]!;
    if (!(eventId >= 0 && eventId < s[table]! && Number.isInteger(eventId))) {
      throw new FlowError(`External event id ${eventId} is not one of this program's (0..${s[table]! - 1}): get ids from program.externalEvent(name).`);
    }
    this.#dispatch(instance, QueuedKind.external + eventId, s[table + 2 + 2 * eventId]!, value);
  }

  /**
   * Advances delays and timers by `dt` seconds; those that come due fire now, in source
   * order, each cascade finishing before the next node is looked at.
   */
  update(instance: FlowInstance, dt: number): void {
    if (!(dt >= 0)) throw new FlowError(`dt must be a non-negative number of seconds, got ${dt}.`);
    if (instance.debug !== null) {
      this.#debugCall(instance, -1, dt);
      return;
    }
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

  /** `kind`: a QueuedKind (external events: QueuedKind.external + id), for the debug path. */
  #dispatch(instance: FlowInstance, kind: number, list: number, value: number): void {
    if (instance.debug !== null) {
      this.#debugCall(instance, kind, value);
      return;
    }
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
    this.#actionDepth++;
    try {
      instance.program.actions[s[p + N.extra]!]!(call);
    } finally {
      this.#actionDepth--;
    }
    if (savedInstance) {
      call.instance = savedInstance;
      call.s = savedInstance.program.words;
      call.c = savedInstance.program.constants;
      call.d = savedInstance.state;
      call.p = saved;
    }
  }

  // ---- Live debugging: edge calls, validated, allocation allowed; none of it runs per event. ----

  /**
   * Watches one instance: from now on each node it runs is counted and traced, with the values
   * on its pins, into the returned FlowWatch's fixed-size arrays (options.records and
   * options.values bound them). The engine reads them once per frame and calls clear().
   */
  watch(instance: FlowInstance, options: FlowWatchOptions = {}): FlowWatch {
    this.#checkDebugCall(instance, 'watch');
    if (instance.debug?.watch) throw new FlowError(`This instance of graph "${instance.program.name}" is already watched: unwatch it first (one watcher per instance).`);
    const watch = new FlowWatch(instance, options);
    this.#debugState(instance).watch = watch;
    return watch;
  }

  /** Stops watching; true when the instance was watched. With no breakpoints or pause left, it is back on the fast path. */
  unwatch(instance: FlowInstance): boolean {
    this.#checkDebugCall(instance, 'unwatch');
    const dbg = instance.debug;
    if (!dbg?.watch) return false;
    dbg.watch = null;
    this.#detachIfIdle(instance);
    return true;
  }

  /** Sets a breakpoint on a node (its id, or its index): the instance pauses right before that node runs. */
  setBreakpoint(instance: FlowInstance, node: string | number): void {
    this.#checkDebugCall(instance, 'setBreakpoint');
    const index = this.#breakableNode(instance, node);
    const dbg = this.#debugState(instance);
    if (dbg.breakpoints[index] === 0) {
      dbg.breakpoints[index] = 1;
      dbg.breakpointCount++;
    }
  }

  /** Clears a breakpoint; true when there was one. A paused instance stays paused. */
  clearBreakpoint(instance: FlowInstance, node: string | number): boolean {
    this.#checkDebugCall(instance, 'clearBreakpoint');
    const index = this.#nodeIndex(instance, node);
    const dbg = instance.debug;
    if (!dbg || dbg.breakpoints[index] === 0) return false;
    dbg.breakpoints[index] = 0;
    dbg.breakpointCount--;
    this.#detachIfIdle(instance);
    return true;
  }

  /** Stops the instance before the next node it runs (now if it is paused already: no change). */
  pause(instance: FlowInstance): void {
    this.#checkDebugCall(instance, 'pause');
    const dbg = this.#debugState(instance);
    if (!dbg.paused) dbg.stepping = true;
  }

  /**
   * Lets a paused instance go on: the node it stopped before runs, then the rest of the
   * interrupted cascade and host call, then the events queued while it was paused, in order,
   * until the next breakpoint. Also disarms a pause() or step() that has not stopped yet.
   */
  continue(instance: FlowInstance): void {
    this.#checkDebugCall(instance, 'continue');
    const dbg = instance.debug;
    if (!dbg?.paused && !dbg?.stepping) throw new FlowError(`continue: this instance of graph "${instance.program.name}" is not paused.`);
    if (!dbg.paused) {
      dbg.stepping = false;
      this.#detachIfIdle(instance);
      return;
    }
    this.#resume(instance, dbg, false);
  }

  /**
   * Runs the node a paused instance stopped before, then pauses again right before the next
   * node that runs, now or in a later host call. Pure nodes run as part of the node that reads them.
   */
  step(instance: FlowInstance): void {
    this.#checkDebugCall(instance, 'step');
    const dbg = instance.debug;
    if (!dbg?.paused) throw new FlowError(`step: this instance of graph "${instance.program.name}" is not paused (pause() stops it before its next node).`);
    this.#resume(instance, dbg, true);
  }

  /** Whether the instance is paused (cheap: one field). */
  isPaused(instance: FlowInstance): boolean {
    return instance.debug?.paused === true;
  }

  /** Where a debugged instance stands: paused where, breakpoints, queue; allocates. */
  debugStatus(instance: FlowInstance): FlowDebugStatus {
    this.#checkInstance(instance, 'debugStatus');
    const dbg = instance.debug;
    const program = instance.program;
    const node = dbg?.paused && dbg.held !== 0 ? dbg.nodeAtWord[dbg.held]! : -1;
    const breakpoints: string[] = [];
    if (dbg) for (let i = 0; i < dbg.breakpoints.length; i++) if (dbg.breakpoints[i] === 1) breakpoints.push(program.nodeId(i));
    return {
      watched: (dbg?.watch ?? null) !== null,
      paused: dbg?.paused ?? false,
      node,
      nodeId: node >= 0 ? program.nodeId(node) : '',
      stepping: dbg?.stepping ?? false,
      breakpoints,
      queued: dbg?.queueCount ?? 0,
      droppedEvents: dbg?.droppedEvents ?? 0,
      skippedUpdates: dbg?.skippedUpdates ?? 0,
    };
  }

  /**
   * Switches running instances to a recompiled graph. Each keeps the values of variables whose
   * name and type the new graph still has (others take the new defaults), and the state of
   * nodes whose id and type are unchanged (delays keep their time left, timers their phase,
   * counters their count, gates and onces their flags); state of nodes that are gone goes with
   * them, pending delays and timers included. Breakpoints follow node ids, a watch is resized.
   * A paused instance stays paused, but its interrupted cascade is dropped (its nodes may be
   * gone); events it queued stay queued (external ones by name). All instances are checked
   * before any changes: a bad call changes nothing.
   */
  reload(instances: FlowInstance | readonly FlowInstance[], program: FlowProgram): FlowReloadReport {
    if (!(program instanceof FlowProgram)) throw new FlowError('reload needs a FlowProgram (from loadFlowProgram) to switch to.');
    const list: readonly FlowInstance[] = Array.isArray(instances) ? instances : [instances as FlowInstance];
    if (list.length === 0) throw new FlowError('reload needs at least one instance.');
    for (const instance of list) {
      this.#checkDebugCall(instance, 'reload');
      if (instance.program.kind !== program.kind) {
        throw new FlowError(`reload: an instance of ${instance.program.kind} graph "${instance.program.name}" cannot take ${program.kind} graph "${program.name}".`);
      }
    }
    const plans = new Map<FlowProgram, ReloadPlan>();
    const report: FlowReloadReport = { instances: 0, variablesKept: [], variablesReset: [], nodesKept: 0, nodesRemoved: [], timersDropped: 0, pausedWorkDropped: 0, queuedEventsDropped: 0 };
    for (const instance of list) {
      const from = instance.program;
      let plan = plans.get(from);
      if (!plan) {
        plan = planReload(from, program);
        plans.set(from, plan);
        if (plans.size === 1) Object.assign(report, { variablesKept: plan.variablesKept, variablesReset: plan.variablesReset, nodesKept: plan.nodesKept, nodesRemoved: plan.nodesRemoved });
      }
      report.timersDropped += countDroppedTimers(from, instance.state, plan);
      instance.state = reloadState(program, instance.state, plan);
      instance.program = program;
      report.instances++;
      const dbg = instance.debug;
      if (dbg) {
        report.pausedWorkDropped += dbg.dropCascade();
        report.queuedEventsDropped += this.#remapQueue(dbg, plan);
        const breakpoints = new Uint8Array(program.nodeCount);
        let count = 0;
        for (let i = 0; i < dbg.breakpoints.length; i++) {
          const j = plan.nodeById[i]!;
          if (dbg.breakpoints[i] === 1 && j >= 0 && breakpoints[j] === 0 && this.#isBreakable(program, j)) {
            breakpoints[j] = 1;
            count++;
          }
        }
        dbg.breakpoints = breakpoints;
        dbg.breakpointCount = count;
        dbg.nodeAtWord = program.nodeAtWord;
        dbg.watch?.resize();
      }
    }
    return report;
  }

  /** Queued external events get the new program's ids (by name); those it has no node for are dropped. */
  #remapQueue(dbg: FlowDebugState, plan: ReloadPlan): number {
    const size = dbg.queueKind.length;
    const count = dbg.queueCount;
    let kept = 0;
    for (let i = 0; i < count; i++) {
      const from = (dbg.queueHead + i) % size;
      let kind = dbg.queueKind[from]!;
      if (kind >= QueuedKind.external) {
        const id = plan.external[kind - QueuedKind.external]!;
        if (id < 0) continue;
        kind = QueuedKind.external + id;
      }
      const to = (dbg.queueHead + kept) % size;
      dbg.queueKind[to] = kind;
      dbg.queueValue[to] = dbg.queueValue[from]!;
      kept++;
    }
    dbg.queueCount = kept;
    return count - kept;
  }

  #interpreter(): DebugInterpreter {
    if (this.#debugger) return this.#debugger;
    const host: DebugHost = {
      executions: 0,
      peakStack: 0,
      maxStepsPerCall: this.#maxSteps,
      callAction: (instance, s, c, d, p, sp) => {
        this.executions = host.executions;
        this.peakStack = host.peakStack;
        this.#sp = sp;
        this.#callAction(instance, s, c, d, p);
        host.executions = this.executions;
        host.peakStack = this.peakStack;
        return this.#sp;
      },
    };
    this.#debugger = new DebugInterpreter(host, this.#stack);
    this.#debugHost = host;
    return this.#debugger;
  }

  #debugHost: DebugHost | null = null;

  /** A host call into a debugged instance (`kind` -1: update with `value` as dt). */
  #debugCall(instance: FlowInstance, kind: number, value: number): void {
    const dbg = instance.debug!;
    const interpreter = this.#interpreter();
    const host = this.#debugHost!;
    const wasPaused = dbg.paused;
    const base = this.#sp;
    host.executions = this.executions;
    host.peakStack = this.peakStack;
    try {
      this.#sp = kind < 0 ? interpreter.update(instance, dbg, value, base) : interpreter.fire(instance, dbg, kind, value, base);
    } catch (error) {
      this.#sp = base;
      throw error;
    } finally {
      this.executions = host.executions;
      this.peakStack = host.peakStack;
    }
    if (!wasPaused && dbg.paused) this.#notifyPause(instance, dbg);
  }

  #resume(instance: FlowInstance, dbg: FlowDebugState, stepping: boolean): void {
    const interpreter = this.#interpreter();
    const host = this.#debugHost!;
    const base = this.#sp;
    host.executions = this.executions;
    host.peakStack = this.peakStack;
    try {
      this.#sp = interpreter.resume(instance, dbg, stepping, base);
    } catch (error) {
      this.#sp = base;
      dbg.dropCascade();
      throw error;
    } finally {
      this.executions = host.executions;
      this.peakStack = host.peakStack;
    }
    if (dbg.paused) this.#notifyPause(instance, dbg);
    else this.#detachIfIdle(instance);
  }

  #notifyPause(instance: FlowInstance, dbg: FlowDebugState): void {
    if (this.onPause) this.onPause(instance, dbg.held !== 0 ? dbg.nodeAtWord[dbg.held]! : -1);
  }

  #debugState(instance: FlowInstance): FlowDebugState {
    if (instance.debug === null) {
      instance.debug = new FlowDebugState(instance.program, this.#stack.length, this.#queueSize);
      this.#debugged++;
    }
    return instance.debug;
  }

  #detachIfIdle(instance: FlowInstance): void {
    if (instance.debug?.idle) {
      instance.debug = null;
      this.#debugged--;
    }
  }

  /**
   * Instances this runtime's debugging calls hold (watched, with breakpoints, paused or stepping).
   * While it is 0, every instance takes the fast path, and a host that treats debugged instances
   * apart (updating them on its own thread, say) need not look at each one.
   */
  get debuggedInstances(): number {
    return this.#debugged;
  }
  #debugged = 0;

  #checkInstance(instance: unknown, what: string): asserts instance is FlowInstance {
    if (!(instance instanceof FlowInstance)) throw new FlowError(`${what} needs a FlowInstance (from program.instantiate()), got ${instance === null ? 'null' : typeof instance}.`);
  }

  #checkDebugCall(instance: unknown, what: string): asserts instance is FlowInstance {
    this.#checkInstance(instance, what);
    if (this.#actionDepth > 0) throw new FlowError(`${what} was called from inside a host action: debug and reload calls belong between host calls (the engine's frame), not in a running graph.`);
  }

  #nodeIndex(instance: FlowInstance, node: unknown): number {
    const program = instance.program;
    if (typeof node === 'string') return program.nodeIndex(node);
    if (typeof node === 'number') {
      program.nodeId(node); // throws when out of range
      return node;
    }
    throw new FlowError(`A node is named by its id (string) or index (number), got ${node === null ? 'null' : typeof node}.`);
  }

  #isBreakable(program: FlowProgram, index: number): boolean {
    return program.words[program.nodeWord(index) + N.eventOutputs]! > 0;
  }

  #breakableNode(instance: FlowInstance, node: string | number): number {
    const index = this.#nodeIndex(instance, node);
    if (!this.#isBreakable(instance.program, index)) {
      throw new FlowError(
        `Node "${instance.program.nodeId(index)}" is a pure node (math, logic, compare, variable/get): it runs as part of the nodes that read it, so it cannot stop; set the breakpoint on one of those.`,
      );
    }
    return index;
  }
}
