// Public types of @cuttle/flow-editor: what a view reads from a FlowDocument (nodes, pins, links,
// comment boxes, groups, variables, issues) and what it hands to the document's commands.
import type { FlowConstant, FlowGraphKind, FlowIssue, FlowValueType } from '@cuttle/flow';
import type { JsonValue } from '@cuttle/tools-merge';

/** A point in graph space (the units node positions are saved in). */
export interface FlowPoint {
  /** Horizontal position in graph units, growing right. */
  x: number;
  /** Vertical position in graph units, growing down. */
  y: number;
}

/** An axis-aligned rectangle in graph space: top-left corner and size. */
export interface FlowRect {
  /** Left edge in graph units. */
  x: number;
  /** Top edge in graph units. */
  y: number;
  /** Width in graph units. */
  width: number;
  /** Height in graph units. */
  height: number;
}

/** Event pins carry the post's black links (what runs next), data pins its blue ones (values). */
export type FlowPinKind = 'event' | 'data';
/** Whether a pin takes links in (`'input'`) or sends them out (`'output'`). */
export type FlowPinDirection = 'input' | 'output';

/** A pin of a node, as a view draws it. */
export interface FlowPin {
  /** Id of the node the pin belongs to. */
  readonly node: string;
  /** The pin's name, as the node type declares it. */
  readonly name: string;
  /** Input or output. */
  readonly direction: FlowPinDirection;
  /** Event or data. */
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
  /** Input pins, events first. */
  readonly inputs: readonly FlowPin[];
  /** Output pins, events first. */
  readonly outputs: readonly FlowPin[];
}

/** Names a pin: the node id and the pin name; `kind` only where a node has an event and a data pin of one name. */
export interface FlowPinRef {
  /** Id of the node. */
  node: string;
  /** Name of the pin on that node. */
  pin: string;
  /** Which pin is meant when the node has an event and a data pin of this name; otherwise optional. */
  kind?: FlowPinKind;
}

/** A node of the document. Records are replaced, never changed in place: compare by identity to see what changed. */
export interface FlowEditorNode {
  /** The node's id, unique in the graph (the key links name it by). */
  readonly id: string;
  /** The node type's name in the registry (e.g. `'math/add'`); unknown types are kept and reported by the validator. */
  readonly type: string;
  /** Left edge in graph units. */
  readonly x: number;
  /** Top edge in graph units. */
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
  /** Session-stable id derived from the link's two ends. */
  readonly id: string;
  /** Event link (what runs next) or data link (a value). */
  readonly kind: FlowPinKind;
  /** The output pin the link starts at. */
  readonly from: Readonly<FlowPinRef>;
  /** The input pin the link ends at. */
  readonly to: Readonly<FlowPinRef>;
}

/** A comment box: text in a rectangle behind the nodes. */
export interface FlowEditorComment extends Readonly<FlowRect> {
  /** The comment box's id, unique among comment boxes. */
  readonly id: string;
  /** The comment's text (plain, may hold line breaks). */
  readonly text: string;
}

/** A group: a titled rectangle that names its member nodes. */
export interface FlowEditorGroup extends Readonly<FlowRect> {
  /** The group's id, unique among groups. */
  readonly id: string;
  /** The group's title, shown on its header. */
  readonly title: string;
  /** Ids of the nodes in the group. */
  readonly members: readonly string[];
}

/** A graph variable. `type` is undefined when the source's is not a value type (the validator says so). */
export interface FlowEditorVariable {
  /** The variable's name, unique in the graph. */
  readonly name: string;
  /** Value type, or undefined when the source's type is not a value type. */
  readonly type: FlowValueType | undefined;
  /** Initial value as written in the source, or undefined when it has none. */
  readonly value: JsonValue | undefined;
}

/** What a command works on: ids of nodes, comment boxes and groups. */
export interface FlowSelection {
  /** Node ids. */
  nodes?: readonly string[];
  /** Comment box ids. */
  comments?: readonly string[];
  /** Group ids. */
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
  /** What changed the document: a command, an undo or a redo. */
  readonly cause: 'edit' | 'undo' | 'redo';
  /** The command's label ('move', 'connect', ...). */
  readonly label: string;
  /** False when only positions, comment boxes or groups changed: the graph (and its issues) did not. */
  readonly graphChanged: boolean;
}

/** Options of a {@link FlowDocument}. */
export interface FlowDocumentOptions {
  /** Most undo steps kept; the oldest are dropped beyond it. Default 200. */
  historyLimit?: number;
}

/** Header of the graph, read-only in the editor. */
export interface FlowGraphHeader {
  /** The graph's kind from the source header, or undefined when it has none (or one the validator rejects). */
  readonly kind: FlowGraphKind | undefined;
  /** The graph's name from the source header, or undefined when it has none. */
  readonly name: string | undefined;
}

/** Options of paste. */
export interface FlowPasteOptions {
  /** Added to every pasted position. Default `{ x: 40, y: 40 }`; ignored when `at` is given. */
  offset?: FlowPoint;
  /** Puts the top-left corner of what is pasted here. */
  at?: FlowPoint;
}

/** New values of a comment box; what is left out stays. */
export interface FlowCommentEdit {
  /** New text of the comment box. */
  text?: string;
  /** New position and size of the comment box. */
  rect?: FlowRect;
}

/** New values of a group; what is left out stays. */
export interface FlowGroupEdit {
  /** New title of the group. */
  title?: string;
  /** New position and size of the group. */
  rect?: FlowRect;
  /** New member node ids of the group (replaces the old list). */
  members?: readonly string[];
}
