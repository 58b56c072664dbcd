// Public types of @cuttle/flow-editor: what a view reads from a FlowDocument (nodes, pins, links,
// comment boxes, groups, variables, issues) and what it hands to the document's commands.
import type { FlowConstant, FlowGraphKind, FlowIssue, FlowValueType } from '@cuttle/flow';
import type { JsonValue } from '@cuttle/tools-merge';

/** A point in graph space (the units node positions are saved in). */
export interface FlowPoint {
  x: number;
  y: number;
}

/** An axis-aligned rectangle in graph space: top-left corner and size. */
export interface FlowRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Event pins carry the post's black links (what runs next), data pins its blue ones (values). */
export type FlowPinKind = 'event' | 'data';
export type FlowPinDirection = 'input' | 'output';

/** A pin of a node, as a view draws it. */
export interface FlowPin {
  readonly node: string;
  readonly name: string;
  readonly direction: FlowPinDirection;
  readonly kind: FlowPinKind;
  /** Value type of a data pin (variable/get and variable/set take their variable's); undefined for event pins and unknown pins. */
  readonly valueType: FlowValueType | undefined;
  /** CSS colour for the pin and its links: white for events, one colour per value type, grey for unknown pins. */
  readonly colour: string;
  /** What an unlinked data input without a constant reads (the node type's default, or the type's zero). */
  readonly defaultValue: FlowConstant | undefined;
  /** False on a node whose type the registry does not know: the pin exists only because a link or a constant names it. */
  readonly known: boolean;
}

/** A node's pins in drawing order: event pins first, then data pins, as the node type declares them. */
export interface FlowNodePins {
  readonly inputs: readonly FlowPin[];
  readonly outputs: readonly FlowPin[];
}

/** Names a pin: the node id and the pin name; `kind` only where a node has an event and a data pin of one name. */
export interface FlowPinRef {
  node: string;
  pin: string;
  kind?: FlowPinKind;
}

/** A node of the document. Records are replaced, never changed in place: compare by identity to see what changed. */
export interface FlowEditorNode {
  readonly id: string;
  readonly type: string;
  readonly x: number;
  readonly y: number;
  /** False when the source gave no position: the editor laid the node out, and saving leaves it without one until it is moved. */
  readonly placed: boolean;
  /** Constants on data inputs, as written in the source (the validator reports values that are not constants). */
  readonly inputs: Readonly<Record<string, JsonValue>>;
  /** Settings (variable, op, name, ...), as written in the source. */
  readonly settings: Readonly<Record<string, JsonValue>>;
}

/** A link from an output pin to an input pin. `id` is stable for the session (derived from its ends), not saved. */
export interface FlowEditorLink {
  readonly id: string;
  readonly kind: FlowPinKind;
  readonly from: Readonly<FlowPinRef>;
  readonly to: Readonly<FlowPinRef>;
}

/** A comment box: text in a rectangle behind the nodes. */
export interface FlowEditorComment extends Readonly<FlowRect> {
  readonly id: string;
  readonly text: string;
}

/** A group: a titled rectangle that names its member nodes. */
export interface FlowEditorGroup extends Readonly<FlowRect> {
  readonly id: string;
  readonly title: string;
  readonly members: readonly string[];
}

/** A graph variable. `type` is undefined when the source's is not a value type (the validator says so). */
export interface FlowEditorVariable {
  readonly name: string;
  readonly type: FlowValueType | undefined;
  readonly value: JsonValue | undefined;
}

/** What a command works on: ids of nodes, comment boxes and groups. */
export interface FlowSelection {
  nodes?: readonly string[];
  comments?: readonly string[];
  groups?: readonly string[];
}

/** The validator's verdict on the current graph, grouped for views. */
export interface FlowValidation {
  /** Every issue, in the validator's order (plus what the editor noticed while opening the source). */
  readonly issues: readonly FlowIssue[];
  /** Issues about nodes of the document, by node id. */
  readonly byNode: ReadonlyMap<string, readonly FlowIssue[]>;
  /** Issues about no node of the document: the header, variables, links naming missing nodes. */
  readonly graph: readonly FlowIssue[];
  /** True when the graph compiles. */
  readonly ok: boolean;
}

/** Told to onChange listeners after every command, undo and redo. */
export interface FlowDocumentChange {
  readonly cause: 'edit' | 'undo' | 'redo';
  /** The command's label ('move', 'connect', ...). */
  readonly label: string;
  /** False when only positions, comment boxes or groups changed: the graph (and its issues) did not. */
  readonly graphChanged: boolean;
}

export interface FlowDocumentOptions {
  /** Most undo steps kept; the oldest are dropped beyond it. Default 200. */
  historyLimit?: number;
}

/** Header of the graph, read-only in the editor. */
export interface FlowGraphHeader {
  readonly kind: FlowGraphKind | undefined;
  readonly name: string | undefined;
}

/** Options of paste. */
export interface FlowPasteOptions {
  /** Added to every pasted position. Default { x: 40, y: 40 }; ignored when `at` is given. */
  offset?: FlowPoint;
  /** Puts the top-left corner of what is pasted here. */
  at?: FlowPoint;
}

/** New values of a comment box; what is left out stays. */
export interface FlowCommentEdit {
  text?: string;
  rect?: FlowRect;
}

/** New values of a group; what is left out stays. */
export interface FlowGroupEdit {
  title?: string;
  rect?: FlowRect;
  members?: readonly string[];
}
