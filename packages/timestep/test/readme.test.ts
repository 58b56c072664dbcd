// The README's examples, run as written (console output collected instead of printed).
import { expect, test } from 'vitest';
import { FrameLoop, TimeStep } from '../src/index.ts';

test('README: smoothing a measured frame time', () => {
  const log: number[][] = [];
  const console = { log: (...values: number[]) => log.push(values) };

  // --- README example 1 ---
  const clock = new TimeStep(); // policy 'smoothed': BitSquid's filter plus time debt
  for (const ms of [16.7, 16.6, 100, 16.7, 16.7]) {
    // a 100 ms glitch frame in the middle
    const dt = clock.advance(ms / 1000); // seconds the game advances this frame
    console.log(clock.rawDelta, dt, clock.debt);
  }
  // --- end ---

  expect(log[2]![0]).toBe(0.1);
  for (const [, dt] of log.slice(0, 2)) expect(Math.abs(dt! - 1 / 60)).toBeLessThan(0.0001);
  // The glitch frame's step grows as far as a 10-frame mean would (8.3 ms), then eases down.
  expect(log[2]![1]! - 1 / 60).toBeCloseTo(0.0083, 3);
  expect(log[3]![1]!).toBeLessThan(log[2]![1]!);
  expect(log[4]![1]!).toBeLessThan(log[3]![1]!);
  expect(log[2]![2]!).toBeCloseTo(0.075, 3); // the rest is owed, and paid back over the next frames
  expect(log[4]![2]!).toBeGreaterThan(0.05);
});

test('README: a fixed-step frame loop with interpolation', async () => {
  let drawn = 0;
  const render = (x: number): void => {
    drawn = x;
  };

  // --- README example 2 ---
  const player = { x: 0, previousX: 0 };
  const loop = new FrameLoop(new TimeStep({ policy: 'fixed', fixedStep: 1 / 120 }), {
    update(dt) {
      player.previousX = player.x;
      player.x += 50 * dt; // 50 units per second, 120 times a second
    },
    draw(alpha) {
      render(player.previousX + (player.x - player.previousX) * alpha);
    },
  });
  loop.start(); // requestAnimationFrame in a browser, a 60 Hz timer in Node; loop.stop() ends it
  // --- end ---

  await new Promise((resolve) => setTimeout(resolve, 150));
  loop.stop();
  expect(loop.running).toBe(false);
  expect(player.x).toBeGreaterThan(0);
  expect(drawn).toBeGreaterThanOrEqual(player.previousX);
  expect(drawn).toBeLessThanOrEqual(player.x);
});

test('README: an even filter window', () => {
  const log: number[] = [];
  const console = { log: (value: number) => log.push(value) };
  const filtered: number[] = [];

  // --- README example 3 ---
  const even = new TimeStep({ window: 12, trim: 2 }); // six frames of each rate in every window
  for (let i = 0; i < 120; i++) even.advance(i % 2 === 0 ? 1 / 60 : 1 / 40); // 60/40 Hz zig-zag
  console.log(even.smoothedDelta); // 1/48 s, the same every frame; the default window still swings
  // --- end ---

  expect(log[0]).toBeCloseTo(1 / 48, 12);
  const post = new TimeStep();
  for (let i = 0; i < 120; i++) {
    post.advance(i % 2 === 0 ? 1 / 60 : 1 / 40);
    filtered.push(post.smoothedDelta);
  }
  expect(Math.abs(filtered[119]! - filtered[118]!)).toBeGreaterThan(1e-4);
});
