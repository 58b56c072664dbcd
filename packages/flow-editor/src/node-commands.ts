// Commands on nodes: add from the palette, remove (with their links and group memberships), move
// a selection, set an inline input constant or a setting. Each runs inside a transaction.
import type { FlowConstant } from '@cuttle/flow';
import type { JsonValue } from '@cuttle/tools-merge';
import type { FlowEditorNode, FlowPoint, FlowSelection } from './api.ts';
import { checkIds, checkPoint, constantProblem, settingProblem } from './constants.ts';
import type { DocumentState } from './document-state.ts';
import { FlowEditorError } from './errors.ts';
import { freshId, idForType } from './ids.ts';
import { copyRecord, ownSet, withoutKey } from './own.ts';
import type { NodeRecord } from './records.ts';
import type { Transaction } from './transaction.ts';

/** Options of {@link FlowDocument.addNode}. */
export interface AddNodeOptions {
  /** The new node's id; by default the type's last part (`add`, then `add_2`, ...). */
  id?: string;
  /** Constants for the new node's data inputs, by pin name (checked against the pins' types). */
  inputs?: Readonly<Record<string, FlowConstant>>;
  /** Settings for the new node, by name (only those its type declares). */
  settings?: Readonly<Record<string, FlowConstant>>;
}

/** Checks an id a caller chose for a new node. */
export function checkNewNodeId(state: DocumentState, id: unknown): string {
  if (typeof id !== 'string' || id === '' || id.includes('.')) throw new FlowEditorError('bad-id', `A node id must be a non-empty string without dots, got ${JSON.stringify(id)}.`);
  if (state.nodes.has(id)) throw new FlowEditorError('duplicate-id', `A node "${id}" is already in the graph; pick another id or leave it out for a fresh one.`);
  return id;
}

export function addNode(state: DocumentState, tx: Transaction, type: unknown, at: FlowPoint, options: AddNodeOptions = {}): NodeRecord {
  if (typeof type !== 'string' || !state.registry.has(type)) throw new FlowEditorError('unknown-type', `Node type ${JSON.stringify(type)} is not in the registry; pick one from the palette.`);
  const { x, y } = checkPoint(at, 'The position of a new node');
  const id = options.id === undefined ? freshId(idForType(type), (c) => state.nodes.has(c)) : checkNewNodeId(state, options.id);
  const node: NodeRecord = { id, type, x, y, placed: true, inputs: {}, settings: {}, raw: undefined };
  state.insertNode(tx, state.nodes.size, node);
  for (const [name, value] of Object.entries(options.settings ?? {})) setSetting(state, tx, id, name, value);
  for (const [name, value] of Object.entries(options.inputs ?? {})) setInput(state, tx, id, name, value);
  return state.nodes.get(id)!;
}

/** Removes nodes, every link touching them, and their memberships in groups. */
export function removeNodes(state: DocumentState, tx: Transaction, ids: readonly string[]): void {
  const gone = new Set(ids);
  for (const id of gone) state.requireNode(id);
  const links = new Set<string>();
  for (const id of gone) for (const link of state.linksOf(id)) links.add(link.id);
  for (const id of links) state.removeLink(tx, id);
  for (const group of state.groups.items.slice()) {
    if (group.members.some((m) => gone.has(m))) state.replaceGroup(tx, { ...group, members: group.members.filter((m) => !gone.has(m)) });
  }
  for (const id of gone) state.removeNode(tx, id);
}

/** Moves nodes, comment boxes and groups by (dx, dy). A moved node counts as placed. */
export function moveSelection(state: DocumentState, tx: Transaction, selection: FlowSelection, dx: number, dy: number): void {
  if (!Number.isFinite(dx) || !Number.isFinite(dy)) throw new FlowEditorError('bad-argument', `A move needs finite dx and dy, got ${dx}, ${dy}.`);
  const nodes = checkIds(selection.nodes, 'selection.nodes').map((id) => state.requireNode(id));
  const comments = checkIds(selection.comments, 'selection.comments').map((id) => {
    const c = state.comments.get(id);
    if (c === undefined) throw new FlowEditorError('unknown-comment', `No comment box "${id}".`);
    return c;
  });
  const groups = checkIds(selection.groups, 'selection.groups').map((id) => {
    const g = state.groups.get(id);
    if (g === undefined) throw new FlowEditorError('unknown-group', `No group "${id}".`);
    return g;
  });
  for (const node of nodes) state.replaceNode(tx, { ...node, x: node.x + dx, y: node.y + dy, placed: true }, false);
  for (const c of comments) state.replaceComment(tx, { ...c, x: c.x + dx, y: c.y + dy });
  for (const g of groups) state.replaceGroup(tx, { ...g, x: g.x + dx, y: g.y + dy });
}

/** The node's inputs or settings with `name` set to `value` (or removed when undefined), in their order. */
function withEntry(map: Readonly<Record<string, JsonValue>>, name: string, value: JsonValue | undefined): Readonly<Record<string, JsonValue>> {
  if (value === undefined) return withoutKey(map, name);
  const next = copyRecord(map);
  ownSet(next, name, value);
  return next;
}

/** Sets (or with undefined, removes) the inline constant of a data input. A linked input is refused: disconnect it first. */
export function setInput(state: DocumentState, tx: Transaction, nodeId: string, pinName: string, value: FlowConstant | undefined): FlowEditorNode {
  const node = state.requireNode(nodeId);
  const pin = state.requirePin({ node: nodeId, pin: pinName, kind: 'data' }, 'input');
  if (value === undefined) {
    if (!Object.hasOwn(node.inputs, pinName)) return node;
  } else {
    const problem = constantProblem(value, pin.valueType);
    if (problem !== undefined) throw new FlowEditorError('bad-value', `Constant ${JSON.stringify(value)} on "${nodeId}.${pinName}" ${problem} (type ${pin.valueType ?? 'unknown'}).`);
    if (state.linkInto(nodeId, pinName) !== undefined) throw new FlowEditorError('input-linked', `Input "${nodeId}.${pinName}" is linked; disconnect it before giving it a constant.`);
  }
  const next: NodeRecord = { ...node, inputs: withEntry(node.inputs, pinName, value) };
  state.replaceNode(tx, next, true);
  return next;
}

/** Sets (or with undefined, removes) a setting the node's type declares. */
export function setSetting(state: DocumentState, tx: Transaction, nodeId: string, name: string, value: FlowConstant | undefined): FlowEditorNode {
  const node = state.requireNode(nodeId);
  const info = state.registry.get(node.type);
  if (info === undefined) throw new FlowEditorError('unknown-type', `Node "${nodeId}" has type ${JSON.stringify(node.type)}, which the registry does not know; its settings cannot be checked.`);
  const spec = info.settings.find((s) => s.name === name);
  if (spec === undefined) throw new FlowEditorError('unknown-setting', `Node "${nodeId}" (${node.type}) has no setting "${name}"; its settings are: ${info.settings.map((s) => s.name).join(', ') || 'none'}.`);
  if (value === undefined) {
    if (!Object.hasOwn(node.settings, name)) return node;
  } else {
    const problem = settingProblem(value, spec);
    if (problem !== undefined) throw new FlowEditorError('bad-value', `Setting "${name}" of "${nodeId}" ${problem}, got ${JSON.stringify(value)}.`);
  }
  const next: NodeRecord = { ...node, settings: withEntry(node.settings, name, value) };
  state.replaceNode(tx, next, true);
  return next;
}
