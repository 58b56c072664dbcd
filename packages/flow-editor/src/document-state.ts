// The document's tables and the look-ups views make every frame: records by id, a node's pins
// (cached until its type, its settings or the variables change), links by node (indexed once
// per change of the links). Commands change the tables only through edits in a transaction.
import type { FlowRegistry } from '@cuttle/flow';
import type { FlowNodePins, FlowPin, FlowPinDirection, FlowPinRef } from './api.ts';
import { InsertEdit, RemoveEdit, ReplaceEdit } from './edits.ts';
import { FlowEditorError } from './errors.ts';
import { findPin, pinsOf } from './node-pins.ts';
import { OrderedTable } from './ordered-table.ts';
import type { CommentRecord, GroupRecord, LinkRecord, NodeRecord, VariableRecord } from './records.ts';
import type { Transaction } from './transaction.ts';

interface CachedPins {
  type: string;
  settings: NodeRecord['settings'];
  variables: number;
  /** Links version for nodes of unknown type (their pins come from links); -1 when the type is known. */
  links: number;
  pins: FlowNodePins;
}

const NO_LINKS: readonly LinkRecord[] = Object.freeze([]);

export class DocumentState {
  readonly nodes = new OrderedTable<NodeRecord>((n) => n.id);
  readonly links = new OrderedTable<LinkRecord>((l) => l.id);
  readonly comments = new OrderedTable<CommentRecord>((c) => c.id);
  readonly groups = new OrderedTable<GroupRecord>((g) => g.id);
  readonly variables = new OrderedTable<VariableRecord>((v) => v.name);
  readonly #pins = new Map<string, CachedPins>();
  #linkIndex = new Map<string, LinkRecord[]>();
  #linkIndexVersion = -1;

  constructor(readonly registry: FlowRegistry) {}

  /** The node, or a FlowEditorError naming the missing id. */
  requireNode(id: string): NodeRecord {
    const node = typeof id === 'string' ? this.nodes.get(id) : undefined;
    if (node === undefined) throw new FlowEditorError('unknown-node', `No node "${id}" in the graph.`);
    return node;
  }

  pins(id: string): FlowNodePins | undefined {
    const node = this.nodes.get(id);
    if (node === undefined) return undefined;
    const cached = this.#pins.get(id);
    const linksVersion = this.registry.has(node.type) ? -1 : this.links.version;
    if (cached?.type === node.type && cached.settings === node.settings && cached.variables === this.variables.version && cached.links === linksVersion) {
      return cached.pins;
    }
    const pins = pinsOf(node, this.registry, (name) => this.variables.get(name), () => this.linksOf(id));
    this.#pins.set(id, { type: node.type, settings: node.settings, variables: this.variables.version, links: linksVersion, pins });
    if (this.#pins.size > this.nodes.size * 2 + 64) this.#prunePins();
    return pins;
  }

  #prunePins(): void {
    for (const id of this.#pins.keys()) if (!this.nodes.has(id)) this.#pins.delete(id);
  }

  /** The pin `ref` names in `direction`, or a FlowEditorError saying what is missing. */
  requirePin(ref: Readonly<FlowPinRef>, direction: FlowPinDirection): FlowPin {
    const pins = this.pins(ref.node);
    if (pins === undefined) throw new FlowEditorError('unknown-node', `No node "${ref.node}" in the graph.`);
    const pin = findPin(pins, direction, ref.pin, ref.kind);
    if (pin === 'ambiguous') throw new FlowEditorError('ambiguous-pin', `Node "${ref.node}" has an event and a data ${direction} named "${ref.pin}"; say which with kind.`);
    if (pin === undefined) throw new FlowEditorError('unknown-pin', `Node "${ref.node}" (${this.nodes.get(ref.node)!.type}) has no ${direction} "${ref.pin}".`);
    return pin;
  }

  /** Links touching the node, in source order (events first). */
  linksOf(id: string): readonly LinkRecord[] {
    if (this.#linkIndexVersion !== this.links.version) {
      const index = new Map<string, LinkRecord[]>();
      const add = (node: string, link: LinkRecord): void => {
        let list = index.get(node);
        if (list === undefined) index.set(node, (list = []));
        if (list[list.length - 1] !== link) list.push(link);
      };
      for (const link of this.links.items) {
        add(link.from.node, link);
        add(link.to.node, link);
      }
      this.#linkIndex = index;
      this.#linkIndexVersion = this.links.version;
    }
    return this.#linkIndex.get(id) ?? NO_LINKS;
  }

  /** The data link into an input pin, if any. */
  linkInto(node: string, pin: string): LinkRecord | undefined {
    for (const link of this.linksOf(node)) if (link.kind === 'data' && link.to.node === node && link.to.pin === pin) return link;
    return undefined;
  }

  // Edits: every change to a table goes through these, inside a transaction.

  insertNode(tx: Transaction, at: number, node: NodeRecord): void {
    tx.do(new InsertEdit(this.nodes, at, node, node.id, true));
  }
  removeNode(tx: Transaction, id: string): void {
    tx.do(new RemoveEdit(this.nodes, id, true));
  }
  /** `graph` false when only the position changed. */
  replaceNode(tx: Transaction, node: NodeRecord, graph: boolean): void {
    tx.do(new ReplaceEdit(this.nodes, node, graph));
  }
  insertLink(tx: Transaction, link: LinkRecord): void {
    tx.do(new InsertEdit(this.links, this.links.size, link, link.id, true));
  }
  removeLink(tx: Transaction, id: string): void {
    tx.do(new RemoveEdit(this.links, id, true));
  }
  insertComment(tx: Transaction, comment: CommentRecord): void {
    tx.do(new InsertEdit(this.comments, this.comments.size, comment, comment.id, false));
  }
  removeComment(tx: Transaction, id: string): void {
    tx.do(new RemoveEdit(this.comments, id, false));
  }
  replaceComment(tx: Transaction, comment: CommentRecord): void {
    tx.do(new ReplaceEdit(this.comments, comment, false));
  }
  insertGroup(tx: Transaction, group: GroupRecord): void {
    tx.do(new InsertEdit(this.groups, this.groups.size, group, group.id, false));
  }
  removeGroup(tx: Transaction, id: string): void {
    tx.do(new RemoveEdit(this.groups, id, false));
  }
  replaceGroup(tx: Transaction, group: GroupRecord): void {
    tx.do(new ReplaceEdit(this.groups, group, false));
  }
  setVariable(tx: Transaction, variable: VariableRecord | undefined, name: string): void {
    const existing = this.variables.has(name);
    if (variable === undefined) {
      if (existing) tx.do(new RemoveEdit(this.variables, name, true));
    } else if (existing) tx.do(new ReplaceEdit(this.variables, variable, true));
    else tx.do(new InsertEdit(this.variables, this.variables.size, variable, name, true));
  }

  /** Whether an id is used by a node, a comment box or a group (comment and group ids share one space). */
  boxIdTaken(id: string): boolean {
    return this.comments.has(id) || this.groups.has(id);
  }
}
