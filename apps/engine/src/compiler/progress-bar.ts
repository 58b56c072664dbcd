// The compile's progress on a terminal: one line redrawn in place (files done / total, failures,
// and the slowest resource so far), at most ten times a second so a fast compile does not spend
// its time drawing. Pipes and --json get one line per resource instead (see cli.ts).
import type { ProgressEvent } from './compile-project.ts';

const REDRAW_MS = 100;

export class ProgressBar {
  #slowest: { path: string; ms: number } | undefined;
  #failed = 0;
  #drawnAt = -Infinity;
  #last: ProgressEvent | undefined;

  constructor(
    private readonly write: (text: string) => void,
    private readonly columns: number,
  ) {}

  update(event: ProgressEvent): void {
    this.#last = event;
    if (!event.ok) this.#failed++;
    if (!this.#slowest || event.ms > this.#slowest.ms) this.#slowest = { path: event.path, ms: event.ms };
    const now = performance.now();
    if (event.index < event.total && now - this.#drawnAt < REDRAW_MS) return;
    this.#drawnAt = now;
    this.#draw(event);
  }

  /** Ends the line, so what is printed next starts on its own. */
  finish(): void {
    if (this.#last) this.write('\n');
  }

  #draw(event: ProgressEvent): void {
    const counts = `${event.index}/${event.total}`;
    const failed = this.#failed > 0 ? `  ${this.#failed} failed` : '';
    const slowest = this.#slowest ? `  slowest: ${this.#slowest.path} ${this.#slowest.ms.toFixed(0)} ms` : '';
    const width = Math.max(10, Math.min(40, this.columns - counts.length - failed.length - slowest.length - 4));
    const filled = Math.round((event.index / event.total) * width);
    const line = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${counts}${failed}${slowest}`;
    // \r and "erase to end of line": the bar redraws over itself.
    this.write(`\r${line.slice(0, Math.max(1, this.columns - 1))}\x1b[K`);
  }
}
