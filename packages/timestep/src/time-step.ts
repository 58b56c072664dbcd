import type { TimeStepOptions, TimeStepPolicy } from './api.ts';
import { requireFinite } from './assert.ts';
import { TimestepError } from './errors.ts';
import { FixedStepper } from './fixed-stepper.ts';
import { SmoothingFilter } from './smoothing-filter.ts';
import { TimeDebt } from './time-debt.ts';

const POLICIES: readonly TimeStepPolicy[] = ['smoothed', 'variable', 'fixed'];

/**
 * Turns measured frame times into the step a game advances by, under the policy the game picks.
 * One instance per clock (a game, an editor viewport, a replay): nothing is global.
 *
 * Feed it once per frame, either with a measured frame time (`advance(seconds)`) or with a
 * timestamp (`tick(nowSeconds)`), then read `delta` (variable and smoothed policies) or `steps`
 * and `alpha` (fixed policy). All times are in seconds.
 *
 * Bad input: `advance` throws a TimestepError for a negative, NaN or infinite frame time.
 * `tick` throws for a NaN or infinite timestamp and clamps a clock that runs backwards to a
 * zero frame time (counted in `clockRewinds`), so no input can put NaN into the clock.
 */
export class TimeStep {
  /** How the game step is made from frame times: `'variable'`, `'smoothed'` or `'fixed'`, see {@link TimeStepOptions.policy}. */
  readonly policy: TimeStepPolicy;
  /** A frame longer than this is a stall, see TimeStepOptions.maxFrameTime. */
  readonly maxFrameTime: number = 0.25;
  /** The filter behind policy `'smoothed'` (also fed under the others, for `smoothedDelta`). */
  readonly filter: SmoothingFilter;
  /** The debt book of policy `'smoothed'`, or null when disabled or under another policy. */
  readonly timeDebt: TimeDebt | null;
  /** The accumulator of policy `'fixed'` (also available to read `step`). */
  readonly stepper: FixedStepper;

  // Numeric fields start as numbers so V8 keeps them as doubles (see SmoothingFilter).
  private scale = 1;
  private isPaused = false;
  private lastSane = 1 / 60;
  private lastNow = Number.NaN;
  private raw = 0;
  private smoothed = 0;
  private unscaled = 0;
  private scaled = 0;
  private gameClock = 0;
  private wallClock = 0;
  private pausedClock = 0;
  private stalled = 0;
  private stallFrames = 0;
  private rewinds = 0;
  private frames = 0;

  constructor(options: TimeStepOptions = {}) {
    const policy = options.policy ?? 'smoothed';
    if (!POLICIES.includes(policy)) {
      throw new TimestepError(`policy must be one of ${POLICIES.join(', ')}, got ${policy}.`);
    }
    const fixedStep = options.fixedStep ?? 1 / 60;
    const maxFrameTime = options.maxFrameTime ?? 0.25;
    const timeScale = options.timeScale ?? 1;
    requireFinite('fixedStep', fixedStep, Number.MIN_VALUE);
    requireFinite('maxFrameTime', maxFrameTime, Number.MIN_VALUE);
    requireFinite('timeScale', timeScale, 0);
    this.policy = policy;
    this.maxFrameTime = maxFrameTime;
    this.scale = timeScale;
    this.lastSane = Math.min(fixedStep, maxFrameTime);
    // The history starts at the nominal rate: a page's first frames are often its slowest, and
    // filling 11 slots with one of them would make the first second of steps wildly long.
    this.filter = new SmoothingFilter({
      initial: this.lastSane,
      ...(options.lerp === undefined ? {} : { lerp: options.lerp }),
      ...(options.window === undefined ? {} : { window: options.window }),
      ...(options.trim === undefined ? {} : { trim: options.trim }),
    });
    this.timeDebt = policy === 'smoothed' && options.debt !== false ? new TimeDebt(options.debt ?? {}) : null;
    this.stepper = new FixedStepper({
      step: fixedStep,
      ...(options.maxStepsPerFrame === undefined ? {} : { maxStepsPerFrame: options.maxStepsPerFrame }),
    });
  }

  /**
   * Advances by one frame that took `frameTime` seconds of wall time (finite, at least 0). Returns the
   * game delta in seconds: the policy's step times the time scale (0 while paused). Under policy `'fixed'`
   * it is `steps * fixedStep`: the scaled frame time fills the accumulator, so slow motion runs
   * fewer steps of the same size and the simulation stays deterministic.
   * @throws {@link TimestepError} when `frameTime` is negative, NaN or infinite.
   */
  advance(frameTime: number): number {
    if (!(frameTime >= 0 && frameTime < Infinity)) {
      requireFinite('frameTime', frameTime, 0, 'Pass timestamps to tick() to have a backwards clock clamped instead.');
    }
    this.frames++;
    this.raw = frameTime;
    this.wallClock += frameTime;

    // A stall counts as the last sane frame; the rest is forgiven rather than simulated or owed.
    let counted = frameTime;
    if (frameTime > this.maxFrameTime) {
      counted = this.lastSane;
      this.stalled += frameTime - counted;
      this.stallFrames++;
    } else {
      this.lastSane = frameTime;
    }

    // The filter keeps learning while paused, so the step is right the moment play resumes.
    this.smoothed = this.filter.push(counted);
    if (this.isPaused) {
      this.pausedClock += counted;
      this.unscaled = 0;
      this.scaled = 0;
      this.stepper.advance(0);
      return 0;
    }

    let unscaled: number;
    switch (this.policy) {
      case 'smoothed':
        unscaled = this.timeDebt ? this.timeDebt.settle(counted, this.smoothed) : this.smoothed;
        break;
      case 'variable':
        unscaled = counted;
        break;
      case 'fixed':
        unscaled = this.stepper.advance(counted * this.scale) * this.stepper.step;
        break;
    }
    this.unscaled = unscaled;
    this.scaled = this.policy === 'fixed' ? unscaled : unscaled * this.scale;
    this.gameClock += this.scaled;
    return this.scaled;
  }

  /**
   * Advances to the timestamp `now` (seconds, e.g. `performance.now() / 1000`). The first call
   * only sets the reference and returns 0. A timestamp earlier than the last one is a
   * non-monotonic clock: it counts as a zero frame time and becomes the new reference.
   */
  tick(now: number): number {
    if (!Number.isFinite(now)) {
      throw new TimestepError(`now must be a finite timestamp in seconds, got ${now}.`);
    }
    const last = this.lastNow;
    this.lastNow = now;
    if (Number.isNaN(last)) return 0;
    let frameTime = now - last;
    if (frameTime < 0) {
      this.rewinds++;
      frameTime = 0;
    }
    return this.advance(frameTime);
  }

  /** Stops the game clock; frames keep being measured (and smoothed) while paused. */
  pause(): void {
    this.isPaused = true;
  }

  /** Restarts the game clock. Paused wall time is not owed as debt. */
  resume(): void {
    this.isPaused = false;
  }

  /** True between `pause()` and `resume()`; the game delta is 0 meanwhile. */
  get paused(): boolean {
    return this.isPaused;
  }

  /** Multiplier on the step the game sees. Changing it never touches the debt. */
  get timeScale(): number {
    return this.scale;
  }

  set timeScale(value: number) {
    requireFinite('timeScale', value, 0);
    this.scale = value;
  }

  /** Forgets the last timestamp, so the next `tick` only sets a new reference (e.g. on tab show). */
  resetReference(): void {
    this.lastNow = Number.NaN;
  }

  /** The game delta of the last frame (scaled, 0 while paused), in seconds. */
  get delta(): number {
    return this.scaled;
  }

  /** The last measured frame time, untouched, in seconds. */
  get rawDelta(): number {
    return this.raw;
  }

  /** The filter's step for the last frame, before debt payment and time scale, in seconds. */
  get smoothedDelta(): number {
    return this.smoothed;
  }

  /** The policy's step for the last frame including debt payment, before time scale (`'fixed'`: `steps * fixedStep`). */
  get unscaledDelta(): number {
    return this.unscaled;
  }

  /** The game clock: the sum of every `delta`, in seconds. */
  get time(): number {
    return this.gameClock;
  }

  /** The sum of every measured frame time, in seconds. */
  get wallTime(): number {
    return this.wallClock;
  }

  /** Wall time that passed while paused (stalls excluded), in seconds. */
  get pausedTime(): number {
    return this.pausedClock;
  }

  /** Wall time forgiven by stall handling, in seconds: resync from a server if that matters. */
  get stalledTime(): number {
    return this.stalled;
  }

  /** Frames longer than `maxFrameTime` so far. */
  get stalls(): number {
    return this.stallFrames;
  }

  /** Timestamps given to `tick` that were earlier than the one before. */
  get clockRewinds(): number {
    return this.rewinds;
  }

  /** Frames advanced so far. */
  get frame(): number {
    return this.frames;
  }

  /** Current time debt (wall minus game), in seconds; 0 when no debt is kept. */
  get debt(): number {
    return this.timeDebt ? this.timeDebt.debt : 0;
  }

  /** Updates to run this frame: the fixed steps under `'fixed'`, otherwise 1 (0 while paused). */
  get steps(): number {
    if (this.policy === 'fixed') return this.stepper.steps;
    return this.isPaused ? 0 : 1;
  }

  /** Interpolation factor in [0, 1) for drawing (policy `'fixed'`; otherwise 1). */
  get alpha(): number {
    return this.policy === 'fixed' ? this.stepper.alpha : 1;
  }

  /** The size of one update: `fixedStep` under `'fixed'`, else `delta`. */
  get updateDelta(): number {
    return this.policy === 'fixed' ? this.stepper.step : this.scaled;
  }
}
