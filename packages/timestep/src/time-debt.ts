import type { DebtPayback, TimeDebtOptions } from './api.ts';
import { requireFinite, requireInRange, requireInteger } from './assert.ts';
import { TimestepError } from './errors.ts';

const PAYBACKS: readonly DebtPayback[] = ['guarded', 'linear'];
const MAX_GUARD_FRAMES = 1024;

/**
 * BitSquid's "time debt": how far the smoothed game clock has drifted from the wall clock,
 * paid back over a number of frames by lengthening or shortening the step, so that a networked
 * game stays in sync.
 *
 * The debt is wall time minus game time (positive: the game is behind and its steps grow).
 * Debt past `maxDebt` is forgiven and counted, so the book never holds more than `maxDebt`.
 *
 * Payback `'linear'` pays `debt / paybackFrames` each frame, at most `maxAdjust` of the step.
 * Payback `'guarded'` (the default) adds three things to it:
 * - a guard: alongside the book runs a plain moving mean of the last `guardFrames` frame times
 *   (the smoothing most engines use) with its own drift. The debt is never allowed past the
 *   largest drift that mean has had so far; the excess is paid in the same frame. So the worst
 *   drift is never above a moving mean's on the same frames, while below it the trimmed filter
 *   keeps its smoothness.
 * - a recurring share: the average of what the filter leaves out over `recurringFrames` frames
 *   is paid every frame, so hitches that keep coming are paid as they come.
 * - easing: the rest of the payment moves `easing` of the way to `debt / paybackFrames` each
 *   frame, so a new debt does not make the step jump.
 */
export class TimeDebt {
  /** How the debt is paid back, see {@link TimeDebtOptions.payback}. Default `'guarded'`. */
  readonly payback: DebtPayback;
  /** Frames the debt is paid back over (a 1/n share per frame; at least 1). Default 30. */
  readonly paybackFrames: number = 30;
  /** Largest correction per frame as a fraction of the smoothed step, in [0, 1]. Default 0.1. */
  readonly maxAdjust: number = 0.1;
  /** Largest debt kept, in seconds (at least 0); the excess is forgiven. Default 0.25. */
  readonly maxDebt: number = 0.25;
  /** `'guarded'`: length in frames of the moving mean whose drift bounds the debt (an integer, at least 1). Default 10. */
  readonly guardFrames: number = 10;
  /** `'guarded'`: frames over which the recurring share is learned; 0 turns it off. Default 120. */
  readonly recurringFrames: number = 120;
  /** `'guarded'`: fraction of the way the payment moves to its target each frame, in (0, 1]. Default 0.2. */
  readonly easing: number = 0.2;
  private owed = 0;
  private forgivenTotal = 0;
  // Guarded payback state. Numeric fields start as numbers so V8 keeps them unboxed.
  private readonly window: Float64Array;
  private windowHead = 0;
  private windowFilled = false;
  private windowSum = 0;
  private meanDrift = 0;
  private guard = 0;
  private recurring = 0;
  private eased = 0;

  constructor(options: TimeDebtOptions = {}) {
    const payback = options.payback ?? 'guarded';
    if (!PAYBACKS.includes(payback)) {
      throw new TimestepError(`debt payback must be one of ${PAYBACKS.join(', ')}, got ${payback as string}.`);
    }
    const paybackFrames = options.paybackFrames ?? 30;
    const maxAdjust = options.maxAdjust ?? 0.1;
    const maxDebt = options.maxDebt ?? 0.25;
    const guardFrames = options.guardFrames ?? 10;
    const recurringFrames = options.recurringFrames ?? 120;
    const easing = options.easing ?? 0.2;
    requireFinite('paybackFrames', paybackFrames, 1);
    requireInRange('maxAdjust', maxAdjust, 0, 1);
    requireFinite('maxDebt', maxDebt, 0);
    requireInteger('guardFrames', guardFrames, 1);
    if (guardFrames > MAX_GUARD_FRAMES) throw new TimestepError(`guardFrames must be at most ${MAX_GUARD_FRAMES}, got ${guardFrames}.`);
    if (recurringFrames !== 0) requireFinite('recurringFrames', recurringFrames, 1, 'Pass 0 to turn the recurring share off.');
    requireInRange('easing', easing, Number.MIN_VALUE, 1);
    this.payback = payback;
    this.paybackFrames = paybackFrames;
    this.maxAdjust = maxAdjust;
    this.maxDebt = maxDebt;
    this.guardFrames = guardFrames;
    this.recurringFrames = recurringFrames;
    this.easing = easing;
    this.window = new Float64Array(payback === 'guarded' ? guardFrames : 0);
  }

  /** Wall time minus game time, in seconds, within [-maxDebt, maxDebt]. */
  get debt(): number {
    return this.owed;
  }

  /** Total debt written off because it passed maxDebt, in seconds (signed). */
  get forgiven(): number {
    return this.forgivenTotal;
  }

  /**
   * `'guarded'`: the largest |drift| the guard's moving mean has had since the start (or the last
   * `clear`), in seconds; `debt` never exceeds it. 0 under `'linear'`.
   */
  get bound(): number {
    return this.guard;
  }

  /**
   * Books one frame: the wall clock moved `wallDelta`, the filter proposes `step`. Returns the
   * step the game should take, which includes this frame's payment.
   */
  settle(wallDelta: number, step: number): number {
    return this.payback === 'linear' ? this.settleLinear(wallDelta, step) : this.settleGuarded(wallDelta, step);
  }

  private settleLinear(wallDelta: number, step: number): number {
    const open = this.owed + wallDelta - step;
    const limit = this.maxAdjust * step;
    let payment = open / this.paybackFrames;
    if (payment > limit) payment = limit;
    else if (payment < -limit) payment = -limit;
    this.book(open - payment);
    return step + payment;
  }

  private settleGuarded(wallDelta: number, step: number): number {
    const window = this.window;
    const length = window.length;
    // The guard: a plain moving mean over the same frames, starting from the filter's idea of a
    // normal frame, and the largest drift it has had.
    if (!this.windowFilled) {
      window.fill(step);
      this.windowSum = step * length;
      this.windowFilled = true;
    }
    this.windowSum += wallDelta - window[this.windowHead]!;
    window[this.windowHead] = wallDelta;
    if (this.windowHead === length - 1) {
      this.windowHead = 0;
      // A running sum gathers rounding error; recount it once per lap.
      let sum = 0;
      for (let i = 0; i < length; i++) sum += window[i]!;
      this.windowSum = sum;
    } else {
      this.windowHead++;
    }
    this.meanDrift += wallDelta - this.windowSum / length;
    const meanDrift = this.meanDrift < 0 ? -this.meanDrift : this.meanDrift;
    if (meanDrift > this.guard) this.guard = meanDrift;

    // The recurring share: what the filter leaves out, on average, is paid every frame.
    if (this.recurringFrames > 0) this.recurring += (wallDelta - step - this.recurring) / this.recurringFrames;
    const base = step + this.recurring;
    const open = this.owed + wallDelta - base;

    // The rest: 1/paybackFrames of it per frame (at most maxAdjust of the step), eased in.
    const limit = this.maxAdjust * step;
    let target = open / this.paybackFrames;
    if (target > limit) target = limit;
    else if (target < -limit) target = -limit;
    let payment = this.eased + (target - this.eased) * this.easing;

    // Whatever would leave more debt than the guard allows is paid now; the payment then eases
    // back down from there rather than dropping at once.
    const rest = open - payment;
    if (rest > this.guard) payment += rest - this.guard;
    else if (rest < -this.guard) payment += rest + this.guard;
    this.eased = payment;
    this.book(open - payment);
    return base + payment;
  }

  private book(owed: number): void {
    if (owed > this.maxDebt) {
      this.forgivenTotal += owed - this.maxDebt;
      owed = this.maxDebt;
    } else if (owed < -this.maxDebt) {
      this.forgivenTotal += owed + this.maxDebt;
      owed = -this.maxDebt;
    }
    this.owed = owed;
  }

  /**
   * Clears the debt, e.g. after a resync with a server clock. `forgiven` is kept; the guard's
   * moving mean and bound and the learned recurring share start over.
   */
  clear(): void {
    this.owed = 0;
    this.windowFilled = false;
    this.windowHead = 0;
    this.windowSum = 0;
    this.meanDrift = 0;
    this.guard = 0;
    this.recurring = 0;
    this.eased = 0;
  }
}
