// One command's edits, applied as they are made so later steps see earlier ones; rolled back
// whole when the command throws, so a refused command leaves the document as it was.
import type { Edit } from './edits.ts';

export class Transaction {
  readonly forward: Edit[] = [];
  readonly #inverses: Edit[] = [];
  #graph = false;

  /** Applies the edit now and records it. */
  do(edit: Edit): void {
    this.#inverses.push(edit.apply());
    this.forward.push(edit);
    if (edit.graph) this.#graph = true;
  }

  get empty(): boolean {
    return this.forward.length === 0;
  }

  /** Whether any edit changed what the compiler sees. */
  get graph(): boolean {
    return this.#graph;
  }

  /** The inverses in undo order. */
  undoEdits(): Edit[] {
    return this.#inverses.slice().reverse();
  }

  rollback(): void {
    for (let i = this.#inverses.length - 1; i >= 0; i--) this.#inverses[i]!.apply();
    this.#inverses.length = 0;
    this.forward.length = 0;
  }
}
