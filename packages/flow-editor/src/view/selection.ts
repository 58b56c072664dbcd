// What the user has selected: node, comment and group ids, as sets (DOM-free).
import type { FlowSelection } from '../api.ts';

/** The three kinds of things that can be selected. */
export type SelectionKind = 'nodes' | 'comments' | 'groups';

/** What the user has selected: node, comment box and group ids, as sets. Needs no DOM. */
export class ViewSelection {
  /** Selected node ids. */
  readonly nodes = new Set<string>();
  /** Selected comment box ids. */
  readonly comments = new Set<string>();
  /** Selected group ids. */
  readonly groups = new Set<string>();

  /** True when nothing is selected. */
  get empty(): boolean {
    return this.nodes.size === 0 && this.comments.size === 0 && this.groups.size === 0;
  }

  /** True when the item of this kind and id is selected. */
  has(kind: SelectionKind, id: string): boolean {
    return this[kind].has(id);
  }

  /** Selects nothing. */
  clear(): void {
    this.nodes.clear();
    this.comments.clear();
    this.groups.clear();
  }

  /** Replaces the selection with one item, or toggles it into the selection when `add` (shift-click). */
  pick(kind: SelectionKind, id: string, add: boolean): void {
    if (!add) {
      this.clear();
      this[kind].add(id);
    } else if (this[kind].has(id)) {
      this[kind].delete(id);
    } else {
      this[kind].add(id);
    }
  }

  /** Replaces the selection with these ids. */
  set(selection: FlowSelection): void {
    this.clear();
    for (const id of selection.nodes ?? []) this.nodes.add(id);
    for (const id of selection.comments ?? []) this.comments.add(id);
    for (const id of selection.groups ?? []) this.groups.add(id);
  }

  /** Drops ids the document no longer has. */
  retain(exists: (kind: SelectionKind, id: string) => boolean): void {
    for (const kind of ['nodes', 'comments', 'groups'] as const) for (const id of this[kind]) if (!exists(kind, id)) this[kind].delete(id);
  }

  /** The selected ids as arrays, in the order they were selected. */
  toSelection(): Required<FlowSelection> {
    return { nodes: [...this.nodes], comments: [...this.comments], groups: [...this.groups] };
  }
}
