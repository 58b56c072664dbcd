// Opening a graph: JSON or SJSON text (comments kept) → the document's records. The graph itself
// is taken as written, errors and all (the validator reports them on the nodes); only what the
// editor cannot represent is refused: text that does not parse, a root that is not an object,
// lists that are not lists of objects. Ids the editor needs unique are made so, and said.
import type { FlowIssue } from '@cuttle/flow';
import { parseSjsonDocument, SjsonParseError, type JsonObject, type JsonValue, type SjsonComment } from '@cuttle/tools-merge';
import { layoutUnplaced } from './auto-layout.ts';
import { FlowEditorError } from './errors.ts';
import { cleanId, freshId } from './ids.ts';
import { isValueType } from './node-pins.ts';
import { isJsonObject, ownGet } from './own.ts';
import { linkKey, type CommentRecord, type GroupRecord, type LinkRecord, type NodeRecord, type VariableRecord } from './records.ts';

/** Key of the editor's own data, at the top level and on each node; `@cuttle/flow` ignores it. */
export const EDITOR_KEY = 'editor';

export interface LoadedSource {
  text: string;
  format: 'json' | 'sjson';
  root: JsonObject;
  sjsonComments: SjsonComment[];
  nodes: NodeRecord[];
  links: LinkRecord[];
  comments: CommentRecord[];
  groups: GroupRecord[];
  variables: VariableRecord[];
  warnings: FlowIssue[];
}

const isFiniteNumber = (v: JsonValue | undefined): v is number => typeof v === 'number' && Number.isFinite(v);

/** `[x, y]` of finite numbers, or undefined. */
export function readPoint(value: JsonValue | undefined): { x: number; y: number } | undefined {
  if (!Array.isArray(value) || value.length !== 2 || !isFiniteNumber(value[0]) || !isFiniteNumber(value[1])) return undefined;
  return { x: value[0], y: value[1] };
}

/** `[x, y, width, height]` of finite numbers with a size of zero or more, or undefined. */
export function readRect(value: JsonValue | undefined): { x: number; y: number; width: number; height: number } | undefined {
  if (!Array.isArray(value) || value.length !== 4 || !value.every(isFiniteNumber)) return undefined;
  const [x, y, width, height] = value;
  if (width! < 0 || height! < 0) return undefined;
  return { x: x!, y: y!, width: width!, height: height! };
}

/** The JSON text of a source that is plain JSON; SJSON (and JSON with comments) is not. */
function isPlainJson(text: string): boolean {
  if (!/^\s*\{/.test(text)) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export function readRecordMap(value: JsonValue | undefined): Readonly<Record<string, JsonValue>> {
  return isJsonObject(value) ? value : {};
}

function readNodes(root: JsonObject, warnings: FlowIssue[]): NodeRecord[] {
  const list = ownGet(root, 'nodes');
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw new FlowEditorError('bad-source', `"nodes" must be an array of { id, type } objects, got ${JSON.stringify(list).slice(0, 40)}.`);
  const taken = new Set<string>();
  const records: NodeRecord[] = [];
  list.forEach((raw, index) => {
    if (!isJsonObject(raw)) throw new FlowEditorError('bad-source', `nodes[${index}] is ${JSON.stringify(raw).slice(0, 40)}, not a node object; the editor cannot show it.`);
    const given = ownGet(raw, 'id');
    let id = typeof given === 'string' ? given : '';
    if (id === '' || id.includes('.')) {
      id = freshId(cleanId(id, 'node'), (c) => taken.has(c));
      warnings.push({ code: 'bad-source', node: id, socket: '', message: `Node #${index} had no valid id (${JSON.stringify(given)}); the editor calls it "${id}" and saves it so.` });
    } else if (taken.has(id)) {
      const renamed = freshId(id, (c) => taken.has(c) || list.some((n) => isJsonObject(n) && n.id === c));
      warnings.push({ code: 'duplicate-node', node: renamed, socket: '', message: `Two nodes had id "${id}"; the second is "${renamed}" in the editor (links naming "${id}" go to the first) and is saved so.` });
      id = renamed;
    }
    taken.add(id);
    const type = ownGet(raw, 'type');
    const editor = ownGet(raw, EDITOR_KEY);
    const position = isJsonObject(editor) ? readPoint(ownGet(editor, 'position')) : undefined;
    records.push({
      id,
      type: typeof type === 'string' ? type : '',
      x: position?.x ?? 0,
      y: position?.y ?? 0,
      placed: position !== undefined,
      inputs: readRecordMap(ownGet(raw, 'inputs')),
      settings: readRecordMap(ownGet(raw, 'settings')),
      raw,
    });
  });
  return records;
}

/** Splits "node.pin" at its first dot, as the compiler does. */
export function splitEnd(text: string): { node: string; pin: string } | undefined {
  const dot = text.indexOf('.');
  if (dot <= 0 || dot === text.length - 1) return undefined;
  return { node: text.slice(0, dot), pin: text.slice(dot + 1) };
}

function readLinks(root: JsonObject, key: 'events' | 'links', out: LinkRecord[], seen: Map<string, number>): void {
  const list = ownGet(root, key);
  if (list === undefined) return;
  if (!Array.isArray(list)) throw new FlowEditorError('bad-source', `"${key}" must be an array of { from, to } objects.`);
  const kind = key === 'events' ? 'event' : 'data';
  list.forEach((raw, position) => {
    if (!isJsonObject(raw)) throw new FlowEditorError('bad-source', `${key}[${position}] must be a { from, to } object.`);
    const ends = (['from', 'to'] as const).map((side) => {
      const text = ownGet(raw, side);
      const end = typeof text === 'string' ? splitEnd(text) : undefined;
      if (end === undefined) throw new FlowEditorError('bad-source', `${key}[${position}].${side} must be "nodeId.pin", got ${JSON.stringify(text)}.`);
      return end;
    });
    const [from, to] = ends as [{ node: string; pin: string }, { node: string; pin: string }];
    const plain = linkKey(kind, `${from.node}.${from.pin}`, `${to.node}.${to.pin}`, 1);
    const repeat = (seen.get(plain) ?? 0) + 1;
    seen.set(plain, repeat);
    out.push({ id: linkKey(kind, `${from.node}.${from.pin}`, `${to.node}.${to.pin}`, repeat), kind, from, to, raw });
  });
}

function readBoxes(editor: JsonObject | undefined): { comments: CommentRecord[]; groups: GroupRecord[] } {
  const comments: CommentRecord[] = [];
  const groups: GroupRecord[] = [];
  if (editor === undefined) return { comments, groups };
  const ids = new Set<string>();
  for (const key of ['comments', 'groups'] as const) {
    const list = ownGet(editor, key);
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw new FlowEditorError('bad-source', `editor.${key} must be an array.`);
    list.forEach((raw, position) => {
      const where = `editor.${key}[${position}]`;
      if (!isJsonObject(raw)) throw new FlowEditorError('bad-source', `${where} must be an object.`);
      const id = ownGet(raw, 'id');
      if (typeof id !== 'string' || id === '') throw new FlowEditorError('bad-source', `${where}.id must be a non-empty string.`);
      if (ids.has(id)) throw new FlowEditorError('bad-source', `${where}: id "${id}" is used twice in editor.comments and editor.groups.`);
      ids.add(id);
      const rect = readRect(ownGet(raw, 'rect'));
      if (rect === undefined) throw new FlowEditorError('bad-source', `${where}.rect must be [x y width height] (finite numbers, size 0 or more).`);
      if (key === 'comments') {
        const text = ownGet(raw, 'text') ?? '';
        if (typeof text !== 'string') throw new FlowEditorError('bad-source', `${where}.text must be a string.`);
        comments.push({ id, text, ...rect, raw });
      } else {
        const title = ownGet(raw, 'title') ?? '';
        const members = ownGet(raw, 'members') ?? [];
        if (typeof title !== 'string') throw new FlowEditorError('bad-source', `${where}.title must be a string.`);
        if (!Array.isArray(members) || !members.every((m): m is string => typeof m === 'string')) throw new FlowEditorError('bad-source', `${where}.members must be an array of node ids.`);
        groups.push({ id, title, ...rect, members: [...new Set(members)], raw });
      }
    });
  }
  return { comments, groups };
}

export function readVariable(name: string, spec: JsonValue): VariableRecord {
  const type = isJsonObject(spec) ? ownGet(spec, 'type') : undefined;
  return { name, type: isValueType(type) ? type : undefined, value: isJsonObject(spec) ? ownGet(spec, 'value') : undefined, spec };
}

function readVariables(root: JsonObject): VariableRecord[] {
  const variables = ownGet(root, 'variables');
  if (variables === undefined) return [];
  if (!isJsonObject(variables)) throw new FlowEditorError('bad-source', '"variables" must be an object of { type, value }.');
  return Object.keys(variables).map((name) => readVariable(name, variables[name]!));
}

export function readSource(text: string): LoadedSource {
  if (typeof text !== 'string') throw new FlowEditorError('bad-argument', `fromSource takes the source text, got ${typeof text}.`);
  let value: JsonValue;
  let sjsonComments: SjsonComment[];
  try {
    ({ value, comments: sjsonComments } = parseSjsonDocument(text));
  } catch (error) {
    if (error instanceof SjsonParseError) throw new FlowEditorError('parse', `The flow source does not parse: ${error.message}`);
    throw error;
  }
  if (!isJsonObject(value)) throw new FlowEditorError('bad-source', 'A flow graph source must be an object with "flow", "kind" and "nodes".');
  const warnings: FlowIssue[] = [];
  const nodes = readNodes(value, warnings);
  const links: LinkRecord[] = [];
  const seen = new Map<string, number>();
  readLinks(value, 'events', links, seen);
  readLinks(value, 'links', links, seen);
  const editor = ownGet(value, EDITOR_KEY);
  const { comments, groups } = readBoxes(isJsonObject(editor) ? editor : undefined);
  return {
    text,
    format: isPlainJson(text) ? 'json' : 'sjson',
    root: value,
    sjsonComments,
    nodes: layoutUnplaced(nodes, links),
    links,
    comments,
    groups,
    variables: readVariables(value),
    warnings,
  };
}
