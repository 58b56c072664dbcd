import { TimestepError } from './errors.ts';
import { defaultScheduler, type FrameScheduler } from './frame-scheduler.ts';
import type { TimeStep } from './time-step.ts';

/** What a FrameLoop calls each frame, in this order. Times are in seconds. */
export interface FrameCallbacks {
  /** Start of the frame, before the clock advances (poll input here). */
  begin?: (loop: FrameLoop) => void;
  /**
   * Advance the game by `dt`. Called once per frame under the variable and smoothed policies
   * (not while paused), and `steps` times with `fixedStep` under the fixed policy.
   */
  update: (dt: number, loop: FrameLoop) => void;
  /** Draw; `alpha` in [0, 1) interpolates fixed steps (1 under the other policies). */
  draw?: (alpha: number, loop: FrameLoop) => void;
  /** End of the frame (present, collect stats). */
  end?: (loop: FrameLoop) => void;
}

/**
 * A frame loop around one TimeStep: begin, update (as the policy says), draw, end. Each loop is
 * its own instance with its own clock and scheduler, so several can run side by side.
 */
export class FrameLoop {
  /** The clock this loop advances each frame. */
  readonly timeStep: TimeStep;
  /** Requests the next frame: `requestAnimationFrame` in a browser, a timer elsewhere, unless given. */
  readonly scheduler: FrameScheduler;
  private readonly callbacks: FrameCallbacks;
  private isRunning = false;
  private readonly onFrame: (now: number) => void;

  constructor(timeStep: TimeStep, callbacks: FrameCallbacks, scheduler: FrameScheduler = defaultScheduler()) {
    if (typeof callbacks.update !== 'function') {
      throw new TimestepError('callbacks.update must be a function (dt, loop) => void.');
    }
    this.timeStep = timeStep;
    this.callbacks = callbacks;
    this.scheduler = scheduler;
    // Bound once here: no closure per frame.
    this.onFrame = (now: number): void => {
      if (!this.isRunning) return;
      this.frame(now);
      // A callback may have stopped the loop during this frame.
      if (this.running) this.scheduler.request(this.onFrame);
    };
  }

  /** True between `start()` and `stop()` (a callback may stop the loop mid-frame). */
  get running(): boolean {
    return this.isRunning;
  }

  /** Starts requesting frames. The first frame only sets the clock's reference time. */
  start(): void {
    if (this.isRunning) return;
    this.isRunning = true;
    this.timeStep.resetReference();
    this.timeStep.tick(this.scheduler.now());
    this.scheduler.request(this.onFrame);
  }

  /** Stops requesting frames; `start` resumes without counting the stopped time. */
  stop(): void {
    this.isRunning = false;
    this.scheduler.cancel();
  }

  /** Runs one frame at timestamp `now` (seconds). The scheduler calls this; tests may too. */
  frame(now: number): void {
    const { begin, update, draw, end } = this.callbacks;
    const ts = this.timeStep;
    begin?.(this);
    ts.tick(now);
    const steps = ts.steps;
    const dt = ts.updateDelta;
    for (let i = 0; i < steps; i++) update(dt, this);
    draw?.(ts.alpha, this);
    end?.(this);
  }
}
