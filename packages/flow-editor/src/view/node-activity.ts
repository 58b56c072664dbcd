// Which nodes glow: a node that ran lights up and stays lit while it keeps running; once it has
// not run for `holdMs` it goes dark (the CSS fades it). DOM-free and unit-tested; the view adds
// and removes one class per node only when a node lights up or goes dark, so a node that runs
// every frame costs no DOM work after the first.
/** Which nodes glow: a node that ran lights up and stays lit while it keeps running, and goes dark once it has not run for `holdMs`. Needs no DOM. */
export class NodeActivity {
  /** How long a node stays lit after it last ran, in ms (default 250). */
  readonly holdMs: number;
  /** Lit nodes: when each last ran. */
  readonly #litAt = new Map<string, number>();
  readonly #totals = new Map<string, number>();

  constructor(holdMs = 250) {
    this.holdMs = holdMs;
  }

  /** Nodes lit now. */
  get lit(): number {
    return this.#litAt.size;
  }

  /** True while the node is lit. */
  isLit(id: string): boolean {
    return this.#litAt.has(id);
  }

  /** Executions seen for a node since the view was made (or reset). */
  total(id: string): number {
    return this.#totals.get(id) ?? 0;
  }

  /** Notes that a node ran `count` times at `now` (ms); true when it was dark (the view lights it). */
  ran(id: string, count: number, now: number): boolean {
    this.#totals.set(id, (this.#totals.get(id) ?? 0) + count);
    const wasLit = this.#litAt.has(id);
    this.#litAt.set(id, now);
    return !wasLit;
  }

  /** Darkens nodes that have not run for holdMs, calling `off` for each; returns how many stay lit. */
  expire(now: number, off: (id: string) => void): number {
    for (const [id, at] of this.#litAt) {
      if (now - at < this.holdMs) continue;
      this.#litAt.delete(id);
      off(id);
    }
    return this.#litAt.size;
  }

  /** Forgets a node (removed from the document). */
  forget(id: string): void {
    this.#litAt.delete(id);
    this.#totals.delete(id);
  }

  /** Darkens every node and forgets the totals. */
  reset(off: (id: string) => void): void {
    for (const id of this.#litAt.keys()) off(id);
    this.#litAt.clear();
    this.#totals.clear();
  }
}
