import type { FixedStepperOptions } from './api.ts';
import { requireFinite, requireInteger } from './assert.ts';

/**
 * A fixed time step driven by variable frames: frame time goes into an accumulator and comes out
 * as whole steps, with the leftover as an interpolation `alpha` for drawing between the previous
 * and current simulation states. At most `maxStepsPerFrame` steps run per frame; the excess is
 * dropped (and counted), so a slow frame slows the game down rather than feeding a spiral of
 * death where each frame has more steps to catch up on than the last.
 */
export class FixedStepper {
  /** Length of one fixed step in seconds (positive). Default 1/60. */
  readonly step: number = 1 / 60;
  /** Most steps `advance` returns for one frame (an integer, at least 1); time past it is dropped. Default 8. */
  readonly maxStepsPerFrame: number = 8;
  private accumulator = 0;
  private droppedTotal = 0;
  private lastSteps = 0;

  constructor(options: FixedStepperOptions = {}) {
    const step = options.step ?? 1 / 60;
    const maxStepsPerFrame = options.maxStepsPerFrame ?? 8;
    requireFinite('step', step, Number.MIN_VALUE);
    requireInteger('maxStepsPerFrame', maxStepsPerFrame, 1);
    this.step = step;
    this.maxStepsPerFrame = maxStepsPerFrame;
  }

  /** Steps the last advance asked for. */
  get steps(): number {
    return this.lastSteps;
  }

  /** Leftover time as a fraction of a step, in [0, 1): how far to interpolate when drawing. */
  get alpha(): number {
    return this.accumulator / this.step;
  }

  /** Time in the accumulator not yet simulated, in seconds. */
  get pending(): number {
    return this.accumulator;
  }

  /** Time thrown away by the steps-per-frame cap, in seconds. */
  get dropped(): number {
    return this.droppedTotal;
  }

  /**
   * Adds `frameTime` seconds (finite, at least 0) and returns how many fixed steps to run now.
   * @throws {@link TimestepError} when `frameTime` is negative, NaN or infinite.
   */
  advance(frameTime: number): number {
    requireFinite('frameTime', frameTime, 0);
    const step = this.step;
    let acc = this.accumulator + frameTime;
    let steps = Math.floor(acc / step);
    if (steps > this.maxStepsPerFrame) {
      const excess = (steps - this.maxStepsPerFrame) * step;
      this.droppedTotal += excess;
      acc -= excess;
      steps = this.maxStepsPerFrame;
    }
    acc -= steps * step;
    // Rounding can leave a hair below zero or at a full step; keep alpha in [0, 1).
    if (acc < 0) acc = 0;
    if (acc >= step) acc = step * 0.999999;
    this.accumulator = acc;
    this.lastSteps = steps;
    return steps;
  }

  /** Empties the accumulator (e.g. after loading a level). */
  reset(): void {
    this.accumulator = 0;
    this.lastSteps = 0;
  }
}
