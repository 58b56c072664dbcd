import type { SmoothingFilterOptions } from './api.ts';
import { requireFinite, requireInRange, requireInteger } from './assert.ts';
import { TimestepError } from './errors.ts';

/** Frames of history the BitSquid filter keeps. */
export const SMOOTHING_HISTORY = 11;
/** Highest and lowest values the filter throws away (each side). */
export const SMOOTHING_TRIM = 2;
/** Largest `window` a filter accepts (the insertion pass is linear in it). */
const MAX_WINDOW = 1024;

/**
 * The time step filter of BitSquid's "Time Step Smoothing" (2010): keep the last 11 frame times,
 * throw away the two highest and the two lowest, average the remaining 7, then lerp from the
 * last step towards that mean. `window` and `trim` change the 11 and the 2 (see
 * SmoothingFilterOptions): an even window with no trim is Phaser's plain mean.
 *
 * Trimming makes single glitch frames (and even two in a row) vanish from the prediction; the
 * lerp keeps the step from following a zig-zag between two frame rates. Each frame swaps one
 * value in a sorted copy of a fixed 11-slot Float64Array ring (one insertion-sort pass) and sums
 * the middle seven: no sort call, no allocation.
 */
export class SmoothingFilter {
  // Every numeric field starts as a number: a field that starts `undefined` is stored tagged,
  // and every write of a new double to it would then allocate.
  /** The lerp factor in (0, 1]. */
  readonly lerp: number = 0.5;
  /** Frame times remembered (the post's 11 by default). */
  readonly window: number = SMOOTHING_HISTORY;
  /** Highest and lowest values dropped, each side (the post's 2 by default). */
  readonly trim: number = SMOOTHING_TRIM;
  /** The last `window` frame times in arrival order (a ring; `head` is the oldest). */
  private readonly history: Float64Array;
  /** The same values kept sorted, so trimming is taking the middle ones. */
  private readonly sorted: Float64Array;
  private head = 0;
  private filled = false;
  private lastStep = 0;
  private lastMean = 0;

  constructor(options: SmoothingFilterOptions = {}) {
    const lerp = options.lerp ?? 0.5;
    const window = options.window ?? SMOOTHING_HISTORY;
    const trim = options.trim ?? SMOOTHING_TRIM;
    requireInRange('lerp', lerp, Number.MIN_VALUE, 1);
    requireInteger('window', window, 1);
    if (window > MAX_WINDOW) throw new TimestepError(`window must be at most ${MAX_WINDOW}, got ${window}.`);
    requireInteger('trim', trim, 0);
    if (2 * trim >= window) {
      throw new TimestepError(`trim must leave at least one frame of the window: 2 * trim < window (${window}), got ${trim}.`);
    }
    this.lerp = lerp;
    this.window = window;
    this.trim = trim;
    this.history = new Float64Array(window);
    this.sorted = new Float64Array(window);
    if (options.initial !== undefined) this.reset(options.initial);
  }

  /** The step returned by the last push (0 before the first). */
  get step(): number {
    return this.lastStep;
  }

  /** The trimmed mean of the last push, before the lerp (0 before the first). */
  get mean(): number {
    return this.lastMean;
  }

  /** Fills the whole history with `frameTime`, as if every remembered frame took that long. */
  reset(frameTime: number): void {
    requireFinite('frameTime', frameTime, 0);
    this.history.fill(frameTime);
    this.sorted.fill(frameTime);
    this.head = 0;
    this.filled = true;
    this.lastStep = frameTime;
    this.lastMean = frameTime;
  }

  /**
   * Records one measured frame time (seconds, finite, at least 0) and returns the smoothed step.
   * Before any history exists the first frame time fills it.
   */
  push(frameTime: number): number {
    // Written out rather than a call: this runs every frame. NaN fails both comparisons.
    if (!(frameTime >= 0 && frameTime < Infinity)) requireFinite('frameTime', frameTime, 0);
    if (!this.filled) this.reset(frameTime);
    const history = this.history;
    const sorted = this.sorted;
    const evicted = history[this.head]!;
    history[this.head] = frameTime;
    const last = this.window - 1;
    this.head = this.head === last ? 0 : this.head + 1;

    // Swap the evicted frame for the new one in the sorted copy (one insertion-sort pass; none
    // at all for a steady rate), then the `trim` highest and lowest are simply the ends: sum
    // the middle.
    if (frameTime !== evicted) {
      let i = 0;
      while (i < last && sorted[i] !== evicted) i++;
      if (frameTime > evicted) {
        while (i < last && sorted[i + 1]! < frameTime) {
          sorted[i] = sorted[i + 1]!;
          i++;
        }
      } else {
        while (i > 0 && sorted[i - 1]! > frameTime) {
          sorted[i] = sorted[i - 1]!;
          i--;
        }
      }
      sorted[i] = frameTime;
    }
    const trim = this.trim;
    const end = this.window - trim;
    let sum = 0;
    for (let k = trim; k < end; k++) sum += sorted[k]!;
    const mean = sum / (end - trim);
    this.lastMean = mean;
    this.lastStep += (mean - this.lastStep) * this.lerp;
    return this.lastStep;
  }
}
