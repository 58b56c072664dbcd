// Log lines that an outsider can cause (refused connections) or that repeat every frame (a
// failing render) are rate-limited: the first of a kind in each window is logged at once, the
// rest are counted and summarised when the window ends ("37 more refused connections in the
// last 1 s; the last: …"). The log, every tool's log view and stderr stay small whatever the
// rate.
import type { LogFn } from '../runtime/world.ts';

type Level = Parameters<LogFn>[0];

export interface LogLimiterOptions {
  /** Window in milliseconds (default 1000). */
  windowMs?: number;
  /** Clock in milliseconds (default performance.now). */
  now?: () => number;
}

interface Kind {
  windowStart: number;
  suppressed: number;
  level: Level;
  system: string;
  last: string;
  timer: NodeJS.Timeout | undefined;
}

/** Longest text of one logged event; longer ones are cut (a header can be 16 KB). */
export const MAX_EVENT_CHARS = 300;

function clip(text: string): string {
  return text.length <= MAX_EVENT_CHARS ? text : `${text.slice(0, MAX_EVENT_CHARS)}… (${text.length - MAX_EVENT_CHARS} more characters)`;
}

export class LogLimiter {
  readonly #log: LogFn;
  readonly #windowMs: number;
  readonly #now: () => number;
  readonly #kinds = new Map<string, Kind>();

  constructor(log: LogFn, options: LogLimiterOptions = {}) {
    this.#log = log;
    this.#windowMs = options.windowMs ?? 1000;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Logs `message` as an event of `kind` (a plural noun: "refused connections"), rate-limited. */
  report(kind: string, level: Level, system: string, message: string): void {
    const now = this.#now();
    const text = clip(message);
    const entry = this.#kinds.get(kind);
    if (entry !== undefined && now - entry.windowStart < this.#windowMs) {
      entry.suppressed++;
      entry.last = text;
      entry.level = level;
      if (entry.timer === undefined) {
        entry.timer = setTimeout(() => { this.#summarise(kind); }, Math.max(0, entry.windowStart + this.#windowMs - now));
        entry.timer.unref();
      }
      return;
    }
    if (entry !== undefined) this.#summarise(kind);
    this.#kinds.set(kind, { windowStart: now, suppressed: 0, level, system, last: text, timer: undefined });
    this.#log(level, system, text);
  }

  /** Logs the summaries still pending (on shutdown). */
  flush(): void {
    for (const kind of [...this.#kinds.keys()]) this.#summarise(kind);
    this.#kinds.clear();
  }

  #summarise(kind: string): void {
    const entry = this.#kinds.get(kind);
    if (entry === undefined) return;
    clearTimeout(entry.timer);
    entry.timer = undefined;
    if (entry.suppressed > 0) {
      const seconds = Math.max(this.#windowMs, this.#now() - entry.windowStart) / 1000;
      this.#log(entry.level, entry.system, `${entry.suppressed} more ${kind} in the last ${seconds.toFixed(1)} s; the last: ${entry.last}`);
    }
    entry.suppressed = 0;
  }
}
