import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { SMOOTHING_HISTORY, SMOOTHING_TRIM, SmoothingFilter, TimeStep, TimestepError } from '../src/index.ts';
import { stepVariation, zigzag } from './traces.ts';

/** The post's recipe written the slow, obvious way: sort the last 11, drop 2+2, average 7. */
function trimmedMeanBySorting(window: readonly number[], trim = SMOOTHING_TRIM): number {
  const sorted = [...window].sort((a, b) => a - b);
  const kept = sorted.slice(trim, sorted.length - trim);
  return kept.reduce((s, v) => s + v, 0) / kept.length;
}

describe('SmoothingFilter', () => {
  test('keeps 11 frames and drops the two highest and two lowest', () => {
    expect(SMOOTHING_HISTORY).toBe(11);
    expect(SMOOTHING_TRIM).toBe(2);
    const filter = new SmoothingFilter({ lerp: 1, initial: 0.01 });
    // Four outliers (two high, two low) among seven 20 ms frames: the mean ignores them all.
    for (const ms of [20, 20, 500, 20, 1, 20, 20, 300, 20, 0, 20]) filter.push(ms / 1000);
    expect(filter.mean).toBeCloseTo(0.02, 12);
    expect(filter.step).toBeCloseTo(0.02, 12);
  });

  test('matches the sorted reference on any frame times (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 11, maxLength: 60 }), (times) => {
        const filter = new SmoothingFilter({ lerp: 1 });
        for (const t of times) filter.push(t);
        const expected = trimmedMeanBySorting(times.slice(-SMOOTHING_HISTORY));
        expect(filter.mean).toBeCloseTo(expected, 9);
      }),
      { numRuns: 300 },
    );
  });

  test('matches the sorted reference when frame times repeat, as rAF timestamps do (property)', () => {
    const quantised = fc.constantFrom(0, 0.0166, 0.0167, 0.0168, 0.0333, 0.05, 0.1);
    fc.assert(
      fc.property(fc.array(quantised, { minLength: 11, maxLength: 80 }), (times) => {
        const filter = new SmoothingFilter({ lerp: 1, initial: 0.0167 });
        times.forEach((t, n) => {
          filter.push(t);
          const window = [...Array<number>(Math.max(0, 10 - n)).fill(0.0167), ...times.slice(Math.max(0, n - 10), n + 1)];
          expect(filter.mean).toBeCloseTo(trimmedMeanBySorting(window), 12);
        });
      }),
      { numRuns: 300 },
    );
  });

  test('lerps from the last step towards the trimmed mean', () => {
    const filter = new SmoothingFilter({ lerp: 0.25, initial: 0.02 });
    const step = filter.push(0.02);
    expect(step).toBeCloseTo(0.02, 12);
    // A rate change: the mean moves first, the step follows a quarter of the way each frame.
    for (let i = 0; i < 11; i++) filter.push(0.04);
    const before = filter.step;
    filter.push(0.04);
    expect(filter.step).toBeCloseTo(before + (0.04 - before) * 0.25, 12);
  });

  test('the first frame fills the history; reset refills it', () => {
    const filter = new SmoothingFilter();
    expect(filter.step).toBe(0);
    expect(filter.push(0.03)).toBeCloseTo(0.03, 12);
    filter.reset(0.01);
    expect(filter.step).toBe(0.01);
    expect(filter.push(0.01)).toBeCloseTo(0.01, 12);
  });

  test('never leaves [min, max] of its inputs (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0.001, max: 0.2, noNaN: true }), { minLength: 1, maxLength: 80 }), fc.double({ min: 0.01, max: 1, noNaN: true }), (times, lerp) => {
        const filter = new SmoothingFilter({ lerp });
        const lo = Math.min(...times);
        const hi = Math.max(...times);
        for (const t of times) {
          const step = filter.push(t);
          expect(step).toBeGreaterThanOrEqual(lo - 1e-15);
          expect(step).toBeLessThanOrEqual(hi + 1e-15);
        }
      }),
      { numRuns: 200 },
    );
  });

  test('rejects negative, NaN and infinite frame times with a typed error', () => {
    const filter = new SmoothingFilter();
    for (const bad of [-0.001, Number.NaN, Infinity, -Infinity]) {
      expect(() => filter.push(bad)).toThrow(TimestepError);
    }
    expect(filter.step).toBe(0);
    filter.push(0.016);
    expect(() => filter.push(Number.NaN)).toThrow(/frameTime must be a finite number >= 0/);
    expect(filter.step).toBeCloseTo(0.016, 12);
  });

  test('rejects a lerp outside (0, 1] and a bad initial value', () => {
    for (const lerp of [0, -0.5, 1.5, Number.NaN]) expect(() => new SmoothingFilter({ lerp })).toThrow(TimestepError);
    expect(() => new SmoothingFilter({ initial: -1 })).toThrow(TimestepError);
    expect(() => new SmoothingFilter({ initial: Number.NaN })).toThrow(TimestepError);
  });

  test('window and trim: any length, odd or even, matches the sorted reference (property)', () => {
    const shape = fc.integer({ min: 1, max: 24 }).chain((window) => fc.tuple(fc.constant(window), fc.integer({ min: 0, max: Math.floor((window - 1) / 2) })));
    fc.assert(
      fc.property(shape, fc.array(fc.constantFrom(0, 0.0166, 0.0167, 0.025, 0.0333, 0.1), { minLength: 1, maxLength: 60 }), ([window, trim], times) => {
        const filter = new SmoothingFilter({ lerp: 1, initial: 0.0167, window, trim });
        expect(filter.window).toBe(window);
        expect(filter.trim).toBe(trim);
        times.forEach((t, n) => {
          filter.push(t);
          const kept = times.slice(Math.max(0, n + 1 - window), n + 1);
          const history = [...Array<number>(window - kept.length).fill(0.0167), ...kept];
          expect(filter.mean).toBeCloseTo(trimmedMeanBySorting(history, trim), 12);
        });
      }),
      { numRuns: 300 },
    );
  });

  test('an even window of 10 with no trim removes the 60/40 Hz zig-zag; the default 11 cannot', () => {
    const frames = zigzag().frames;
    const run = (filter: SmoothingFilter): Float64Array => Float64Array.from(frames, (t) => filter.push(t));
    const even = run(new SmoothingFilter({ initial: 1 / 60, window: 10, trim: 0 })).subarray(60);
    const post = run(new SmoothingFilter({ initial: 1 / 60 })).subarray(60);
    // Five frames of each rate in every window: the mean is 1/48 s, the step settles on it.
    expect(stepVariation(even).max).toBeLessThan(1e-12);
    expect(even[even.length - 1]).toBeCloseTo(1 / 48, 12);
    expect(stepVariation(post).mean).toBeGreaterThan(2e-4);
    // Through a TimeStep (debt paid back as usual) the step still varies 7x less than the default's.
    const steps = (options: ConstructorParameters<typeof TimeStep>[0]): Float64Array => {
      const ts = new TimeStep(options);
      return Float64Array.from(frames, (t) => ts.advance(t));
    };
    expect(stepVariation(steps({ window: 10, trim: 0 })).mean).toBeLessThan(stepVariation(steps({})).mean / 7);
    // Without debt and lerp it is Phaser's plain 10-frame mean: a constant step.
    expect(stepVariation(steps({ window: 10, trim: 0, lerp: 1, debt: false }).subarray(10)).max).toBeLessThan(1e-12);
  });

  test('rejects a window or trim that is not an integer, out of range, or trims the whole window', () => {
    for (const window of [0, -1, 1.5, Number.NaN, Infinity, 1025]) {
      expect(() => new SmoothingFilter({ window })).toThrow(TimestepError);
      expect(() => new TimeStep({ window })).toThrow(TimestepError);
    }
    for (const trim of [-1, 0.5, Number.NaN, 6]) {
      expect(() => new SmoothingFilter({ trim })).toThrow(TimestepError);
      expect(() => new TimeStep({ trim })).toThrow(TimestepError);
    }
    expect(() => new SmoothingFilter({ window: 10, trim: 5 })).toThrow(/trim must leave at least one frame of the window: 2 \* trim < window \(10\), got 5/);
    expect(() => new SmoothingFilter({ window: 0 })).toThrow(/window must be an integer >= 1, got 0/);
    expect(() => new SmoothingFilter({ window: 1025 })).toThrow(/window must be at most 1024, got 1025/);
    expect(new SmoothingFilter({ window: 1, trim: 0 }).push(0.02)).toBe(0.02);
    expect(new SmoothingFilter({ window: 11, trim: 5 }).trim).toBe(5);
    const defaults = new TimeStep().filter;
    expect([defaults.window, defaults.trim]).toEqual([SMOOTHING_HISTORY, SMOOTHING_TRIM]);
    expect([new TimeStep({ window: 10, trim: 0 }).filter.window, new TimeStep({ window: 10, trim: 0 }).filter.trim]).toEqual([10, 0]);
  });
});
