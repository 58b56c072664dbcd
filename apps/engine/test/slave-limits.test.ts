// The slave server's limits in isolation, with fake sockets and clocks: the outbound budget of a
// connection, rate-limited log lines, and the bounded stderr writer.
import { describe, expect, test } from 'vitest';
import { boundedLines } from '../src/slave/bounded-log.ts';
import { LogLimiter, MAX_EVENT_CHARS } from '../src/slave/log-limiter.ts';
import { DROPPABLE_BYTES, HARD_LIMIT_BYTES, Outbound, OUTBOUND_BUDGET, OVER_BUDGET_MS, type OutboundSocket } from '../src/slave/outbound.ts';

/** A socket that never drains unless told to: what it was sent, and what stays queued. */
function fakeSocket(): OutboundSocket & { sent: (string | Buffer)[]; queued: number; terminated: boolean; drain(): void } {
  return {
    sent: [],
    queued: 0,
    terminated: false,
    OPEN: 1,
    get readyState() { return this.terminated ? 3 : 1; },
    get bufferedAmount() { return this.queued; },
    send(data) {
      this.sent.push(data);
      this.queued += typeof data === 'string' ? Buffer.byteLength(data) : data.length;
    },
    terminate() { this.terminated = true; },
    drain() { this.queued = 0; },
  };
}

describe('outbound budget', () => {
  test('log lines and profiler samples are dropped past DROPPABLE_BYTES queued, counted, and the totals sent once the tool reads again', () => {
    const socket = fakeSocket();
    const out = new Outbound(socket, () => { throw new Error('must not close'); });
    socket.queued = DROPPABLE_BYTES + 1;
    for (let i = 0; i < 100; i++) out.offer('log', { type: 'message', message: `line ${i}` });
    out.offer('profiler', { type: 'profiler' });
    expect(socket.sent).toHaveLength(0);
    expect(out.dropped).toEqual({ log: 100, profiler: 1, flow: 0 });
    socket.drain();
    out.offer('log', { type: 'message', message: 'after' });
    expect(socket.sent.map((s) => JSON.parse(String(s)) as unknown)).toEqual([{ type: 'dropped', log: 100, profiler: 1, flow: 0 }, { type: 'message', message: 'after' }]);
    // The totals are sent only when they change.
    out.offer('log', { type: 'message', message: 'again' });
    expect(socket.sent).toHaveLength(3);
  });

  test('replies are queued over the budget, never dropped; one that would pass the hard limit closes the connection', () => {
    const socket = fakeSocket();
    const reasons: string[] = [];
    const out = new Outbound(socket, (reason) => reasons.push(reason));
    socket.queued = OUTBOUND_BUDGET + 1;
    out.reply({ type: 'error', problem: 'x' });
    expect(socket.sent).toHaveLength(1);
    expect(out.takesFrames).toBe(false);
    socket.queued = HARD_LIMIT_BYTES - 10;
    out.reply({ type: 'error', problem: 'a reply longer than ten bytes' });
    expect(socket.terminated).toBe(true);
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(/bytes already queued/);
    out.reply({ type: 'error', problem: 'after' });
    expect(socket.sent).toHaveLength(1);
  });

  test('a connection that stays over its budget for OVER_BUDGET_MS is closed; one that drains in time is not', () => {
    const socket = fakeSocket();
    let closed = 0;
    const out = new Outbound(socket, () => { closed++; });
    socket.queued = OUTBOUND_BUDGET + 1;
    expect(out.check(1000)).toBe(false);
    expect(out.check(1000 + OVER_BUDGET_MS - 1)).toBe(false);
    socket.drain();
    expect(out.check(1000 + OVER_BUDGET_MS + 1)).toBe(false);
    socket.queued = OUTBOUND_BUDGET + 1;
    expect(out.check(10_000)).toBe(false);
    expect(out.check(10_000 + OVER_BUDGET_MS)).toBe(true);
    expect(socket.terminated).toBe(true);
    expect(closed).toBe(1);
    expect(out.open).toBe(false);
  });

  test('frames go only to a connection under its budget', () => {
    const socket = fakeSocket();
    const out = new Outbound(socket, () => undefined);
    expect(out.takesFrames).toBe(true);
    out.frame(Buffer.alloc(OUTBOUND_BUDGET + 1));
    expect(out.takesFrames).toBe(false);
  });
});

describe('rate-limited log lines', () => {
  test('the first event of a kind in a window is logged, the rest summarised with the last one when the window ends', async () => {
    const lines: string[] = [];
    let now = 0;
    const limiter = new LogLimiter((_level, _system, message) => lines.push(message), { windowMs: 40, now: () => now });
    limiter.report('refused connections', 'warning', 'slave', 'refused a connection: first');
    for (let i = 0; i < 2000; i++) limiter.report('refused connections', 'warning', 'slave', `refused a connection: ${i}`);
    limiter.report('failed frames', 'error', 'frames', 'a frame failed: other kind');
    expect(lines).toEqual(['refused a connection: first', 'a frame failed: other kind']);
    now = 40;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(lines[2]).toBe('2000 more refused connections in the last 0.0 s; the last: refused a connection: 1999');
    // A new window logs its first event at once again.
    now = 100;
    limiter.report('refused connections', 'warning', 'slave', 'refused a connection: later');
    expect(lines.at(-1)).toBe('refused a connection: later');
    limiter.flush();
    expect(lines).toHaveLength(4);
  });

  test('a long event is cut, so a 16 KB header costs a few hundred bytes of log', () => {
    const lines: string[] = [];
    const limiter = new LogLimiter((_level, _system, message) => lines.push(message));
    limiter.report('refused connections', 'warning', 'slave', 'x'.repeat(16_000));
    expect(lines[0]!.length).toBeLessThan(MAX_EVENT_CHARS + 50);
    expect(lines[0]).toMatch(/… \(15700 more characters\)$/);
  });
});

describe('bounded stderr', () => {
  test('lines are dropped while the stream has more than the limit queued, and counted once it takes them again', () => {
    const written: string[] = [];
    let queued = 0;
    const write = boundedLines({ write: (text) => written.push(text), queued: () => queued }, (count) => `${count} dropped\n`, 100);
    write('a\n');
    queued = 101;
    write('b\n');
    write('c\n');
    queued = 0;
    write('d\n');
    expect(written).toEqual(['a\n', '2 dropped\n', 'd\n']);
  });
});
