// The document's records: the public shapes plus the source object each came from, kept so a
// save writes keys in the file's order and keeps keys the editor does not know.
import type { JsonObject, JsonValue } from '@cuttle/tools-merge';
import type { FlowEditorComment, FlowEditorGroup, FlowEditorLink, FlowEditorNode, FlowEditorVariable } from './api.ts';

export interface NodeRecord extends FlowEditorNode {
  readonly raw: JsonObject | undefined;
}

export interface LinkRecord extends FlowEditorLink {
  readonly raw: JsonObject | undefined;
}

export interface CommentRecord extends FlowEditorComment {
  readonly raw: JsonObject | undefined;
}

export interface GroupRecord extends FlowEditorGroup {
  readonly raw: JsonObject | undefined;
}

export interface VariableRecord extends FlowEditorVariable {
  /** What the source says for this variable, whatever its shape: written back as is. */
  readonly spec: JsonValue;
}

/** The session id of a link: its kind and ends, with `#n` for a repeat of the same link. */
export function linkKey(kind: string, from: string, to: string, repeat: number): string {
  return `${kind}:${from}->${to}${repeat > 1 ? `#${repeat}` : ''}`;
}
