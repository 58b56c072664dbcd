// Copy and paste as JSON text, so a selection travels through the system clipboard between
// editors and documents. Paste treats the text as hostile: everything is checked before the
// first change, and a refused paste changes nothing.
import type { JsonObject, JsonValue } from '@cuttle/tools-merge';
import type { FlowPasteOptions, FlowPoint, FlowSelection } from './api.ts';
import { checkIds, checkPoint, constantProblem, isConstant } from './constants.ts';
import type { DocumentState } from './document-state.ts';
import { FlowEditorError } from './errors.ts';
import { cleanId, freshId } from './ids.ts';
import { isValueType } from './node-pins.ts';
import { copyRecord, isJsonObject, ownGet, ownSet } from './own.ts';
import { readPoint, readRect, readVariable, splitEnd } from './read-source.ts';
import { linkKey, type CommentRecord, type GroupRecord, type LinkRecord, type NodeRecord } from './records.ts';
import type { Transaction } from './transaction.ts';

/** Marks clipboard text as ours, with its format version. */
export const CLIPBOARD_KEY = 'cuttleFlowClipboard';
const MAX_TEXT = 16 * 1024 * 1024;
const MAX_ITEMS = 20_000;
const DEFAULT_OFFSET: FlowPoint = { x: 40, y: 40 };

function object(entries: readonly (readonly [string, JsonValue | undefined])[]): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of entries) if (value !== undefined) ownSet(out, key, value);
  return out;
}

function constantsOnly(map: Readonly<Record<string, JsonValue>>): JsonObject | undefined {
  const out: JsonObject = {};
  for (const key of Object.keys(map)) if (isConstant(map[key])) ownSet(out, key, map[key]);
  return Object.keys(out).length === 0 ? undefined : out;
}

/** The selection as clipboard text: its nodes, the links between them, its comment boxes and groups, and the variables its nodes name. */
export function copySelection(state: DocumentState, selection: FlowSelection): string {
  const nodes = checkIds(selection.nodes, 'selection.nodes').map((id) => state.requireNode(id));
  const inside = new Set(nodes.map((n) => n.id));
  const links = state.links.items.filter((l) => inside.has(l.from.node) && inside.has(l.to.node));
  const comments = checkIds(selection.comments, 'selection.comments').map((id) => state.comments.get(id) ?? fail('unknown-comment', `No comment box "${id}".`));
  const groups = checkIds(selection.groups, 'selection.groups').map((id) => state.groups.get(id) ?? fail('unknown-group', `No group "${id}".`));
  const variables: JsonObject = {};
  for (const node of nodes) {
    const name = node.settings.variable;
    const variable = typeof name === 'string' ? state.variables.get(name) : undefined;
    if (variable?.type !== undefined) ownSet(variables, variable.name, object([['type', variable.type], ['value', isConstant(variable.value) ? variable.value : undefined]]));
  }
  const end = (ref: { node: string; pin: string }): string => `${ref.node}.${ref.pin}`;
  const linkList = (kind: string): JsonValue[] => links.filter((l) => l.kind === kind).map((l) => object([['from', end(l.from)], ['to', end(l.to)]]));
  return JSON.stringify(object([
    [CLIPBOARD_KEY, 1],
    ['variables', variables],
    ['nodes', nodes.map((n) => object([['id', n.id], ['type', n.type], ['inputs', constantsOnly(n.inputs)], ['settings', constantsOnly(n.settings)], ['position', [n.x, n.y]]]))],
    ['events', linkList('event')],
    ['links', linkList('data')],
    ['comments', comments.map((c) => object([['id', c.id], ['text', c.text], ['rect', [c.x, c.y, c.width, c.height]]]))],
    ['groups', groups.map((g) => object([['id', g.id], ['title', g.title], ['rect', [g.x, g.y, g.width, g.height]], ['members', g.members.filter((m) => inside.has(m))]]))],
  ]));
}

function fail(code: 'bad-clipboard' | 'unknown-comment' | 'unknown-group', message: string): never {
  throw new FlowEditorError(code, message);
}

const refuse = (why: string): never => fail('bad-clipboard', `Cannot paste: ${why}`);

function list(root: JsonObject, key: string): JsonValue[] {
  const value = ownGet(root, key) ?? [];
  if (!Array.isArray(value)) refuse(`"${key}" is not a list.`);
  if ((value as JsonValue[]).length > MAX_ITEMS) refuse(`more than ${MAX_ITEMS} ${key}.`);
  return value as JsonValue[];
}

function constants(value: JsonValue | undefined, where: string, settings: boolean): JsonObject {
  if (value === undefined) return {};
  if (!isJsonObject(value)) return refuse(`${where} is not an object.`);
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (settings ? typeof v !== 'boolean' && typeof v !== 'string' : !isConstant(v)) refuse(`${where}.${key} is ${JSON.stringify(v).slice(0, 40)}, not a ${settings ? 'setting' : 'constant'}.`);
  }
  return copyRecord(value);
}

interface ParsedClipboard {
  nodes: { id: string; type: string; position: FlowPoint; inputs: JsonObject; settings: JsonObject }[];
  links: { kind: 'event' | 'data'; from: { node: string; pin: string }; to: { node: string; pin: string } }[];
  comments: { id: string; text: string; rect: { x: number; y: number; width: number; height: number } }[];
  groups: { id: string; title: string; rect: { x: number; y: number; width: number; height: number }; members: string[] }[];
  variables: { name: string; spec: JsonObject }[];
}

/** Checks clipboard text through and through; throws 'bad-clipboard' saying what is wrong. */
export function parseClipboard(text: unknown): ParsedClipboard {
  if (typeof text !== 'string') return refuse(`the clipboard holds ${typeof text}, not text.`);
  if (text.length > MAX_TEXT) refuse(`the text is ${text.length} characters, more than ${MAX_TEXT}.`);
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    return refuse('the text is not JSON, so it is not Flow editor clipboard data.');
  }
  if (!isJsonObject(root) || ownGet(root, CLIPBOARD_KEY) !== 1) return refuse(`the text is not Flow editor clipboard data (no "${CLIPBOARD_KEY}": 1).`);
  const data = root;
  const ids = new Set<string>();
  const nodes = list(data, 'nodes').map((raw, i) => {
    const where = `nodes[${i}]`;
    if (!isJsonObject(raw)) return refuse(`${where} is not a node object.`);
    const id = ownGet(raw, 'id');
    const type = ownGet(raw, 'type');
    if (typeof id !== 'string' || id === '' || id.length > 256 || id.includes('.')) return refuse(`${where}.id must be a non-empty string without dots.`);
    if (ids.has(id)) refuse(`two nodes have id "${id}".`);
    ids.add(id);
    if (typeof type !== 'string' || type.length > 256) return refuse(`${where}.type must be a node type name.`);
    const position = readPoint(ownGet(raw, 'position')) ?? refuse(`${where}.position must be [x, y] with finite numbers.`);
    return { id, type, position, inputs: constants(ownGet(raw, 'inputs'), `${where}.inputs`, false), settings: constants(ownGet(raw, 'settings'), `${where}.settings`, true) };
  });
  const links: ParsedClipboard['links'] = [];
  for (const key of ['events', 'links'] as const) {
    list(data, key).forEach((raw, i) => {
      const where = `${key}[${i}]`;
      if (!isJsonObject(raw)) return refuse(`${where} is not a { from, to } object.`);
      const [from, to] = (['from', 'to'] as const).map((side) => {
        const end = ownGet(raw, side);
        const split = typeof end === 'string' ? splitEnd(end) : undefined;
        if (split === undefined) return refuse(`${where}.${side} must be "nodeId.pin".`);
        if (!ids.has(split.node)) return refuse(`${where}.${side} names node "${split.node}", which is not on the clipboard.`);
        return split;
      }) as [{ node: string; pin: string }, { node: string; pin: string }];
      links.push({ kind: key === 'events' ? 'event' : 'data', from, to });
    });
  }
  const boxIds = new Set<string>();
  const box = (raw: JsonValue, where: string): { id: string; rect: { x: number; y: number; width: number; height: number }; raw: JsonObject } => {
    if (!isJsonObject(raw)) return refuse(`${where} is not an object.`);
    const id = ownGet(raw, 'id');
    if (typeof id !== 'string' || id === '' || id.length > 256) return refuse(`${where}.id must be a non-empty string.`);
    if (boxIds.has(id)) refuse(`two comment boxes or groups have id "${id}".`);
    boxIds.add(id);
    const rect = readRect(ownGet(raw, 'rect')) ?? refuse(`${where}.rect must be [x, y, width, height] with finite numbers and a size of 0 or more.`);
    return { id, rect, raw };
  };
  const comments = list(data, 'comments').map((raw, i) => {
    const { id, rect, raw: o } = box(raw, `comments[${i}]`);
    const text = ownGet(o, 'text');
    if (typeof text !== 'string') return refuse(`comments[${i}].text must be a string.`);
    return { id, text, rect };
  });
  const groups = list(data, 'groups').map((raw, i) => {
    const { id, rect, raw: o } = box(raw, `groups[${i}]`);
    const title = ownGet(o, 'title');
    const members = ownGet(o, 'members') ?? [];
    if (typeof title !== 'string') return refuse(`groups[${i}].title must be a string.`);
    if (!Array.isArray(members) || !members.every((m): m is string => typeof m === 'string' && ids.has(m))) return refuse(`groups[${i}].members must name nodes on the clipboard.`);
    return { id, title, rect, members: [...new Set(members)] };
  });
  const rawVariables = ownGet(data, 'variables') ?? {};
  if (!isJsonObject(rawVariables)) return refuse('"variables" is not an object.');
  const variables = Object.keys(rawVariables).map((name) => {
    const spec = rawVariables[name]!;
    const type = isJsonObject(spec) ? ownGet(spec, 'type') : undefined;
    const value = isJsonObject(spec) ? ownGet(spec, 'value') : undefined;
    if (name === '' || !isValueType(type)) return refuse(`variable "${name}" needs a type, one of float, int, bool, unit, string.`);
    if (value !== undefined && constantProblem(value, type) !== undefined) refuse(`variable "${name}" has initial value ${JSON.stringify(value).slice(0, 40)}, not a ${type}.`);
    return { name, spec: copyRecord(spec as JsonObject) };
  });
  return { nodes, links, comments, groups, variables };
}

/** Pastes clipboard text: fresh ids, links between pasted nodes kept, positions offset. Returns the new selection. */
export function paste(state: DocumentState, tx: Transaction, text: unknown, options: FlowPasteOptions = {}): Required<FlowSelection> {
  const data = parseClipboard(text);
  let offset = options.offset === undefined ? DEFAULT_OFFSET : checkPoint(options.offset, 'The paste offset');
  if (options.at !== undefined) {
    const at = checkPoint(options.at, 'The paste position');
    const xs = [...data.nodes.map((n) => n.position.x), ...data.comments.map((c) => c.rect.x), ...data.groups.map((g) => g.rect.x)];
    const ys = [...data.nodes.map((n) => n.position.y), ...data.comments.map((c) => c.rect.y), ...data.groups.map((g) => g.rect.y)];
    offset = xs.length === 0 ? { x: 0, y: 0 } : { x: at.x - xs.reduce((a, b) => Math.min(a, b)), y: at.y - ys.reduce((a, b) => Math.min(a, b)) };
  }
  for (const { name, spec } of data.variables) if (!state.variables.has(name)) state.setVariable(tx, readVariable(name, spec), name);
  const nodeIds = new Map<string, string>();
  for (const n of data.nodes) {
    const id = freshId(cleanId(n.id, 'node'), (c) => state.nodes.has(c));
    nodeIds.set(n.id, id);
    const x = n.position.x + offset.x;
    const y = n.position.y + offset.y;
    // Thrown mid-paste, this rolls the transaction back like any other refusal.
    if (!Number.isFinite(x) || !Number.isFinite(y)) refuse(`node "${n.id}" would land at a position that is not finite.`);
    const node: NodeRecord = { id, type: n.type, x, y, placed: true, inputs: n.inputs, settings: n.settings, raw: undefined };
    state.insertNode(tx, state.nodes.size, node);
  }
  for (const l of data.links) {
    const from = { node: nodeIds.get(l.from.node)!, pin: l.from.pin };
    const to = { node: nodeIds.get(l.to.node)!, pin: l.to.pin };
    const fromText = `${from.node}.${from.pin}`;
    const toText = `${to.node}.${to.pin}`;
    let repeat = 1;
    while (state.links.has(linkKey(l.kind, fromText, toText, repeat))) repeat++;
    const link: LinkRecord = { id: linkKey(l.kind, fromText, toText, repeat), kind: l.kind, from, to, raw: undefined };
    state.insertLink(tx, link);
  }
  const comments = data.comments.map((c) => {
    const comment: CommentRecord = { id: freshId(cleanId(c.id, 'comment'), (x) => state.boxIdTaken(x)), text: c.text, x: c.rect.x + offset.x, y: c.rect.y + offset.y, width: c.rect.width, height: c.rect.height, raw: undefined };
    state.insertComment(tx, comment);
    return comment.id;
  });
  const groups = data.groups.map((g) => {
    const group: GroupRecord = { id: freshId(cleanId(g.id, 'group'), (x) => state.boxIdTaken(x)), title: g.title, x: g.rect.x + offset.x, y: g.rect.y + offset.y, width: g.rect.width, height: g.rect.height, members: g.members.map((m) => nodeIds.get(m)!), raw: undefined };
    state.insertGroup(tx, group);
    return group.id;
  });
  return { nodes: [...nodeIds.values()], comments, groups };
}
