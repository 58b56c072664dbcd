// Source checking: turns a parsed graph source into a resolved graph (node types looked up,
// links resolved to indices, socket types known) or a list of issues naming node and socket.
import { FLOW_VALUE_TYPES, type FlowConstant, type FlowGraphKind, type FlowSocketSpec, type FlowValueType } from './api.ts';
import { Op } from './blob-layout.ts';
import { FlowGraphError, type FlowIssue, type FlowIssueCode } from './errors.ts';
import type { FlowRegistry } from './flow-registry.ts';
import { parseSjson } from './sjson.ts';
import type { NodeTypeDef } from './standard-library.ts';

export interface ResolvedVariable {
  name: string;
  type: FlowValueType;
  value: FlowConstant;
}

export interface ResolvedEndpoint {
  node: number;
  socket: number;
}

export interface ResolvedNode {
  index: number;
  id: string;
  def: NodeTypeDef;
  inputs: readonly FlowSocketSpec[];
  outputs: readonly FlowSocketSpec[];
  settings: Record<string, boolean | string>;
  /** Per variable input: the constant (explicit or the socket's default) when not linked. */
  constants: (FlowConstant | undefined)[];
  /** Per variable input: the output feeding it. */
  inputLinks: (ResolvedEndpoint | undefined)[];
  /** Per event output: the event inputs it fires, in link order. */
  eventTargets: ResolvedEndpoint[][];
}

export interface ResolvedGraph {
  kind: FlowGraphKind;
  name: string;
  variables: ResolvedVariable[];
  nodes: ResolvedNode[];
}

type Json = unknown;

/**
 * Tools' own data (node positions, comment boxes, groups) at the top level and on each node:
 * accepted with any value and ignored, so it never changes the compiled blob.
 */
const EDITOR_KEY = 'editor';

/** Inputs that carry a constant written in the source (not a socket default). */
const explicitConstants = new WeakMap<ResolvedNode, Set<number>>();

const isObject = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A node that runs only when another node needs its outputs (math, logic/and...). */
export function isPure(def: NodeTypeDef): boolean {
  return def.eventInputs.length === 0 && def.event === undefined && def.op !== Op.variableGet;
}

function zeroOf(type: FlowValueType): FlowConstant {
  return type === 'bool' ? false : type === 'string' ? '' : 0;
}

/** Whether an output of type `from` may feed an input of type `to` (same type, or int into float). */
export function assignable(from: FlowValueType, to: FlowValueType): boolean {
  return from === to || (from === 'int' && to === 'float');
}

/** Checks a constant against a socket type; returns what is wrong, or undefined. */
function constantProblem(value: Json, type: FlowValueType): string | undefined {
  if (type === 'bool') return typeof value === 'boolean' ? undefined : 'must be true or false';
  if (type === 'string') return typeof value === 'string' ? undefined : 'must be a string';
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a finite number';
  if ((type === 'int' || type === 'unit') && !Number.isInteger(value)) return 'must be an integer';
  return undefined;
}

/**
 * Every problem of a graph source (an object, or JSON/SJSON text), with the messages
 * `compileFlowGraph` throws in a `FlowGraphError`, without compiling: an empty list means it compiles.
 */
export function validateFlowGraph(source: unknown, registry: FlowRegistry): FlowIssue[] {
  let parsed: unknown = source;
  if (typeof source === 'string') {
    try {
      parsed = parseSjson(source);
    } catch (error) {
      if (error instanceof FlowGraphError) return [...error.issues];
      throw error;
    }
  }
  return validateGraph(parsed, registry).issues;
}

export function validateGraph(source: Json, registry: FlowRegistry): { graph?: ResolvedGraph; issues: FlowIssue[] } {
  const issues: FlowIssue[] = [];
  const issue = (code: FlowIssueCode, node: string, socket: string, message: string): void => {
    issues.push({ code, node, socket, message });
  };

  if (!isObject(source)) {
    issue('bad-source', '', '', 'A flow graph must be an object with "flow", "kind" and "nodes".');
    return { issues };
  }
  if (source.flow !== 1) issue('bad-source', '', '', `"flow" must be 1 (the format version), got ${JSON.stringify(source.flow)}.`);
  const kind = source.kind;
  if (kind !== 'unit' && kind !== 'level') issue('bad-source', '', '', `"kind" must be "unit" or "level", got ${JSON.stringify(kind)}.`);
  if (source.name !== undefined && typeof source.name !== 'string') issue('bad-source', '', '', '"name" must be a string.');
  if (!Array.isArray(source.nodes)) {
    issue('bad-source', '', '', '"nodes" must be an array of { id, type } objects.');
    return { issues };
  }
  for (const key of Object.keys(source)) {
    if (!['flow', 'kind', 'name', 'variables', 'nodes', 'events', 'links', '$schema', EDITOR_KEY].includes(key)) {
      issue('bad-source', '', key, `Unknown top-level key "${key}": allowed are flow, kind, name, variables, nodes, events, links, editor.`);
    }
  }

  const variables: ResolvedVariable[] = [];
  const variableIndex = new Map<string, ResolvedVariable>();
  if (source.variables !== undefined) {
    if (!isObject(source.variables)) issue('bad-source', '', 'variables', '"variables" must be an object of { type, value }.');
    else {
      for (const [name, spec] of Object.entries(source.variables)) {
        if (!isObject(spec) || !FLOW_VALUE_TYPES.includes(spec.type as FlowValueType)) {
          issue('bad-source', '', name, `Variable "${name}" needs a "type", one of ${FLOW_VALUE_TYPES.join(', ')}.`);
          continue;
        }
        const type = spec.type as FlowValueType;
        const value = spec.value ?? zeroOf(type);
        const problem = constantProblem(value, type);
        if (problem) {
          issue('bad-constant', '', name, `Variable "${name}" initial value ${JSON.stringify(value)} ${problem} (type ${type}).`);
          continue;
        }
        const variable = { name, type, value: value as FlowConstant };
        variables.push(variable);
        variableIndex.set(name, variable);
      }
    }
  }

  const nodes: ResolvedNode[] = [];
  const byId = new Map<string, ResolvedNode>();
  source.nodes.forEach((raw: Json, position) => {
    if (!isObject(raw) || typeof raw.id !== 'string' || raw.id === '' || raw.id.includes('.')) {
      issue('bad-source', '', '', `Node #${position} needs an "id": a non-empty string without dots.`);
      return;
    }
    const id = raw.id;
    if (byId.has(id)) {
      issue('duplicate-node', id, '', `Two nodes have id "${id}"; give each node a unique id.`);
      return;
    }
    const def = typeof raw.type === 'string' ? registry.definition(raw.type) : undefined;
    if (!def) {
      issue('unknown-type', id, '', `Node "${id}" has unknown type ${JSON.stringify(raw.type)}: register it (registry.defineAction) or fix the name.`);
      return;
    }
    for (const key of Object.keys(raw)) {
      if (!['id', 'type', 'inputs', 'settings', EDITOR_KEY].includes(key)) issue('bad-source', id, key, `Node "${id}" has unknown key "${key}": allowed are id, type, inputs, settings, editor.`);
    }

    const settings: Record<string, boolean | string> = {};
    const rawSettings = raw.settings ?? {};
    if (!isObject(rawSettings)) issue('bad-setting', id, '', `Node "${id}": "settings" must be an object.`);
    else {
      for (const key of Object.keys(rawSettings)) {
        if (!def.settings.some((s) => s.name === key)) issue('bad-setting', id, key, `Node "${id}" (${def.name}) has no setting "${key}".`);
      }
      for (const spec of def.settings) {
        const value = rawSettings[spec.name] ?? spec.default;
        if (value === undefined) {
          issue('bad-setting', id, spec.name, `Node "${id}" (${def.name}) needs the setting "${spec.name}" (${spec.type}).`);
          continue;
        }
        if (typeof value !== (spec.type === 'bool' ? 'boolean' : 'string') || (spec.type === 'string' && value === '')) {
          issue('bad-setting', id, spec.name, `Node "${id}" setting "${spec.name}" must be a ${spec.type === 'bool' ? 'boolean' : 'non-empty string'}.`);
          continue;
        }
        if (spec.oneOf && !spec.oneOf.includes(value as string)) {
          issue('bad-setting', id, spec.name, `Node "${id}" setting "${spec.name}" is ${JSON.stringify(value)}; use one of ${spec.oneOf.join(' ')}.`);
          continue;
        }
        settings[spec.name] = value as boolean | string;
      }
    }

    let inputs = def.inputs;
    let outputs = def.outputs;
    if (def.variableTyped && typeof settings.variable === 'string') {
      const variable = variableIndex.get(settings.variable);
      if (!variable) {
        issue('unknown-variable', id, 'variable', `Node "${id}" names variable "${settings.variable}", which the graph does not declare in "variables".`);
      } else {
        const retype = (s: FlowSocketSpec): FlowSocketSpec => ({ name: s.name, type: variable.type });
        inputs = inputs.map(retype);
        outputs = outputs.map(retype);
      }
    }

    const constants: (FlowConstant | undefined)[] = inputs.map((s) => s.default ?? zeroOf(s.type));
    const explicit = new Set<number>();
    const rawInputs = raw.inputs ?? {};
    if (!isObject(rawInputs)) issue('bad-constant', id, '', `Node "${id}": "inputs" must be an object of constants.`);
    else {
      for (const [name, value] of Object.entries(rawInputs)) {
        const at = inputs.findIndex((s) => s.name === name);
        if (at < 0) {
          issue('bad-constant', id, name, `Node "${id}" (${def.name}) has no input "${name}"; its inputs are: ${inputs.map((s) => s.name).join(', ') || 'none'}.`);
          continue;
        }
        const type = inputs[at]!.type;
        const problem = constantProblem(value, type);
        if (problem) {
          issue('bad-constant', id, name, `Constant ${JSON.stringify(value)} on "${id}.${name}" ${problem} (type ${type}).`);
          continue;
        }
        constants[at] = value as FlowConstant;
        explicit.add(at);
      }
    }
    const node: ResolvedNode = {
      index: nodes.length,
      id,
      def,
      inputs,
      outputs,
      settings,
      constants,
      inputLinks: inputs.map(() => undefined),
      eventTargets: def.eventOutputs.map(() => []),
    };
    // Remembered so a link onto an explicit constant can be reported.
    explicitConstants.set(node, explicit);
    nodes.push(node);
    byId.set(id, node);
  });

  const endpoint = (text: Json, field: string, list: string, position: number): { node: ResolvedNode; socket: string } | undefined => {
    if (typeof text !== 'string' || !text.includes('.')) {
      issue('bad-source', '', '', `${list}[${position}].${field} must be "nodeId.socket", got ${JSON.stringify(text)}.`);
      return undefined;
    }
    const dot = text.indexOf('.');
    const id = text.slice(0, dot);
    const socket = text.slice(dot + 1);
    const node = byId.get(id);
    if (!node) {
      issue('dangling-link', id, socket, `Link ${list}[${position}] ${field} "${text}" names node "${id}", which does not exist.`);
      return undefined;
    }
    return { node, socket };
  };

  const linkList = (key: 'events' | 'links'): Record<string, Json>[] => {
    const value = source[key];
    if (value === undefined) return [];
    if (!Array.isArray(value) || !value.every(isObject)) {
      issue('bad-source', '', key, `"${key}" must be an array of { from, to } objects.`);
      return [];
    }
    return value;
  };

  /**
   * Reports a link end whose socket is not of the link's kind: a socket of the other kind
   * (wrong-socket-kind, with where the link belongs) or no socket at all (dangling-link).
   */
  const reportSocket = (list: 'events' | 'links', side: 'from' | 'to', end: { node: ResolvedNode; socket: string }): void => {
    const direction = side === 'from' ? 'output' : 'input';
    const events = side === 'from' ? end.node.def.eventOutputs : end.node.def.eventInputs;
    const variables = (side === 'from' ? end.node.outputs : end.node.inputs).map((s) => s.name);
    const isEvents = list === 'events';
    const [own, other] = isEvents ? [events, variables] : [variables, events];
    const onOtherKind = other.includes(end.socket);
    const label = `${isEvents ? 'Event' : 'Variable'} link ${side} "${end.node.id}.${end.socket}"`;
    issue(
      onOtherKind ? 'wrong-socket-kind' : 'dangling-link',
      end.node.id,
      end.socket,
      onOtherKind
        ? `${label}: that is ${isEvents ? 'a variable' : 'an event'} ${direction}; put the link in "${isEvents ? 'links' : 'events'}".`
        : `${label}: ${end.node.def.name} has no ${isEvents ? 'event ' : ''}${direction} "${end.socket}" (it has: ${own.join(', ') || 'none'}).`,
    );
  };

  linkList('events').forEach((link, position) => {
    const from = endpoint(link.from, 'from', 'events', position);
    const to = endpoint(link.to, 'to', 'events', position);
    if (!from || !to) return;
    const out = from.node.def.eventOutputs.indexOf(from.socket);
    const input = to.node.def.eventInputs.indexOf(to.socket);
    if (out < 0) reportSocket('events', 'from', from);
    if (input < 0) reportSocket('events', 'to', to);
    if (out >= 0 && input >= 0) from.node.eventTargets[out]!.push({ node: to.node.index, socket: input });
  });

  linkList('links').forEach((link, position) => {
    const from = endpoint(link.from, 'from', 'links', position);
    const to = endpoint(link.to, 'to', 'links', position);
    if (!from || !to) return;
    const out = from.node.outputs.findIndex((s) => s.name === from.socket);
    const input = to.node.inputs.findIndex((s) => s.name === to.socket);
    if (out < 0) reportSocket('links', 'from', from);
    if (input < 0) reportSocket('links', 'to', to);
    if (out < 0 || input < 0) return;
    const fromType = from.node.outputs[out]!.type;
    const toType = to.node.inputs[input]!.type;
    if (!assignable(fromType, toType)) {
      issue('type-mismatch', to.node.id, to.socket, `Type mismatch: "${from.node.id}.${from.socket}" is ${fromType} but "${to.node.id}.${to.socket}" takes ${toType}.`);
      return;
    }
    if (to.node.inputLinks[input]) {
      issue('duplicate-link', to.node.id, to.socket, `Input "${to.node.id}.${to.socket}" has more than one link; an input reads one output.`);
      return;
    }
    if (explicitConstants.get(to.node)?.has(input)) {
      issue('constant-and-link', to.node.id, to.socket, `Input "${to.node.id}.${to.socket}" has both a constant and a link; remove one.`);
      return;
    }
    to.node.inputLinks[input] = { node: from.node.index, socket: out };
    to.node.constants[input] = undefined;
  });

  findVariableCycle(nodes, issue);
  if (issues.length > 0) return { issues };
  return { graph: { kind: kind as FlowGraphKind, name: typeof source.name === 'string' ? source.name : '', variables, nodes }, issues };
}

/** Pure nodes evaluate their inputs on demand, so their variable links must not loop. */
function findVariableCycle(nodes: readonly ResolvedNode[], issue: (code: FlowIssueCode, node: string, socket: string, message: string) => void): void {
  const state = new Uint8Array(nodes.length); // 0 new, 1 on the path, 2 done
  const path: string[] = [];
  const visit = (node: ResolvedNode): boolean => {
    state[node.index] = 1;
    path.push(node.id);
    for (let i = 0; i < node.inputLinks.length; i++) {
      const link = node.inputLinks[i];
      if (!link) continue;
      const source = nodes[link.node]!;
      if (!isPure(source.def)) continue;
      if (state[source.index] === 1) {
        const cycle = [...path.slice(path.indexOf(source.id)), source.id].join(' -> ');
        issue('variable-cycle', node.id, node.inputs[i]!.name, `Variable cycle through input "${node.id}.${node.inputs[i]!.name}": ${cycle}; pure nodes cannot feed themselves. Break it with variable/set.`);
        return true;
      }
      if (state[source.index] === 0 && visit(source)) return true;
    }
    path.pop();
    state[node.index] = 2;
    return false;
  };
  for (const node of nodes) {
    if (isPure(node.def) && state[node.index] === 0 && visit(node)) return;
  }
}
