// The primitive changes every command is made of. Applying one returns its inverse, so a
// command's undo is its inverses in reverse order and its redo the edits themselves.
import type { OrderedTable } from './ordered-table.ts';

/** A change to one table of the document. `graph` is false for changes the compiler never sees (positions, comment boxes, groups). */
export interface Edit {
  readonly graph: boolean;
  /** Performs the change and returns the edit that undoes it. */
  apply(): Edit;
}

export class InsertEdit<T> implements Edit {
  constructor(
    readonly table: OrderedTable<T>,
    readonly at: number,
    readonly item: T,
    readonly key: string,
    readonly graph: boolean,
  ) {}

  apply(): Edit {
    this.table.insert(this.at, this.item);
    return new RemoveEdit(this.table, this.key, this.graph);
  }
}

export class RemoveEdit<T> implements Edit {
  constructor(
    readonly table: OrderedTable<T>,
    readonly key: string,
    readonly graph: boolean,
  ) {}

  apply(): Edit {
    const { at, item } = this.table.remove(this.key);
    return new InsertEdit(this.table, at, item, this.key, this.graph);
  }
}

export class ReplaceEdit<T> implements Edit {
  constructor(
    readonly table: OrderedTable<T>,
    readonly item: T,
    readonly graph: boolean,
  ) {}

  apply(): Edit {
    const old = this.table.replace(this.item);
    return new ReplaceEdit(this.table, old, this.graph);
  }
}

/** Runs edits in order; if one throws, the ones already applied are undone and the error goes on. Returns the inverses in undo order. */
export function applyEdits(edits: readonly Edit[]): Edit[] {
  const inverses: Edit[] = [];
  try {
    for (const edit of edits) inverses.push(edit.apply());
  } catch (error) {
    for (let i = inverses.length - 1; i >= 0; i--) inverses[i]!.apply();
    throw error;
  }
  return inverses.reverse();
}
