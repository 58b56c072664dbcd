// Undo and redo: a stack of steps, each a command's edits and their inverses, with a depth limit.
// Consecutive moves of the same selection merge into one step (a drag is one undo).
import { applyEdits, type Edit } from './edits.ts';

export interface HistoryStep {
  readonly label: string;
  /** Steps with the same key merge when one directly follows the other (moves of one selection). */
  readonly mergeKey: string | undefined;
  readonly graph: boolean;
  undo: Edit[];
  redo: Edit[];
}

export class EditHistory {
  readonly #done: HistoryStep[] = [];
  readonly #undone: HistoryStep[] = [];
  readonly #limit: number;
  #sealed = false;

  constructor(limit: number) {
    this.#limit = limit;
  }

  get canUndo(): boolean {
    return this.#done.length > 0;
  }

  get canRedo(): boolean {
    return this.#undone.length > 0;
  }

  /** Labels of the steps undo would take back, most recent last. */
  get undoLabels(): string[] {
    return this.#done.map((s) => s.label);
  }

  get redoLabels(): string[] {
    return this.#undone.map((s) => s.label).reverse();
  }

  /** Records a command that ran. A move after a move of the same selection extends that step: its undo goes back to before the first. */
  push(step: HistoryStep): void {
    this.#undone.length = 0;
    const top = this.#done[this.#done.length - 1];
    if (!this.#sealed && top !== undefined && step.mergeKey !== undefined && top.mergeKey === step.mergeKey) {
      // Moves are absolute replacements of the same records: the newest redo sets the final
      // state from anywhere, the oldest undo restores the state before the drag.
      top.redo = step.redo;
    } else {
      this.#done.push(step);
      if (this.#done.length > this.#limit) this.#done.shift();
    }
    this.#sealed = false;
  }

  /** Ends merging: the next command starts a step of its own even if it moves the same selection. */
  seal(): void {
    this.#sealed = true;
  }

  undo(): HistoryStep | undefined {
    const step = this.#done.pop();
    if (step === undefined) return undefined;
    applyEdits(step.undo);
    this.#undone.push(step);
    this.#sealed = true;
    return step;
  }

  redo(): HistoryStep | undefined {
    const step = this.#undone.pop();
    if (step === undefined) return undefined;
    applyEdits(step.redo);
    this.#done.push(step);
    this.#sealed = true;
    return step;
  }
}
