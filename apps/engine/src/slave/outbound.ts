// One outbound budget per tool connection, for every kind of message. ws queues whatever is
// sent to a socket that does not drain, so a tool that stops reading would grow the engine's
// memory without bound. What each kind does when the tool falls behind:
// - frames: skipped (counted) while more than OUTBOUND_BUDGET bytes are queued (server.ts);
// - log lines, profiler samples and Flow activity: dropped past DROPPABLE_BYTES queued, and
//   counted; the tool is told the totals in a `dropped` message when it reads again;
// - replies (hello, error, script, reloaded, and the flow.* messages other than activity):
//   never dropped, since the tool waits for them; a connection that would queue past
//   HARD_LIMIT_BYTES, or that stays over OUTBOUND_BUDGET for OVER_BUDGET_MS, is closed.

/** Bytes queued past which log lines, profiler samples and Flow activity are dropped. */
export const DROPPABLE_BYTES = 256 * 1024;
/** Bytes queued past which frames are skipped, and past which a connection may not stay. */
export const OUTBOUND_BUDGET = 4 * 1024 * 1024;
/** Bytes queued past which a connection is closed at once. */
export const HARD_LIMIT_BYTES = 8 * 1024 * 1024;
/** How long a connection may stay over OUTBOUND_BUDGET before it is closed. */
export const OVER_BUDGET_MS = 5000;

const TEXT = { binary: false } as const;
const BINARY = { binary: true } as const;

export type DroppableKind = 'log' | 'profiler' | 'flow';

/** The part of a ws WebSocket the budget needs. */
export interface OutboundSocket {
  readonly bufferedAmount: number;
  readonly readyState: number;
  readonly OPEN: number;
  send(data: string | Buffer, options: { binary: boolean }): void;
  terminate(): void;
}

export class Outbound {
  readonly #socket: OutboundSocket;
  readonly #onClose: (reason: string) => void;
  readonly #dropped: Record<DroppableKind, number> = { log: 0, profiler: 0, flow: 0 };
  #droppedReported = 0;
  #overSince: number | undefined;
  #closed = false;

  /** `onClose` is told why, once, when the budget closes the connection. */
  constructor(socket: OutboundSocket, onClose: (reason: string) => void) {
    this.#socket = socket;
    this.#onClose = onClose;
  }

  get open(): boolean {
    return !this.#closed && this.#socket.readyState === this.#socket.OPEN;
  }

  /** Messages dropped so far, by kind. */
  get dropped(): Readonly<Record<DroppableKind, number>> {
    return this.#dropped;
  }

  /** Whether a frame may be queued now. */
  get takesFrames(): boolean {
    return this.open && this.#socket.bufferedAmount <= OUTBOUND_BUDGET;
  }

  /**
   * A reply the tool waits for: queued, unless it would take the connection past its hard limit
   * (then it is closed). A string is sent as it is (a message serialized once for every tool).
   */
  reply(message: object | string): void {
    if (!this.open) return;
    const text = typeof message === 'string' ? message : JSON.stringify(message);
    if (this.#socket.bufferedAmount + Buffer.byteLength(text) > HARD_LIMIT_BYTES) {
      this.#close(`${this.#socket.bufferedAmount} bytes already queued and the tool is not reading them`);
      return;
    }
    this.#socket.send(text, TEXT);
  }

  /** A log line, profiler sample or Flow activity (an object, or one serialized already): dropped (and counted) while the tool is behind. */
  offer(kind: DroppableKind, message: object | string): void {
    if (!this.open) return;
    if (this.#socket.bufferedAmount > DROPPABLE_BYTES) {
      this.#dropped[kind]++;
      return;
    }
    const total = this.#dropped.log + this.#dropped.profiler + this.#dropped.flow;
    if (total !== this.#droppedReported) {
      this.#droppedReported = total;
      this.#socket.send(JSON.stringify({ type: 'dropped', ...this.#dropped }), TEXT);
    }
    this.#socket.send(typeof message === 'string' ? message : JSON.stringify(message), TEXT);
  }

  /** A binary frame; the caller asks `takesFrames` first. */
  frame(data: Buffer): void {
    if (this.open) this.#socket.send(data, BINARY);
  }

  /** Closes the connection when it has stayed over its budget too long; true when it did. */
  check(now: number): boolean {
    if (!this.open) return false;
    const buffered = this.#socket.bufferedAmount;
    if (buffered <= OUTBOUND_BUDGET) {
      this.#overSince = undefined;
      return false;
    }
    this.#overSince ??= now;
    if (buffered > HARD_LIMIT_BYTES || now - this.#overSince >= OVER_BUDGET_MS) {
      this.#close(`${buffered} bytes queued for ${((now - this.#overSince) / 1000).toFixed(1)} s`);
      return true;
    }
    return false;
  }

  #close(reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    // terminate, not close: a close frame would wait behind the bytes the tool is not reading.
    this.#socket.terminate();
    this.#onClose(reason);
  }
}
