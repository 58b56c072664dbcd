// Saving: the records back into the source's own objects (its key order, its unknown keys, its
// junk where the editor changed nothing), then one text through tools-merge's stable SJSON
// writer in the file's layout with its comments, so a change to one node is a change to that
// node's lines and two people's saves merge with tools-merge's 3-way merge.
import { jsonEqual, sjsonStyleOf, writeJson, writeSjson, type JsonObject, type JsonValue, type SjsonComment } from '@cuttle/tools-merge';
import { copyRecord, isJsonObject, ownGet, ownSet, patchObject } from './own.ts';
import { EDITOR_KEY } from './read-source.ts';
import type { CommentRecord, GroupRecord, LinkRecord, NodeRecord, VariableRecord } from './records.ts';

export interface SourceParts {
  root: JsonObject;
  nodes: readonly NodeRecord[];
  links: readonly LinkRecord[];
  comments: readonly CommentRecord[];
  groups: readonly GroupRecord[];
  variables: readonly VariableRecord[];
}

/** A record map as written: left out when empty, unless the source had a non-object there to keep. */
function mapValue(map: Readonly<Record<string, JsonValue>>, raw: JsonObject | undefined, key: string): JsonValue | undefined {
  const had = raw === undefined ? undefined : ownGet(raw, key);
  if (Object.keys(map).length === 0) return had !== undefined && !isJsonObject(had) ? had : undefined;
  return map === had ? had : copyRecord(map);
}

export function nodeValue(node: NodeRecord): JsonObject {
  const raw = node.raw;
  const rawEditor = raw === undefined ? undefined : ownGet(raw, EDITOR_KEY);
  const editor = node.placed ? patchObject(isJsonObject(rawEditor) ? rawEditor : undefined, [['position', [node.x, node.y]]]) : rawEditor;
  const rawType = raw === undefined ? undefined : ownGet(raw, 'type');
  return patchObject(raw, [
    ['id', node.id],
    ['type', node.type === '' && typeof rawType !== 'string' ? rawType : node.type],
    ['inputs', mapValue(node.inputs, raw, 'inputs')],
    ['settings', mapValue(node.settings, raw, 'settings')],
    [EDITOR_KEY, editor],
  ]);
}

export function linkValue(link: LinkRecord): JsonObject {
  return patchObject(link.raw, [
    ['from', `${link.from.node}.${link.from.pin}`],
    ['to', `${link.to.node}.${link.to.pin}`],
  ]);
}

function rectValue(box: { x: number; y: number; width: number; height: number }): JsonValue {
  return [box.x, box.y, box.width, box.height];
}

export function commentValue(comment: CommentRecord): JsonObject {
  return patchObject(comment.raw, [
    ['id', comment.id],
    ['text', comment.text],
    ['rect', rectValue(comment)],
  ]);
}

export function groupValue(group: GroupRecord): JsonObject {
  return patchObject(group.raw, [
    ['id', group.id],
    ['title', group.title],
    ['rect', rectValue(group)],
    ['members', [...group.members]],
  ]);
}

/** A list as written: left out when empty and the source did not have it. */
function listValue(items: JsonValue[], had: JsonValue | undefined): JsonValue | undefined {
  return items.length === 0 && had === undefined ? undefined : items;
}

/** The whole graph as a JSON value, the source's root patched with the records. */
export function sourceValue(parts: SourceParts): JsonObject {
  const { root } = parts;
  const variables: JsonObject = {};
  for (const v of parts.variables) ownSet(variables, v.name, v.spec);
  const rawEditor = ownGet(root, EDITOR_KEY);
  const editorObject = isJsonObject(rawEditor) ? rawEditor : undefined;
  let editor: JsonValue | undefined = rawEditor;
  if (editorObject !== undefined || parts.comments.length > 0 || parts.groups.length > 0) {
    editor = patchObject(editorObject, [
      ['comments', listValue(parts.comments.map(commentValue), editorObject && ownGet(editorObject, 'comments'))],
      ['groups', listValue(parts.groups.map(groupValue), editorObject && ownGet(editorObject, 'groups'))],
    ]);
  }
  const rawVariables = ownGet(root, 'variables');
  return patchObject(root, [
    ['variables', parts.variables.length === 0 && rawVariables === undefined ? undefined : variables],
    ['nodes', parts.nodes.map(nodeValue)],
    ['events', listValue(parts.links.filter((l) => l.kind === 'event').map(linkValue), ownGet(root, 'events'))],
    ['links', listValue(parts.links.filter((l) => l.kind === 'data').map(linkValue), ownGet(root, 'links'))],
    [EDITOR_KEY, editor],
  ]);
}

/**
 * The text of `value`: the loaded text itself when nothing changed, else the stable writer's in
 * the loaded text's layout (indentation, inline arrays) with its comments; JSON stays JSON.
 */
export function sourceText(value: JsonObject, loaded: { text: string; format: 'json' | 'sjson'; root: JsonObject; sjsonComments: SjsonComment[] }): string {
  if (jsonEqual(value, loaded.root)) return loaded.text;
  const style = sjsonStyleOf(loaded.text);
  if (loaded.format === 'json') return writeJson(value, { indent: style.indent });
  return writeSjson(value, { ...style, comments: loaded.sjsonComments });
}
