import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { TimeDebt, TimestepError } from '../src/index.ts';

describe('TimeDebt', () => {
  test('pays back a 1/paybackFrames share of the debt each frame', () => {
    const book = new TimeDebt({ paybackFrames: 10, maxAdjust: 1 });
    // The wall moved 30 ms but the filter proposes 20 ms: 10 ms is owed, 1 ms paid now.
    const step = book.settle(0.03, 0.02);
    expect(step).toBeCloseTo(0.021, 12);
    expect(book.debt).toBeCloseTo(0.009, 12);
  });

  test('limits each payment to maxAdjust of the step', () => {
    const book = new TimeDebt({ paybackFrames: 1, maxAdjust: 0.1, maxDebt: 1 });
    const step = book.settle(0.1, 0.02);
    expect(step).toBeCloseTo(0.022, 12);
    expect(book.debt).toBeCloseTo(0.078, 12);
    // Negative debt (game ahead of the wall) shortens the step by at most the same share.
    const ahead = new TimeDebt({ paybackFrames: 1, maxAdjust: 0.1, maxDebt: 1 });
    expect(ahead.settle(0, 0.02)).toBeCloseTo(0.018, 12);
  });

  test('converges to zero once the wall and the filter agree', () => {
    const book = new TimeDebt();
    book.settle(0.2, 0.016);
    for (let i = 0; i < 600; i++) book.settle(0.016, 0.016);
    expect(Math.abs(book.debt)).toBeLessThan(1e-6);
  });

  test('never holds more than maxDebt; the rest is forgiven and counted (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.double({ min: 0, max: 5, noNaN: true }), fc.double({ min: 0, max: 0.1, noNaN: true })), { maxLength: 200 }), (frames) => {
        const book = new TimeDebt({ maxDebt: 0.25 });
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
    expect(() => new TimeDebt({ paybackFrames: 0 })).toThrow(TimestepError);
    expect(() => new TimeDebt({ maxAdjust: 2 })).toThrow(TimestepError);
    expect(() => new TimeDebt({ maxDebt: -1 })).toThrow(TimestepError);
    expect(() => new TimeDebt({ maxDebt: Number.NaN })).toThrow(TimestepError);
  });
});
