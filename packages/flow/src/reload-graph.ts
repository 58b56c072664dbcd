// Hot reload: which slots of an instance's dynamic blob survive a switch from one compiled
// graph to another. Worked out once per (old, new) program pair as a flat list of slot pairs,
// then applied to each instance with a template copy and a loop.
import { H, N, NODE_FIXED_WORDS, Op } from './blob-layout.ts';
import type { FlowProgram } from './flow-program.ts';

/** What runtime.reload() did, for the engine to report to the tool. */
export interface FlowReloadReport {
  /** Instances switched to the new program. */
  instances: number;
  /** Variables whose name and type the new graph still has: their values were kept. */
  variablesKept: string[];
  /** Variables of the new graph that start from its defaults (new, or their type changed). */
  variablesReset: string[];
  /** Nodes (by id) whose state carried over: same id, same type. */
  nodesKept: number;
  /** Ids of old nodes that are gone or changed type: their state (and pending delays, timers) is dropped. */
  nodesRemoved: string[];
  /** Running delays and timers dropped with their nodes, over all instances. */
  timersDropped: number;
  /** Pending node inputs of paused instances' interrupted cascades, dropped (the instances stay paused). */
  pausedWorkDropped: number;
  /** Events queued by paused instances that the new graph has no node for (external names it lacks), dropped. */
  queuedEventsDropped: number;
}

export interface ReloadPlan {
  /** (old slot, new slot) pairs to copy. */
  copy: Int32Array;
  /** New node index by old node index (-1: none with that id); breakpoints follow ids. */
  nodeById: Int32Array;
  /** New external event id by old one (-1: the new graph has no event/external of that name). */
  external: Int32Array;
  /** Old delay and timer records whose nodes do not carry over. */
  droppedTickNodes: Int32Array;
  variablesKept: string[];
  variablesReset: string[];
  nodesKept: number;
  nodesRemoved: string[];
}

function variables(program: FlowProgram): Map<string, { slot: number; type: number }> {
  const s = program.words;
  const table = s[H.variableTable]!;
  const found = new Map<string, { slot: number; type: number }>();
  for (let i = 0; i < s[table]!; i++) found.set(program.strings[s[table + 1 + 3 * i]!]!, { slot: s[table + 2 + 3 * i]!, type: s[table + 3 + 3 * i]! });
  return found;
}

/** The action name of action node `p`, '' for other nodes: an action node's state carries over only to the same action. */
function actionName(program: FlowProgram, p: number): string {
  const s = program.words;
  return s[p] === Op.action ? program.strings[s[s[H.actionTable]! + 1 + 3 * s[p + N.extra]!]!]! : '';
}

export function planReload(from: FlowProgram, to: FlowProgram): ReloadPlan {
  const copy: number[] = [];
  const oldVariables = variables(from);
  const variablesKept: string[] = [];
  const variablesReset: string[] = [];
  for (const [name, v] of variables(to)) {
    const old = oldVariables.get(name);
    if (old?.type === v.type) {
      copy.push(old.slot, v.slot);
      variablesKept.push(name);
    } else variablesReset.push(name);
  }

  const a = from.words;
  const b = to.words;
  const newIndex = new Map<string, number>();
  for (let i = 0; i < to.nodeCount; i++) newIndex.set(to.nodeId(i), i);
  const nodeById = new Int32Array(from.nodeCount).fill(-1);
  const droppedTicks: number[] = [];
  const nodesRemoved: string[] = [];
  let nodesKept = 0;
  for (let i = 0; i < from.nodeCount; i++) {
    const id = from.nodeId(i);
    const j = newIndex.get(id);
    const p = from.nodeWord(i);
    if (j !== undefined) nodeById[i] = j;
    const q = j === undefined ? -1 : to.nodeWord(j);
    const same = q >= 0 && a[p] === b[q] && a[p + N.outputs] === b[q + N.outputs] && a[p + N.state] === b[q + N.state] && actionName(from, p) === actionName(to, q);
    if (!same) {
      nodesRemoved.push(id);
      if (a[p] === Op.delay || a[p] === Op.timer) droppedTicks.push(p);
      continue;
    }
    nodesKept++;
    // variable/get's output is its variable's slot: the variable decides, above.
    if (a[p] === Op.variableGet) continue;
    const pFirst = p + NODE_FIXED_WORDS + a[p + N.inputs]!;
    const qFirst = q + NODE_FIXED_WORDS + b[q + N.inputs]!;
    for (let k = 0; k < a[p + N.outputs]! + a[p + N.state]!; k++) copy.push(a[pFirst + k]!, b[qFirst + k]!);
  }

  const external = new Int32Array(from.externalEventNames().length).fill(-1);
  const newNames = to.externalEventNames();
  from.externalEventNames().forEach((name, i) => { external[i] = newNames.indexOf(name); });
  return { copy: Int32Array.from(copy), nodeById, external, droppedTickNodes: Int32Array.from(droppedTicks), variablesKept, variablesReset, nodesKept, nodesRemoved };
}

/** Running delays and timers among the plan's dropped tick nodes, in `state` of the old program. */
export function countDroppedTimers(from: FlowProgram, state: Float64Array, plan: ReloadPlan): number {
  const s = from.words;
  let running = 0;
  for (const p of plan.droppedTickNodes) {
    const stateAt = p + NODE_FIXED_WORDS + s[p + N.inputs]! + s[p + N.outputs]!;
    if (s[p] === Op.delay ? state[s[stateAt]!]! >= 0 : state[s[stateAt + 1]!] !== 0) running++;
  }
  return running;
}

/** The instance's new dynamic blob: the new template, with the plan's slots copied from `state`. */
export function reloadState(to: FlowProgram, state: Float64Array, plan: ReloadPlan): Float64Array {
  const next = to.template.slice();
  const copy = plan.copy;
  for (let i = 0; i < copy.length; i += 2) next[copy[i + 1]!] = state[copy[i]!]!;
  return next;
}
