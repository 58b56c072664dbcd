import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { TimeDebt, TimestepError } from '../src/index.ts';

const HZ60 = 1 / 60;

describe("TimeDebt, payback 'linear' (the 0.x behaviour)", () => {
  test('pays back a 1/paybackFrames share of the debt each frame', () => {
    const book = new TimeDebt({ payback: 'linear', paybackFrames: 10, maxAdjust: 1 });
    // The wall moved 30 ms but the filter proposes 20 ms: 10 ms is owed, 1 ms paid now.
    const step = book.settle(0.03, 0.02);
    expect(step).toBeCloseTo(0.021, 12);
    expect(book.debt).toBeCloseTo(0.009, 12);
  });

  test('limits each payment to maxAdjust of the step', () => {
    const book = new TimeDebt({ payback: 'linear', paybackFrames: 1, maxAdjust: 0.1, maxDebt: 1 });
    const step = book.settle(0.1, 0.02);
    expect(step).toBeCloseTo(0.022, 12);
    expect(book.debt).toBeCloseTo(0.078, 12);
    // Negative debt (game ahead of the wall) shortens the step by at most the same share.
    const ahead = new TimeDebt({ payback: 'linear', paybackFrames: 1, maxAdjust: 0.1, maxDebt: 1 });
    expect(ahead.settle(0, 0.02)).toBeCloseTo(0.018, 12);
  });

  test('converges to zero once the wall and the filter agree', () => {
    const book = new TimeDebt({ payback: 'linear' });
    book.settle(0.2, 0.016);
    for (let i = 0; i < 600; i++) book.settle(0.016, 0.016);
    expect(Math.abs(book.debt)).toBeLessThan(1e-6);
  });

});

describe('TimeDebt, both paybacks', () => {
  test.each(['guarded', 'linear'] as const)('%s: never holds more than maxDebt; the rest is forgiven and counted (property)', (payback) => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.double({ min: 0, max: 5, noNaN: true }), fc.double({ min: 0, max: 0.1, noNaN: true })), { maxLength: 200 }), (frames) => {
        const book = new TimeDebt({ payback, maxDebt: 0.25 });
        let wall = 0;
        let game = 0;
        for (const [wallDelta, step] of frames) {
          wall += wallDelta;
          game += book.settle(wallDelta, step);
          expect(Math.abs(book.debt)).toBeLessThanOrEqual(0.25 + 1e-12);
          // The books balance: wall = game + debt + forgiven.
          expect(game + book.debt + book.forgiven).toBeCloseTo(wall, 6);
        }
      }),
      { numRuns: 200 },
    );
  });

  test('clear() forgets the debt', () => {
    const book = new TimeDebt();
    book.settle(0.1, 0.016);
    book.clear();
    expect(book.debt).toBe(0);
  });

  test('rejects bad options with a typed error', () => {
    expect(() => new TimeDebt({ payback: 'eager' as never })).toThrow(TimestepError);
    expect(() => new TimeDebt({ guardFrames: 0 })).toThrow(TimestepError);
    expect(() => new TimeDebt({ guardFrames: 2.5 })).toThrow(TimestepError);
    expect(() => new TimeDebt({ guardFrames: 5000 })).toThrow(TimestepError);
    expect(() => new TimeDebt({ recurringFrames: 0.5 })).toThrow(TimestepError);
    expect(() => new TimeDebt({ recurringFrames: Number.POSITIVE_INFINITY })).toThrow(TimestepError);
    expect(() => new TimeDebt({ easing: 0 })).toThrow(TimestepError);
    expect(() => new TimeDebt({ easing: 1.5 })).toThrow(TimestepError);
    expect(() => new TimeDebt({ paybackFrames: 0 })).toThrow(TimestepError);
    expect(() => new TimeDebt({ maxAdjust: 2 })).toThrow(TimestepError);
    expect(() => new TimeDebt({ maxDebt: -1 })).toThrow(TimestepError);
    expect(() => new TimeDebt({ maxDebt: Number.NaN })).toThrow(TimestepError);
  });
});

/** Worst |drift| of a plain moving mean of `length` frames starting filled with `initial`. */
function movingMeanWorstDrift(frames: readonly number[], length: number, initial: number): number {
  const history: number[] = Array.from({ length }, () => initial);
  let drift = 0;
  let worst = 0;
  for (const frame of frames) {
    history.shift();
    history.push(frame);
    drift += frame - history.reduce((a, b) => a + b, 0) / length;
    worst = Math.max(worst, Math.abs(drift));
  }
  return worst;
}

describe("TimeDebt, payback 'guarded' (the default)", () => {
  test('is the default', () => {
    expect(new TimeDebt().payback).toBe('guarded');
  });

  test('a glitch frame is paid as far as a 10-frame moving mean would, in the same frame', () => {
    const book = new TimeDebt();
    for (let i = 0; i < 30; i++) expect(book.settle(HZ60, HZ60)).toBeCloseTo(HZ60, 12);
    // The filter ignores the 100 ms frame; a moving mean would add 8.3 ms to this frame and
    // still owe 75 ms: the guard lets the debt go no further than that.
    const step = book.settle(0.1, HZ60);
    expect(step).toBeCloseTo(HZ60 + (0.1 - HZ60) / 10, 9);
    expect(book.debt).toBeCloseTo(0.075, 9);
    expect(book.bound).toBeCloseTo(0.075, 9);
    // Then it eases down instead of dropping back: no second jump.
    let last = step;
    for (let i = 0; i < 20; i++) {
      const next = book.settle(HZ60, HZ60);
      expect(next).toBeLessThanOrEqual(last + 1e-12);
      expect(last - next).toBeLessThan(0.002);
      last = next;
    }
  });

  test('|debt| never exceeds the worst drift of a moving mean over the same frames (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.001, max: 0.25, noNaN: true }), { minLength: 1, maxLength: 300 }),
        fc.integer({ min: 1, max: 30 }),
        (frames, guardFrames) => {
          // A filter step that ignores everything: the guard alone must keep the clock honest.
          const book = new TimeDebt({ guardFrames, maxDebt: 100 });
          let worst = 0;
          for (const frame of frames) {
            book.settle(frame, HZ60);
            worst = Math.max(worst, Math.abs(book.debt));
          }
          expect(worst).toBeLessThanOrEqual(movingMeanWorstDrift(frames, guardFrames, HZ60) + 1e-12);
        },
      ),
      { numRuns: 300 },
    );
  });

  test('recurring hitches are paid as they come: after a few, they no longer move the step', () => {
    const book = new TimeDebt();
    const rises: number[] = [];
    for (let frame = 0; frame < 600; frame++) {
      const hitch = frame % 50 === 25;
      const step = book.settle(hitch ? 0.1 : HZ60, HZ60);
      if (hitch) rises.push(step - HZ60);
    }
    expect(rises[0]).toBeCloseTo(0.1 / 10 - HZ60 / 10, 9);
    // The learned share (1.7 ms a frame: one 83 ms hitch per 50 frames) pays them now.
    for (const rise of rises.slice(3)) expect(rise).toBeLessThan(0.0025);
    // With the recurring share off, every hitch forces a payment of its own.
    const plain = new TimeDebt({ recurringFrames: 0 });
    const plainRises: number[] = [];
    for (let frame = 0; frame < 600; frame++) {
      const hitch = frame % 50 === 25;
      const step = plain.settle(hitch ? 0.1 : HZ60, HZ60);
      if (hitch) plainRises.push(step - HZ60);
    }
    for (const rise of plainRises.slice(3)) expect(rise).toBeGreaterThan(0.005);
  });

  test('easing: a new debt below the guard moves the payment a fifth of the way per frame', () => {
    const book = new TimeDebt({ recurringFrames: 0, maxAdjust: 1 });
    // Build a large guard first, then settle back to no debt.
    book.settle(0.1, HZ60);
    for (let i = 0; i < 600; i++) book.settle(HZ60, HZ60);
    expect(Math.abs(book.debt)).toBeLessThan(1e-6);
    // A 30 ms debt (under the 75 ms bound): the target payment is 1 ms; eased, 0.2 ms first.
    const first = book.settle(HZ60 + 0.03, HZ60) - HZ60;
    expect(first).toBeCloseTo((0.2 * (0.03 + 0)) / 30, 4);
    const eager = new TimeDebt({ recurringFrames: 0, maxAdjust: 1, easing: 1 });
    eager.settle(0.1, HZ60);
    for (let i = 0; i < 600; i++) eager.settle(HZ60, HZ60);
    expect(eager.settle(HZ60 + 0.03, HZ60) - HZ60).toBeCloseTo(0.001, 4);
  });

  test('converges to zero once the wall and the filter agree (after a small overshoot)', () => {
    const book = new TimeDebt();
    book.settle(0.2, 0.016);
    let lowest = 0;
    for (let i = 0; i < 900; i++) {
      book.settle(0.016, 0.016);
      lowest = Math.min(lowest, book.debt);
    }
    expect(Math.abs(book.debt)).toBeLessThan(1e-3);
    // The recurring share bets the hitch comes back; when it does not, the clock runs ahead by
    // less than the debt the hitch left, and never past the guard.
    expect(-lowest).toBeLessThan(0.2 - 0.016);
    expect(-lowest).toBeLessThanOrEqual(book.bound);
  });

  test('clear() also restarts the guard and the learned share', () => {
    const book = new TimeDebt();
    for (let i = 0; i < 5; i++) book.settle(0.1, HZ60);
    expect(book.bound).toBeGreaterThan(0);
    book.clear();
    expect(book.bound).toBe(0);
    expect(book.debt).toBe(0);
    expect(book.settle(HZ60, HZ60)).toBeCloseTo(HZ60, 12);
  });
});
