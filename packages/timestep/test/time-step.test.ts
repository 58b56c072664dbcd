import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { TimeStep, TimestepError, type TimeStepPolicy } from '../src/index.ts';

const HZ60 = 1 / 60;

describe('TimeStep policies', () => {
  test('variable passes the raw frame time through', () => {
    const ts = new TimeStep({ policy: 'variable' });
    expect(ts.advance(0.02)).toBe(0.02);
    expect(ts.advance(0.03)).toBe(0.03);
    expect(ts.time).toBeCloseTo(0.05, 12);
    expect(ts.steps).toBe(1);
    expect(ts.alpha).toBe(1);
  });

  test('smoothed keeps the raw delta beside the smoothed one', () => {
    const ts = new TimeStep();
    expect(ts.policy).toBe('smoothed');
    for (let i = 0; i < 20; i++) ts.advance(HZ60);
    ts.advance(0.1);
    expect(ts.rawDelta).toBe(0.1);
    expect(ts.smoothedDelta).toBeCloseTo(HZ60, 9);
  });

  test('fixed runs whole steps and exposes alpha', () => {
    const ts = new TimeStep({ policy: 'fixed', fixedStep: 0.01 });
    expect(ts.advance(0.025)).toBeCloseTo(0.02, 12);
    expect(ts.steps).toBe(2);
    expect(ts.updateDelta).toBe(0.01);
    expect(ts.alpha).toBeCloseTo(0.5, 9);
  });

  test('fixed caps steps per frame (no spiral of death)', () => {
    const ts = new TimeStep({ policy: 'fixed', fixedStep: 0.01, maxStepsPerFrame: 3, maxFrameTime: 1 });
    ts.advance(0.2);
    expect(ts.steps).toBe(3);
    expect(ts.stepper.dropped).toBeCloseTo(0.17, 9);
  });

  test('rejects an unknown policy and bad options', () => {
    expect(() => new TimeStep({ policy: 'wobbly' as TimeStepPolicy })).toThrow(TimestepError);
    expect(() => new TimeStep({ fixedStep: 0 })).toThrow(TimestepError);
    expect(() => new TimeStep({ maxFrameTime: -1 })).toThrow(TimestepError);
    expect(() => new TimeStep({ timeScale: Number.NaN })).toThrow(TimestepError);
    expect(() => new TimeStep({ lerp: 2 })).toThrow(TimestepError);
    expect(() => new TimeStep({ debt: { paybackFrames: 0 } })).toThrow(TimestepError);
  });
});

describe('TimeStep time scale and pause', () => {
  test('time scale multiplies the game delta but not the debt', () => {
    const ts = new TimeStep({ policy: 'smoothed', timeScale: 0.5 });
    for (let i = 0; i < 60; i++) ts.advance(HZ60);
    expect(ts.delta).toBeCloseTo(HZ60 / 2, 9);
    expect(ts.time).toBeCloseTo(0.5, 6);
    expect(Math.abs(ts.debt)).toBeLessThan(1e-9);
    ts.timeScale = 2;
    ts.advance(HZ60);
    expect(ts.delta).toBeCloseTo(HZ60 * 2, 9);
    expect(() => (ts.timeScale = -1)).toThrow(TimestepError);
    expect(() => (ts.timeScale = Number.NaN)).toThrow(TimestepError);
  });

  test('fixed policy under time scale runs fewer steps of the same size', () => {
    const ts = new TimeStep({ policy: 'fixed', timeScale: 0.5 });
    let steps = 0;
    for (let i = 0; i < 60; i++) {
      ts.advance(HZ60);
      steps += ts.steps;
    }
    expect(steps).toBeGreaterThanOrEqual(29);
    expect(steps).toBeLessThanOrEqual(30);
    expect(ts.updateDelta).toBe(HZ60);
  });

  test('pause stops the game clock, keeps measuring, and owes nothing', () => {
    const ts = new TimeStep();
    for (let i = 0; i < 30; i++) ts.advance(HZ60);
    const before = ts.time;
    ts.pause();
    expect(ts.paused).toBe(true);
    for (let i = 0; i < 30; i++) expect(ts.advance(1 / 30)).toBe(0);
    expect(ts.steps).toBe(0);
    expect(ts.time).toBe(before);
    expect(ts.pausedTime).toBeCloseTo(1, 9);
    // The filter followed the new rate while paused: play resumes at 30 Hz straight away.
    expect(ts.smoothedDelta).toBeCloseTo(1 / 30, 4);
    ts.resume();
    expect(ts.advance(1 / 30)).toBeCloseTo(1 / 30, 4);
    expect(Math.abs(ts.debt)).toBeLessThan(0.001);
  });
});

describe('TimeStep stalls and bad input', () => {
  test('a long stall neither jumps the simulation nor grows the debt', () => {
    for (const policy of ['smoothed', 'variable', 'fixed'] as const) {
      const ts = new TimeStep({ policy });
      for (let i = 0; i < 30; i++) ts.advance(HZ60);
      const delta = ts.advance(30); // a debugger pause of 30 s
      expect(delta).toBeLessThanOrEqual(2 * HZ60);
      expect(ts.stalls).toBe(1);
      expect(ts.stalledTime).toBeCloseTo(30 - HZ60, 9);
      expect(Math.abs(ts.debt)).toBeLessThan(0.001);
    }
  });

  test('advance() throws a typed error for negative, NaN and infinite frame times', () => {
    const ts = new TimeStep();
    ts.advance(HZ60);
    for (const bad of [-HZ60, Number.NaN, Infinity, -Infinity]) {
      expect(() => ts.advance(bad)).toThrow(TimestepError);
    }
    expect(() => ts.advance(-1)).toThrow(/tick\(\)/);
    expect(ts.frame).toBe(1);
    expect(Number.isFinite(ts.time)).toBe(true);
  });

  test('tick() clamps a clock that runs backwards to a zero frame and re-bases', () => {
    const ts = new TimeStep({ policy: 'variable' });
    expect(ts.tick(100)).toBe(0);
    expect(ts.tick(100 + HZ60)).toBeCloseTo(HZ60, 9);
    expect(ts.tick(99)).toBe(0);
    expect(ts.clockRewinds).toBe(1);
    expect(ts.tick(99 + HZ60)).toBeCloseTo(HZ60, 9);
    expect(() => ts.tick(Number.NaN)).toThrow(TimestepError);
    expect(() => ts.tick(Infinity)).toThrow(TimestepError);
  });

  test('no sequence of timestamps puts NaN or a negative step into any clock (property)', () => {
    const stamp = fc.oneof(
      fc.double({ min: -1e6, max: 1e6, noNaN: true }),
      fc.constantFrom(Number.NaN, Infinity, -Infinity, 0, -0),
    );
    fc.assert(
      fc.property(fc.constantFrom<TimeStepPolicy>('smoothed', 'variable', 'fixed'), fc.array(stamp, { maxLength: 120 }), (policy, stamps) => {
        const ts = new TimeStep({ policy });
        for (const now of stamps) {
          try {
            ts.tick(now);
          } catch (error) {
            expect(error).toBeInstanceOf(TimestepError);
            expect(Number.isFinite(now)).toBe(false);
          }
          expect(Number.isFinite(ts.time)).toBe(true);
          expect(ts.delta).toBeGreaterThanOrEqual(0);
          expect(ts.delta).toBeLessThanOrEqual(ts.maxFrameTime * 1.1);
          expect(Number.isFinite(ts.debt)).toBe(true);
          expect(Math.abs(ts.debt)).toBeLessThanOrEqual(0.25);
        }
      }),
      { numRuns: 200 },
    );
  });
});
