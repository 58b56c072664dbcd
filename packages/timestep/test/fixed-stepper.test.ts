import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { FixedStepper, TimestepError } from '../src/index.ts';

describe('FixedStepper', () => {
  test('turns frame time into whole steps and an interpolation alpha', () => {
    const stepper = new FixedStepper({ step: 0.01 });
    expect(stepper.advance(0.025)).toBe(2);
    expect(stepper.alpha).toBeCloseTo(0.5, 9);
    expect(stepper.advance(0.004)).toBe(0);
    expect(stepper.alpha).toBeCloseTo(0.9, 9);
    expect(stepper.advance(0.001)).toBe(1);
    expect(stepper.alpha).toBeCloseTo(0, 6);
  });

  test('caps steps per frame and drops the excess instead of spiralling', () => {
    const stepper = new FixedStepper({ step: 0.01, maxStepsPerFrame: 4 });
    expect(stepper.advance(1)).toBe(4);
    expect(stepper.dropped).toBeCloseTo(0.96, 9);
    expect(stepper.alpha).toBeLessThan(1);
    // The next frame is back to normal: no backlog was kept.
    expect(stepper.advance(0.01)).toBe(1);
  });

  test('accounts for every second: steps + pending + dropped = input (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 0.5, noNaN: true }), { maxLength: 200 }), (frames) => {
        const stepper = new FixedStepper({ step: 1 / 60, maxStepsPerFrame: 5 });
        let total = 0;
        let stepped = 0;
        for (const f of frames) {
          total += f;
          const steps = stepper.advance(f);
          expect(steps).toBeLessThanOrEqual(5);
          expect(stepper.alpha).toBeGreaterThanOrEqual(0);
          expect(stepper.alpha).toBeLessThan(1);
          stepped += steps * stepper.step;
        }
        expect(stepped + stepper.pending + stepper.dropped).toBeCloseTo(total, 6);
      }),
      { numRuns: 200 },
    );
  });

  test('rejects bad options and bad frame times with a typed error', () => {
    expect(() => new FixedStepper({ step: 0 })).toThrow(TimestepError);
    expect(() => new FixedStepper({ step: Number.NaN })).toThrow(TimestepError);
    expect(() => new FixedStepper({ maxStepsPerFrame: 0 })).toThrow(TimestepError);
    expect(() => new FixedStepper({ maxStepsPerFrame: 2.5 })).toThrow(TimestepError);
    const stepper = new FixedStepper();
    for (const bad of [-1, Number.NaN, Infinity]) expect(() => stepper.advance(bad)).toThrow(TimestepError);
    expect(stepper.pending).toBe(0);
  });
});
