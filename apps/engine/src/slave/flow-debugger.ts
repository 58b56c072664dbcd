// Live Flow debugging for the tools: each connection watches at most one Flow instance (a placed
// unit's, named by its id in the level, or the level's own graph), sets breakpoints on it and
// continues or steps it. One @cuttle/flow FlowWatch per watched instance, shared by every tool
// that watches it; its activity (which nodes ran, their last pin values) is read at most every
// ACTIVITY_INTERVAL_MS, only when something ran, cut to a bounded size and offered to each
// watcher as a droppable message (outbound.ts). Nothing here runs while nobody watches: the
// server asks `active` (one Map size) before it calls poll(). A tool that leaves takes its
// breakpoints with it, and an instance it leaves paused runs on.
import type { FlowProgram, FlowSocketSpec, FlowWatch } from '@cuttle/flow';
import { describeError } from '../describe-error.ts';
import { EngineError } from '../errors.ts';
import type { FlowScripts, FlowTarget } from '../runtime/flow-scripts.ts';
import type { LogFn } from '../runtime/world.ts';
import type { FlowToolMessage } from './protocol.ts';

/** Breakpoints one connection may hold (on its watched instance). */
export const MAX_BREAKPOINTS = 256;
/** Shortest time between two `flow.activity` messages of one watched instance (so at most 10 a second per tool). */
export const ACTIVITY_INTERVAL_MS = 100;
/** Nodes one `flow.activity` names; the rest are counted in `cut.nodes`. */
export const MAX_ACTIVITY_NODES = 128;
/** Pin values one `flow.activity` carries; nodes past it are listed without values, counted in `cut.values`. */
export const MAX_ACTIVITY_VALUES = 256;
/** Units one `flow.units` lists; the rest are counted in `more`. */
export const MAX_LISTED_UNITS = 2048;
/** Nodes one `flow.watching` describes; the rest are counted in `nodesCut`. */
export const MAX_WATCH_NODES = 4096;
/** Longest string pin value sent (the rest is cut). */
const MAX_STRING_PIN = 200;

/** Where a tool's messages go: the connection's outbound budget (outbound.ts). */
export interface FlowPeer {
  reply(message: object | string): void;
  offer(kind: 'flow', message: object | string): void;
}

/** What the debugger needs of the engine: the running world's Flow graphs (a reload may replace them). */
export interface FlowDebugEngine {
  readonly world: { readonly flow?: FlowScripts };
}

interface Session {
  peer: FlowPeer;
  watched: Watched | undefined;
  /** Node ids of this tool's breakpoints, on its watched instance. */
  breakpoints: Set<string>;
}

interface Pin {
  name: string;
  type: string;
}

interface Watched {
  unit: string | null;
  flow: FlowScripts;
  target: FlowTarget;
  /** The program the tools were told about; a reload of the graph changes the instance's. */
  program: FlowProgram;
  watch: FlowWatch;
  /** Pins of each node (inputs then outputs), from the registry; null when the node types are unknown. */
  pins: (Pin[] | null)[];
  sessions: Set<Session>;
  lastSent: number;
  sent: number;
}

function label(unit: string | null): string {
  return unit === null ? 'the level graph' : `unit "${unit}"`;
}

export class FlowDebugger {
  readonly #engine: FlowDebugEngine;
  readonly #log: LogFn;
  readonly #sessions = new Map<FlowPeer, Session>();
  readonly #watched = new Map<string | null, Watched>();
  readonly #pauses: { target: FlowTarget; node: number }[] = [];

  constructor(engine: FlowDebugEngine, log: LogFn) {
    this.#engine = engine;
    this.#log = log;
  }

  /** Whether any tool watches an instance: poll() has nothing to do otherwise. */
  get active(): boolean {
    return this.#watched.size > 0;
  }

  /** Handles one validated `flow` message; throws an EngineError (or FlowError) naming the problem, and then nothing has changed. */
  handle(peer: FlowPeer, message: FlowToolMessage): void {
    let session = this.#sessions.get(peer);
    if (!session) {
      session = { peer, watched: undefined, breakpoints: new Set() };
      this.#sessions.set(peer, session);
    }
    const id = message.id === undefined ? {} : { id: message.id };
    switch (message.action) {
      case 'list': {
        const flow = this.#engine.world.flow;
        const targets = flow?.targets ?? [];
        const units = targets.slice(0, MAX_LISTED_UNITS).map((t) => ({ unit: t.unit, graph: `${t.graph}.flow`, kind: t.instance.program.kind, nodes: t.instance.program.nodeCount }));
        peer.reply({ type: 'flow.units', ...id, units, more: targets.length - units.length });
        return;
      }
      case 'watch': {
        const flow = this.#requireFlow();
        const target = flow.find(message.unit);
        if (!target) throw new EngineError(`${label(message.unit)} runs no Flow graph in this level; flow.list names the units that do.`);
        if (session.watched?.target !== target) {
          this.#leave(session);
          let watched = this.#watched.get(message.unit);
          if (!watched) {
            watched = this.#attach(flow, target);
            this.#watched.set(message.unit, watched);
          }
          watched.sessions.add(session);
          session.watched = watched;
        }
        peer.reply(this.#watching(session.watched, session, id));
        return;
      }
      case 'unwatch': {
        const unit = session.watched?.unit;
        this.#leave(session);
        this.#sessions.delete(peer);
        peer.reply({ type: 'flow.watching', ...id, watching: false, unit: unit ?? null, reason: unit === undefined ? 'nothing was watched' : 'unwatched' });
        return;
      }
      case 'breakpoint': {
        const watched = this.#require(session, 'breakpoint');
        const { runtime } = watched.flow;
        const instance = watched.target.instance;
        if (message.on && !session.breakpoints.has(message.node)) {
          if (session.breakpoints.size >= MAX_BREAKPOINTS) throw new EngineError(`this tool already has ${MAX_BREAKPOINTS} breakpoints (the most allowed); clear one first.`);
          runtime.setBreakpoint(instance, message.node); // throws for an unknown or pure node: nothing changed
          session.breakpoints.add(message.node);
        } else if (!message.on && session.breakpoints.delete(message.node)) {
          if (!this.#othersHave(watched, session, message.node)) runtime.clearBreakpoint(instance, message.node);
        }
        peer.reply({ type: 'flow.breakpoints', ...id, unit: watched.unit, nodes: [...session.breakpoints] });
        return;
      }
      case 'continue': {
        const watched = this.#require(session, 'continue');
        const { runtime } = watched.flow;
        const instance = watched.target.instance;
        const status = runtime.debugStatus(instance);
        if (!status.paused && !status.stepping) throw new EngineError(`continue: ${label(watched.unit)} is not paused.`);
        this.#announce(watched, { type: 'flow.resumed', unit: watched.unit, stepping: false });
        runtime.continue(instance);
        this.#drainPauses();
        return;
      }
      case 'step': {
        const watched = this.#require(session, 'step');
        const { runtime } = watched.flow;
        const instance = watched.target.instance;
        this.#announce(watched, { type: 'flow.resumed', unit: watched.unit, stepping: true });
        if (runtime.isPaused(instance)) runtime.step(instance);
        else runtime.pause(instance);
        this.#drainPauses();
        return;
      }
    }
  }

  /** A tool went away: its breakpoints are cleared and an instance it leaves paused runs on. */
  disconnect(peer: FlowPeer): void {
    const session = this.#sessions.get(peer);
    if (!session) return;
    this.#sessions.delete(peer);
    this.#leave(session);
  }

  /**
   * Once per engine pump while someone watches: follows reloads (a new world, a recompiled
   * graph), sends each watched instance's activity when it is due and something ran, and tells
   * the watchers about pauses.
   */
  poll(now: number): void {
    const flow = this.#engine.world.flow;
    for (const watched of [...this.#watched.values()]) {
      if (watched.flow !== flow) this.#worldChanged(watched, flow);
      else if (watched.target.instance.program !== watched.program) this.#graphReloaded(watched);
    }
    for (const watched of this.#watched.values()) if (now - watched.lastSent >= ACTIVITY_INTERVAL_MS) this.#sendActivity(watched, now);
    this.#drainPauses();
  }

  #requireFlow(): FlowScripts {
    const flow = this.#engine.world.flow;
    if (!flow) throw new EngineError('this engine runs no Flow graphs.');
    return flow;
  }

  #require(session: Session, action: string): Watched {
    if (!session.watched) throw new EngineError(`${action}: watch a unit first ({"type":"flow","action":"watch","unit":…}).`);
    return session.watched;
  }

  #othersHave(watched: Watched, session: Session, node: string): boolean {
    for (const other of watched.sessions) if (other !== session && other.breakpoints.has(node)) return true;
    return false;
  }

  #attach(flow: FlowScripts, target: FlowTarget): Watched {
    // The trace is not sent (runs and pinValues are), so it is kept as small as the runtime allows.
    const watch = flow.runtime.watch(target.instance, { records: 1, values: 1 });
    flow.onPause = (paused, node) => {
      if (this.#pauses.length < 64) this.#pauses.push({ target: paused, node });
    };
    const program = target.instance.program;
    return { unit: target.unit, flow, target, program, watch, pins: this.#pins(flow, target), sessions: new Set(), lastSent: -Infinity, sent: 0 };
  }

  #pins(flow: FlowScripts, target: FlowTarget): (Pin[] | null)[] {
    const types = flow.types(target.graph);
    const count = target.instance.program.nodeCount;
    const pins: (Pin[] | null)[] = [];
    for (let i = 0; i < count; i++) {
      const info = types ? flow.registry.get(types[i]!) : undefined;
      pins.push(info ? [...info.inputs, ...info.outputs].map((s: FlowSocketSpec) => ({ name: s.name, type: s.type })) : null);
    }
    return pins;
  }

  /** The `flow.watching` message for `session`. */
  #watching(watched: Watched, session: Session, extra: object = {}): object {
    const { program } = watched.target.instance;
    const { runtime } = watched.flow;
    const types = watched.flow.types(watched.target.graph);
    const shown = Math.min(program.nodeCount, MAX_WATCH_NODES);
    const nodes = [];
    for (let i = 0; i < shown; i++) nodes.push({ id: program.nodeId(i), ...(types ? { type: types[i] } : {}), pins: watched.pins[i]?.map((p) => p.name) ?? null });
    const status = runtime.debugStatus(watched.target.instance);
    return {
      type: 'flow.watching',
      ...extra,
      watching: true,
      unit: watched.unit,
      graph: `${watched.target.graph}.flow`,
      kind: program.kind,
      nodeCount: program.nodeCount,
      nodes,
      nodesCut: program.nodeCount - shown,
      breakpoints: [...session.breakpoints],
      paused: status.paused ? { node: status.nodeId || null, why: this.#why(watched, status.nodeId) } : null,
    };
  }

  #why(watched: Watched, node: string): 'breakpoint' | 'step' {
    for (const session of watched.sessions) if (session.breakpoints.has(node)) return 'breakpoint';
    return 'step';
  }

  #announce(watched: Watched, message: object): void {
    const text = JSON.stringify(message);
    for (const session of watched.sessions) session.peer.reply(text);
  }

  /** Takes `session` off its watched instance: its breakpoints go, and the instance runs on unless another tool's breakpoint holds it. */
  #leave(session: Session): void {
    const watched = session.watched;
    if (!watched) return;
    session.watched = undefined;
    watched.sessions.delete(session);
    const breakpoints = [...session.breakpoints];
    session.breakpoints.clear();
    if (watched.flow !== this.#engine.world.flow) {
      // Its world is gone (a reload): nothing of it runs any more.
      if (watched.sessions.size === 0) this.#watched.delete(watched.unit);
      return;
    }
    const { runtime } = watched.flow;
    const instance = watched.target.instance;
    try {
      for (const node of breakpoints) if (!this.#othersHave(watched, session, node)) runtime.clearBreakpoint(instance, node);
      if (watched.sessions.size === 0) {
        runtime.unwatch(instance);
        this.#watched.delete(watched.unit);
      }
      const status = runtime.debugStatus(instance);
      if ((status.paused && this.#why(watched, status.nodeId) !== 'breakpoint') || (status.stepping && watched.sessions.size === 0)) {
        this.#announce(watched, { type: 'flow.resumed', unit: watched.unit, stepping: false });
        runtime.continue(instance);
        this.#drainPauses();
      }
    } catch (error) {
      this.#log('error', 'flow', `${label(watched.unit)}: letting it run on after a tool left failed: ${describeError(error)}`);
    }
  }

  /** A reload built a new world: the watch moves to the unit of the same id there, or the watchers are told it is gone. */
  #worldChanged(watched: Watched, flow: FlowScripts | undefined): void {
    this.#watched.delete(watched.unit);
    const target = flow?.find(watched.unit);
    const sessions = [...watched.sessions];
    if (!flow || !target) {
      for (const session of sessions) {
        session.watched = undefined;
        session.breakpoints.clear();
        session.peer.reply({ type: 'flow.watching', watching: false, unit: watched.unit, reason: `${label(watched.unit)} is gone: the level was reloaded without it.` });
      }
      return;
    }
    const next = this.#attach(flow, target);
    this.#watched.set(watched.unit, next);
    for (const session of sessions) {
      next.sessions.add(session);
      session.watched = next;
      for (const node of [...session.breakpoints]) {
        try {
          flow.runtime.setBreakpoint(target.instance, node);
        } catch {
          session.breakpoints.delete(node); // the new graph has no such node (or it is pure now)
        }
      }
    }
    for (const session of sessions) session.peer.reply(this.#watching(next, session, { reason: 'the level was reloaded' }));
  }

  /** The watched instance switched to a recompiled graph: breakpoints followed node ids (runtime.reload); the tools get the new nodes. */
  #graphReloaded(watched: Watched): void {
    watched.program = watched.target.instance.program;
    watched.pins = this.#pins(watched.flow, watched.target);
    const kept = new Set(watched.flow.runtime.debugStatus(watched.target.instance).breakpoints);
    for (const session of watched.sessions) for (const node of [...session.breakpoints]) if (!kept.has(node)) session.breakpoints.delete(node);
    for (const session of watched.sessions) session.peer.reply(this.#watching(watched, session, { reason: 'the graph was reloaded' }));
  }

  /** Which nodes ran since the last report, with their last pin values, cut to the bounds; then the watch's frame starts over. */
  #sendActivity(watched: Watched, now: number): void {
    const watch = watched.watch;
    if (watch.count + watch.dropped === 0) return;
    const { program } = watched.target.instance;
    const strings = program.strings;
    const runs = watch.runs;
    const ran: [string, number][] = [];
    const values: Record<string, (number | string | null)[]> = {};
    let valueCount = 0;
    let cutNodes = 0;
    let cutValues = 0;
    for (let i = 0; i < runs.length; i++) {
      const count = runs[i]!;
      if (count === 0) continue;
      if (ran.length === MAX_ACTIVITY_NODES) {
        cutNodes++;
        continue;
      }
      const id = program.nodeId(i);
      ran.push([id, count]);
      const start = watch.pinStart[i]!;
      const end = watch.pinStart[i + 1]!;
      if (valueCount + end - start > MAX_ACTIVITY_VALUES) {
        cutValues++;
        continue;
      }
      const pins = watched.pins[i];
      const list: (number | string | null)[] = [];
      for (let k = start; k < end; k++) {
        const value = watch.pinValues[k]!;
        if (!Number.isFinite(value)) list.push(null);
        else if (pins?.[k - start]?.type === 'string' && Number.isInteger(value) && value >= 0 && value < strings.length) list.push(strings[value]!.slice(0, MAX_STRING_PIN));
        else list.push(value);
      }
      values[id] = list;
      valueCount += end - start;
    }
    const message = JSON.stringify({ type: 'flow.activity', unit: watched.unit, seq: ++watched.sent, ms: Number.isFinite(watched.lastSent) ? Math.round(now - watched.lastSent) : null, ran, values, cut: { nodes: cutNodes, values: cutValues } });
    watch.clear();
    watched.lastSent = now;
    for (const session of watched.sessions) session.peer.offer('flow', message);
  }

  #drainPauses(): void {
    while (this.#pauses.length > 0) {
      const { target, node } = this.#pauses.shift()!;
      const watched = this.#watched.get(target.unit);
      if (watched?.target !== target) continue;
      // What ran up to the pause first (a pause follows a continue or a step, so these stay rare).
      this.#sendActivity(watched, performance.now());
      const id = node >= 0 ? target.instance.program.nodeId(node) : null;
      this.#announce(watched, { type: 'flow.paused', unit: watched.unit, node: id, why: id === null ? 'step' : this.#why(watched, id) });
    }
  }
}
