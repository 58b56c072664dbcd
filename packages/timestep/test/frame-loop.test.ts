import { describe, expect, test } from 'vitest';
import { animationFrameScheduler, FrameLoop, TimeStep, TimestepError, timerScheduler, type FrameScheduler } from '../src/index.ts';

/** A scheduler the test drives by hand: `fire(now)` delivers the pending frame. */
class ManualScheduler implements FrameScheduler {
  clock = 0;
  pending: ((now: number) => void) | null = null;
  now(): number {
    return this.clock;
  }
  request(frame: (now: number) => void): void {
    this.pending = frame;
  }
  cancel(): void {
    this.pending = null;
  }
  fire(now: number): void {
    this.clock = now;
    const frame = this.pending;
    this.pending = null;
    frame?.(now);
  }
}

describe('FrameLoop', () => {
  test('calls begin, update, draw, end in order, once per frame under a variable policy', () => {
    const scheduler = new ManualScheduler();
    const calls: string[] = [];
    const loop = new FrameLoop(
      new TimeStep({ policy: 'variable' }),
      {
        begin: () => calls.push('begin'),
        update: (dt) => calls.push(`update ${dt.toFixed(3)}`),
        draw: (alpha) => calls.push(`draw ${alpha}`),
        end: () => calls.push('end'),
      },
      scheduler,
    );
    loop.start();
    expect(loop.running).toBe(true);
    scheduler.fire(0.02);
    expect(calls).toEqual(['begin', 'update 0.020', 'draw 1', 'end']);
    scheduler.fire(0.05);
    expect(calls.slice(4)).toEqual(['begin', 'update 0.030', 'draw 1', 'end']);
  });

  test('runs the fixed policy’s steps and hands draw the interpolation alpha', () => {
    const scheduler = new ManualScheduler();
    const updates: number[] = [];
    const alphas: number[] = [];
    const loop = new FrameLoop(
      new TimeStep({ policy: 'fixed', fixedStep: 0.01 }),
      { update: (dt) => updates.push(dt), draw: (alpha) => alphas.push(alpha) },
      scheduler,
    );
    loop.start();
    scheduler.fire(0.025);
    expect(updates).toEqual([0.01, 0.01]);
    expect(alphas[0]).toBeCloseTo(0.5, 9);
  });

  test('pause skips updates but keeps drawing; stop cancels the pending frame', () => {
    const scheduler = new ManualScheduler();
    let updates = 0;
    let draws = 0;
    const ts = new TimeStep();
    const loop = new FrameLoop(ts, { update: () => updates++, draw: () => draws++ }, scheduler);
    loop.start();
    scheduler.fire(1 / 60);
    ts.pause();
    scheduler.fire(2 / 60);
    expect([updates, draws]).toEqual([1, 2]);
    loop.stop();
    expect(loop.running).toBe(false);
    expect(scheduler.pending).toBeNull();
  });

  test('a callback that stops the loop prevents the next frame request', () => {
    const scheduler = new ManualScheduler();
    const stopAtEnd = (l: FrameLoop): void => {
      l.stop();
    };
    const loop = new FrameLoop(new TimeStep(), { update: () => undefined, end: stopAtEnd }, scheduler);
    loop.start();
    scheduler.fire(1 / 60);
    expect(loop.running).toBe(false);
    expect(scheduler.pending).toBeNull();
  });

  test('loops are independent instances with their own clocks', () => {
    const a = new ManualScheduler();
    const b = new ManualScheduler();
    const seen = { a: 0, b: 0 };
    const loopA = new FrameLoop(new TimeStep({ policy: 'variable' }), { update: (dt) => (seen.a += dt) }, a);
    const loopB = new FrameLoop(new TimeStep({ policy: 'variable', timeScale: 2 }), { update: (dt) => (seen.b += dt) }, b);
    loopA.start();
    loopB.start();
    a.fire(0.1);
    b.fire(0.1);
    expect(seen.a).toBeCloseTo(0.1, 12);
    expect(seen.b).toBeCloseTo(0.2, 12);
  });

  test('a Node timer loop delivers frames', async () => {
    let frames = 0;
    const ts = new TimeStep({ policy: 'smoothed' });
    await new Promise<void>((resolve) => {
      const loop = new FrameLoop(
        ts,
        {
          update: () => undefined,
          end: () => {
            if (++frames === 5) {
              loop.stop();
              resolve();
            }
          },
        },
        timerScheduler(200),
      );
      loop.start();
    });
    expect(frames).toBe(5);
    expect(ts.time).toBeGreaterThan(0);
    expect(Number.isFinite(ts.time)).toBe(true);
  });

  test('bad input: a missing update callback, a bad rate, no requestAnimationFrame in Node', () => {
    const ts = new TimeStep();
    expect(() => new FrameLoop(ts, {} as never, new ManualScheduler())).toThrow(TimestepError);
    expect(() => timerScheduler(0)).toThrow(TimestepError);
    expect(() => timerScheduler(Number.NaN)).toThrow(TimestepError);
    expect(() => animationFrameScheduler()).toThrow(/timerScheduler/);
  });
});
