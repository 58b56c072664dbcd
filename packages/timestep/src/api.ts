/**
 * How a TimeStep turns measured frame times into the step the game advances by. BitSquid leaves
 * this to the game, and so do we:
 * - `'smoothed'`: the post's filter (trimmed mean of the last 11 frames, lerped), with time debt
 *   paid back so the game clock stays near the wall clock.
 * - `'variable'`: the raw measured frame time (stall-clamped), no smoothing.
 * - `'fixed'`: a constant step run zero or more times per frame from an accumulator, with an
 *   interpolation alpha for drawing between the last two states.
 */
export type TimeStepPolicy = 'smoothed' | 'variable' | 'fixed';

/** Options of the BitSquid smoothing filter. All times are in seconds. */
export interface SmoothingFilterOptions {
  /**
   * How far each frame moves the step from its last value towards the trimmed mean, in (0, 1].
   * 1 uses the trimmed mean as is; smaller values add the post's "more smoothness". Default 0.5.
   */
  lerp?: number;
  /**
   * Frame times the filter remembers, an integer in [1, 1024]. Default 11, the post's. An even
   * window holds as many frames of each rate of a two-rate zig-zag and averages it to a
   * constant; an odd one cannot (see the README's "Filter window").
   */
  window?: number;
  /**
   * Highest and lowest frame times dropped from the window, each side, an integer with
   * `2 * trim < window`. Default 2, the post's. 0 is a plain moving mean: glitch frames reach
   * the step.
   */
  trim?: number;
  /**
   * Frame time the history starts filled with. Default: the first frame time pushed.
   */
  initial?: number;
}

/**
 * How the time debt is paid back:
 * - `'guarded'` (default): the debt is never larger than the drift a plain moving mean of the
 *   last `guardFrames` frame times (Phaser's TimeStep, most engines' smoothing) has had since the
 *   clock started: whatever would exceed that is paid in the same frame. Below that bound it is
 *   paid slowly and smoothly: the recurring share (hitches that keep coming) continuously, the
 *   rest at `1/paybackFrames` per frame, eased in.
 * - `'linear'`: the 0.x behaviour: `debt / paybackFrames` each frame, at most `maxAdjust` of the
 *   step. The smoothest step, but a glitch frame is owed for about 50 frames.
 */
export type DebtPayback = 'guarded' | 'linear';

/** Options of the time debt book-keeping. All times are in seconds. */
export interface TimeDebtOptions {
  /** Default `'guarded'`; `'linear'` keeps the step smoothest and lets the clock drift further. */
  payback?: DebtPayback;
  /** The debt is paid back over about this many frames (a 1/n share per frame). Default 30. */
  paybackFrames?: number;
  /**
   * Largest correction a single frame may apply, as a fraction of that frame's smoothed step, in
   * [0, 1]. Keeps the payback itself from making the step oscillate. Default 0.1 (10 %).
   * (`'guarded'` may exceed it when the guard forces a payment.)
   */
  maxAdjust?: number;
  /**
   * Largest debt kept, in seconds. Debt past it is forgiven (and counted in `forgiven`), so a
   * long stall can never leave a debt that takes minutes to pay. Default 0.25.
   */
  maxDebt?: number;
  /** `'guarded'`: length of the moving mean whose drift bounds the debt, in frames. Default 10. */
  guardFrames?: number;
  /**
   * `'guarded'`: frames over which the average time the filter leaves out (hitches that keep
   * coming) is learned and added to every step, so recurring hitches are paid as they come
   * rather than after each. 0 turns it off. Default 120.
   */
  recurringFrames?: number;
  /**
   * `'guarded'`: how far the payment moves towards its target each frame, in (0, 1]; 1 applies
   * it at once. Default 0.2. (The guard's forced payment is never eased.)
   */
  easing?: number;
}

/** Options of a FixedStepper. All times are in seconds. */
export interface FixedStepperOptions {
  /** The constant simulation step. Default 1/60. */
  step?: number;
  /**
   * Most steps one frame may run. Time past that is dropped (counted in `dropped`): the game
   * slows down instead of spiralling into ever longer frames. Default 8.
   */
  maxStepsPerFrame?: number;
}

/** Options of a TimeStep. All times are in seconds. */
export interface TimeStepOptions {
  /** Default `'smoothed'`. */
  policy?: TimeStepPolicy;
  /** Lerp factor of the smoothing filter (policy `'smoothed'`), see SmoothingFilterOptions. */
  lerp?: number;
  /** Frame times the smoothing filter remembers, see SmoothingFilterOptions. Default 11. */
  window?: number;
  /** Frame times dropped each side of the filter's window, see SmoothingFilterOptions. Default 2. */
  trim?: number;
  /** Time debt settings (policy `'smoothed'`), or `false` to let the clock drift freely. */
  debt?: TimeDebtOptions | false;
  /**
   * Constant step of policy `'fixed'`; also the nominal frame time the smoothing history starts
   * filled with (and the stand-in for a stall before any sane frame). Default 1/60.
   */
  fixedStep?: number;
  /** Cap on fixed steps per frame (policy `'fixed'`). Default 8. */
  maxStepsPerFrame?: number;
  /**
   * A frame longer than this is a stall (hidden tab, debugger pause, a GC storm): it counts as
   * the last sane frame time and the rest is forgiven, counted in `stalledTime`. Default 0.25.
   */
  maxFrameTime?: number;
  /** Multiplies the step the game sees: below 1 slow motion, above 1 fast forward. Default 1. */
  timeScale?: number;
}
