// A Flow graph open in an editor: the records views draw, the commands users run (each one
// undoable, each leaving the document as it was when it throws), the validator's issues by node
// after every change, and the save that writes the source back with the fewest changed lines.
import type { FlowConstant, FlowIssue, FlowRegistry, FlowValueType } from '@cuttle/flow';
import type { JsonObject } from '@cuttle/tools-merge';
import type {
  FlowCommentEdit,
  FlowDocumentChange,
  FlowDocumentOptions,
  FlowEditorComment,
  FlowEditorGroup,
  FlowEditorLink,
  FlowEditorNode,
  FlowEditorVariable,
  FlowGraphHeader,
  FlowGroupEdit,
  FlowNodePins,
  FlowPasteOptions,
  FlowPin,
  FlowPinDirection,
  FlowPinRef,
  FlowPoint,
  FlowRect,
  FlowSelection,
  FlowValidation,
} from './api.ts';
import { addComment, addGroup, editComment, editGroup, removeComments, removeGroups, setVariable } from './annotation-commands.ts';
import { copySelection, paste } from './clipboard.ts';
import { checkIds } from './constants.ts';
import { DocumentState } from './document-state.ts';
import { FlowEditorError } from './errors.ts';
import { EditHistory } from './history.ts';
import { checkConnection, connect, disconnect, type FlowConnection } from './link-commands.ts';
import { addNode, moveSelection, removeNodes, setInput, setSetting, type AddNodeOptions } from './node-commands.ts';
import { ownGet } from './own.ts';
import type { FlowPaletteEntry } from './palette.ts';
import { readSource, type LoadedSource } from './read-source.ts';
import { Transaction } from './transaction.ts';
import { issuesIn, validateSource } from './validation.ts';
import { sourceText, sourceValue } from './write-source.ts';

const DEFAULT_HISTORY_LIMIT = 200;

/**
 * An editable flow graph (a `.flow` source read with {@link FlowDocument.fromSource}): nodes, links, comment boxes, groups and variables, with commands that each make one undo step, validation after every change, and `toSource` that writes the file back in its own layout.
 */
export class FlowDocument {
  /** The node types the document is edited against: pins, settings and validation come from it. */
  readonly registry: FlowRegistry;
  readonly #state: DocumentState;
  readonly #loaded: LoadedSource;
  readonly #history: EditHistory;
  readonly #listeners = new Set<(change: FlowDocumentChange) => void>();
  #validation: FlowValidation;
  #version = 0;

  private constructor(loaded: LoadedSource, registry: FlowRegistry, options: FlowDocumentOptions) {
    const limit = options.historyLimit ?? DEFAULT_HISTORY_LIMIT;
    if (!Number.isInteger(limit) || limit < 1) throw new FlowEditorError('bad-argument', `historyLimit must be a positive integer, got ${String(limit)}.`);
    this.registry = registry;
    this.#loaded = loaded;
    this.#history = new EditHistory(limit);
    const state = new DocumentState(registry);
    for (const n of loaded.nodes) state.nodes.insert(state.nodes.size, n);
    for (const l of loaded.links) state.links.insert(state.links.size, l);
    for (const c of loaded.comments) state.comments.insert(state.comments.size, c);
    for (const g of loaded.groups) state.groups.insert(state.groups.size, g);
    for (const v of loaded.variables) state.variables.insert(state.variables.size, v);
    this.#state = state;
    this.#validation = this.#validate();
  }

  /**
   * Opens a graph source (JSON or SJSON text, as the compiler reads it). Graph errors, unknown
   * node types included, become issues on the nodes; text that does not parse, or a shape the
   * editor cannot show, throws FlowEditorError ('parse', 'bad-source').
   */
  static fromSource(text: string, registry: FlowRegistry, options: FlowDocumentOptions = {}): FlowDocument {
    const given: unknown = registry;
    if (typeof given !== 'object' || given === null || typeof (given as Partial<FlowRegistry>).get !== 'function') throw new FlowEditorError('bad-argument', 'fromSource needs a FlowRegistry.');
    return new FlowDocument(readSource(text), registry, options);
  }

  // ---- Saving ----

  /** The graph as a JSON value, exactly what toSource writes (and what the compiler would read). */
  toValue(): JsonObject {
    const s = this.#state;
    return sourceValue({ root: this.#loaded.root, nodes: s.nodes.items, links: s.links.items, comments: s.comments.items, groups: s.groups.items, variables: s.variables.items });
  }

  /**
   * The source text: the opened text itself when the graph is unchanged, else tools-merge's
   * stable SJSON writer in the file's layout with its comments (JSON stays JSON).
   */
  toSource(): string {
    return sourceText(this.toValue(), this.#loaded);
  }

  // ---- Reading (cheap: views call these every frame) ----

  /** The graph's kind and name from the source header (read-only in the editor). */
  get header(): FlowGraphHeader {
    const kind = ownGet(this.#loaded.root, 'kind');
    const name = ownGet(this.#loaded.root, 'name');
    return { kind: kind === 'unit' || kind === 'level' ? kind : undefined, name: typeof name === 'string' ? name : undefined };
  }

  /** Counts changes (commands, undos, redos): a view redraws when it moved. */
  get version(): number {
    return this.#version;
  }

  /** Nodes in source order (the order breaks ties in execution order). The array is live. */
  get nodes(): readonly FlowEditorNode[] {
    return this.#state.nodes.items;
  }

  /** The node with this id, or undefined. */
  node(id: string): FlowEditorNode | undefined {
    return this.#state.nodes.get(id);
  }

  /** The node's pins, event pins first; cached until its type, its settings or the variables change. */
  pins(nodeId: string): FlowNodePins | undefined {
    return this.#state.pins(nodeId);
  }

  /** The pin a reference names, on the given side; undefined when there is none. */
  pin(ref: FlowPinRef, direction: FlowPinDirection): FlowPin | undefined {
    const pins = this.#state.pins(ref.node);
    if (pins === undefined) return undefined;
    return (direction === 'input' ? pins.inputs : pins.outputs).find((p) => p.name === ref.pin && (ref.kind === undefined || p.kind === ref.kind));
  }

  /** Event links then data links, each in source order. The array is live. */
  get links(): readonly FlowEditorLink[] {
    return this.#state.links.items;
  }

  /** The link with this id, or undefined. */
  link(id: string): FlowEditorLink | undefined {
    return this.#state.links.get(id);
  }

  /** Links into and out of a node (indexed once per change of the links). */
  linksOf(nodeId: string): readonly FlowEditorLink[] {
    return this.#state.linksOf(nodeId);
  }

  /** The data link into an input pin, if any. */
  linkInto(nodeId: string, pin: string): FlowEditorLink | undefined {
    return this.#state.linkInto(nodeId, pin);
  }

  /** Comment boxes in source order. The array is live. */
  get comments(): readonly FlowEditorComment[] {
    return this.#state.comments.items;
  }

  /** The comment box with this id, or undefined. */
  comment(id: string): FlowEditorComment | undefined {
    return this.#state.comments.get(id);
  }

  /** Groups in source order. The array is live. */
  get groups(): readonly FlowEditorGroup[] {
    return this.#state.groups.items;
  }

  /** The group with this id, or undefined. */
  group(id: string): FlowEditorGroup | undefined {
    return this.#state.groups.get(id);
  }

  /** Graph variables in source order. The array is live. */
  get variables(): readonly FlowEditorVariable[] {
    return this.#state.variables.items;
  }

  /** The variable with this name, or undefined. */
  variable(name: string): FlowEditorVariable | undefined {
    return this.#state.variables.get(name);
  }

  /** The validator's issues on the current graph, by node; recomputed after every change of the graph. */
  get validation(): FlowValidation {
    return this.#validation;
  }

  /** Issues to show on a node (an empty array when it has none). */
  issuesOf(nodeId: string): readonly FlowIssue[] {
    return issuesIn(this.#validation, nodeId);
  }

  // ---- History ----

  /** True when there is a step to undo. */
  get canUndo(): boolean {
    return this.#history.canUndo;
  }

  /** True when there is an undone step to redo. */
  get canRedo(): boolean {
    return this.#history.canRedo;
  }

  /** Labels of the steps undo would take back, oldest first. */
  get undoLabels(): string[] {
    return this.#history.undoLabels;
  }

  /** Labels of the steps redo would bring back, the next one last. */
  get redoLabels(): string[] {
    return this.#history.redoLabels;
  }

  /** Takes back the last step; false when there is none. */
  undo(): boolean {
    const step = this.#history.undo();
    if (step === undefined) return false;
    this.#changed({ cause: 'undo', label: step.label, graphChanged: step.graph });
    return true;
  }

  /** Brings back the last undone step; false when there is none. A new command clears what can be redone. */
  redo(): boolean {
    const step = this.#history.redo();
    if (step === undefined) return false;
    this.#changed({ cause: 'redo', label: step.label, graphChanged: step.graph });
    return true;
  }

  /** Ends a drag: the next move starts an undo step of its own even if it moves the same selection. */
  endDrag(): void {
    this.#history.seal();
  }

  /** Calls `listener` after every change; returns the function that stops it. */
  onChange(listener: (change: FlowDocumentChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  // ---- Commands: each one undo step; a command that throws changes nothing ----

  /** Adds a node of a registered type (or palette entry) at a position; returns it. */
  addNode(type: string | FlowPaletteEntry, at: FlowPoint, options?: AddNodeOptions): FlowEditorNode {
    const given: unknown = type;
    const name = typeof given === 'object' && given !== null ? (given as Partial<FlowPaletteEntry>).type : given;
    return this.#run('add node', undefined, (tx) => addNode(this.#state, tx, name, at, options));
  }

  /** Removes nodes with their links, comment boxes and groups (a group's nodes stay). */
  remove(selection: FlowSelection): void {
    const nodes = checkIds(selection.nodes, 'selection.nodes');
    const comments = checkIds(selection.comments, 'selection.comments');
    const groups = checkIds(selection.groups, 'selection.groups');
    this.#run('remove', undefined, (tx) => {
      removeGroups(this.#state, tx, groups);
      removeComments(this.#state, tx, comments);
      removeNodes(this.#state, tx, nodes);
    });
  }

  /** Moves a selection by (dx, dy). Consecutive moves of the same selection are one undo step (see endDrag). */
  move(selection: FlowSelection, dx: number, dy: number): void {
    const key = ['nodes', 'comments', 'groups'].map((k) => checkIds(selection[k as keyof FlowSelection], `selection.${k}`).slice().sort().join('\u0000')).join('\u0001');
    this.#run('move', `move:${key}`, (tx) => { moveSelection(this.#state, tx, selection, dx, dy); });
  }

  /** Whether two pins may be linked (either order); throws the FlowConnectError connect would. For feedback while dragging. */
  checkConnection(a: FlowPinRef, b: FlowPinRef): FlowConnection {
    return checkConnection(this.#state, a, b);
  }

  /** Links two pins (either order); a data input's old link and constant are replaced in the same step. */
  connect(a: FlowPinRef, b: FlowPinRef): FlowEditorLink {
    return this.#run('connect', undefined, (tx) => connect(this.#state, tx, a, b));
  }

  /** Removes links by id, in one undo step. Throws {@link FlowEditorError} (`'unknown-link'`) when an id names no link, changing nothing. */
  disconnect(linkIds: readonly string[]): void {
    const ids = checkIds(linkIds, 'Link ids');
    this.#run('disconnect', undefined, (tx) => { disconnect(this.#state, tx, ids); });
  }

  /** Sets the inline constant of a data input; undefined removes it. */
  setInput(nodeId: string, pin: string, value: FlowConstant | undefined): FlowEditorNode {
    return this.#run('set input', undefined, (tx) => setInput(this.#state, tx, nodeId, pin, value));
  }

  /** Sets a setting the node's type declares; undefined removes it. */
  setSetting(nodeId: string, name: string, value: FlowConstant | undefined): FlowEditorNode {
    return this.#run('set setting', undefined, (tx) => setSetting(this.#state, tx, nodeId, name, value));
  }

  /** Declares or changes a graph variable; undefined removes it. */
  setVariable(name: string, spec: { type: FlowValueType; value?: FlowConstant } | undefined): FlowEditorVariable | undefined {
    return this.#run('set variable', undefined, (tx) => setVariable(this.#state, tx, name, spec));
  }

  /** Adds a comment box with `text` in `rect` (graph units) and returns it. */
  addComment(text: string, rect: FlowRect): FlowEditorComment {
    return this.#run('add comment', undefined, (tx) => addComment(this.#state, tx, text, rect));
  }

  /**
   * Changes a comment box's text or rectangle (what `edit` leaves out stays) and returns the new record. Throws {@link FlowEditorError} (`'unknown-comment'`) when there is no such box.
   */
  editComment(id: string, edit: FlowCommentEdit): FlowEditorComment {
    return this.#run('edit comment', undefined, (tx) => editComment(this.#state, tx, id, edit));
  }

  /** Adds a group titled `title` in `rect` (graph units) holding the nodes `members` (default none) and returns it. */
  addGroup(title: string, rect: FlowRect, members: readonly string[] = []): FlowEditorGroup {
    return this.#run('add group', undefined, (tx) => addGroup(this.#state, tx, title, rect, members));
  }

  /**
   * Changes a group's title, rectangle or members (what `edit` leaves out stays) and returns the new record. Throws {@link FlowEditorError} (`'unknown-group'`) when there is no such group.
   */
  editGroup(id: string, edit: FlowGroupEdit): FlowEditorGroup {
    return this.#run('edit group', undefined, (tx) => editGroup(this.#state, tx, id, edit));
  }

  /** The selection as clipboard text (JSON): its nodes, the links between them, its boxes, the variables they name. */
  copy(selection: FlowSelection): string {
    return copySelection(this.#state, selection);
  }

  /** Pastes clipboard text with fresh ids; returns what was pasted, to select it. Refuses anything malformed, changing nothing. */
  paste(text: string, options?: FlowPasteOptions): Required<FlowSelection> {
    return this.#run('paste', undefined, (tx) => paste(this.#state, tx, text, options));
  }

  // ---- Internals ----

  #run<T>(label: string, mergeKey: string | undefined, body: (tx: Transaction) => T): T {
    const tx = new Transaction();
    let result: T;
    try {
      result = body(tx);
    } catch (error) {
      tx.rollback();
      throw error;
    }
    if (tx.empty) return result;
    this.#history.push({ label, mergeKey, graph: tx.graph, undo: tx.undoEdits(), redo: tx.forward.slice() });
    this.#changed({ cause: 'edit', label, graphChanged: tx.graph });
    return result;
  }

  #validate(): FlowValidation {
    return validateSource(this.toValue(), this.registry, this.#loaded.warnings, (id) => this.#state.nodes.has(id));
  }

  #changed(change: FlowDocumentChange): void {
    this.#version++;
    if (change.graphChanged) this.#validation = this.#validate();
    for (const listener of [...this.#listeners]) listener(change);
  }
}
