import { describe, expect, test } from 'vitest';
import { nextFrameDue } from '../src/slave/pacing.ts';

/** Start times of the frames a pump paced by nextFrameDue renders in `ms`, each taking `cost(i)`. */
function frameStarts(fps: number, ms: number, cost: (i: number) => number): number[] {
  const starts: number[] = [];
  let now = 0, due = 0;
  for (let i = 0; ; i++) {
    now = Math.max(now, due); // the pump wakes when the frame is due, or renders at once if late
    if (now >= ms) return starts;
    starts.push(now);
    due = nextFrameDue(due, fps, now);
    now += cost(i);
  }
}

describe('frame pacing', () => {
  test('frames cheaper than the interval come at the asked rate, their cost not added to it', () => {
    expect(frameStarts(30, 999, () => 25)).toHaveLength(30);
    expect(frameStarts(60, 999, () => 10)).toHaveLength(60);
  });

  test('frames dearer than the interval come back to back', () => {
    const starts = frameStarts(30, 1000, () => 50);
    expect(starts).toHaveLength(20);
    for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBe(50);
  });

  test('after a stall the stream resumes at its rate: no burst of catch-up frames', () => {
    const starts = frameStarts(20, 2000, (i) => (i === 3 ? 500 : 5));
    const gaps = starts.slice(1).map((t, i) => t - starts[i]!);
    expect(gaps[3]).toBe(500);
    // Every later frame keeps the 50 ms interval from the late one.
    for (const gap of gaps.slice(4)) expect(gap).toBeCloseTo(50, 9);
  });
});
