import { requireFinite } from './assert.ts';
import { TimestepError } from './errors.ts';

/**
 * Where a FrameLoop gets its frames from: a clock and a way to ask for the next frame. Times are
 * in seconds. Implement it to drive a loop from anything (a test, a worker, a native host).
 */
export interface FrameScheduler {
  /** The current time in seconds. */
  now(): number;
  /** Calls `frame` once, at the next frame, with that frame's timestamp in seconds. */
  request(frame: (now: number) => void): void;
  /** Drops the pending request, if any. */
  cancel(): void;
}

/** Frames from the browser's requestAnimationFrame (timestamps from performance.now). */
export function animationFrameScheduler(): FrameScheduler {
  if (typeof globalThis.requestAnimationFrame !== 'function') {
    throw new TimestepError('requestAnimationFrame is not available here; use timerScheduler() outside a browser.');
  }
  let handle = 0;
  return {
    now: () => performance.now() / 1000,
    request(frame) {
      handle = requestAnimationFrame((ms) => {
        handle = 0;
        frame(ms / 1000);
      });
    },
    cancel() {
      if (handle !== 0) cancelAnimationFrame(handle);
      handle = 0;
    },
  };
}

/**
 * Frames from a timer at `hz` frames per second (Node, workers, servers). Each frame is aimed
 * at the next multiple of the period from the start, so timer lateness does not accumulate.
 */
export function timerScheduler(hz = 60): FrameScheduler {
  requireFinite('hz', hz, Number.MIN_VALUE);
  const periodMs = 1000 / hz;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let nextMs = Number.NaN;
  return {
    now: () => performance.now() / 1000,
    request(frame) {
      const nowMs = performance.now();
      if (Number.isNaN(nextMs) || nextMs < nowMs - periodMs) nextMs = nowMs;
      nextMs += periodMs;
      timer = setTimeout(() => {
        timer = undefined;
        frame(performance.now() / 1000);
      }, Math.max(0, nextMs - nowMs));
    },
    cancel() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      nextMs = Number.NaN;
    },
  };
}

/** requestAnimationFrame where it exists, otherwise a 60 Hz timer. */
export function defaultScheduler(): FrameScheduler {
  return typeof globalThis.requestAnimationFrame === 'function' ? animationFrameScheduler() : timerScheduler(60);
}
