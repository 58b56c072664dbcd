import type { TimeDebtOptions } from './api.ts';
import { requireFinite, requireInRange } from './assert.ts';

/**
 * BitSquid's "time debt": how far the smoothed game clock has drifted from the wall clock,
 * paid back over a number of frames by lengthening or shortening the step, so that a networked
 * game stays in sync.
 *
 * The debt is wall time minus game time (positive: the game is behind and its steps grow).
 * Each frame pays `debt / paybackFrames`, limited to `maxAdjust` of the step, so the payback
 * cannot itself make the step oscillate. Debt past `maxDebt` is forgiven and counted, so the
 * book never holds more than `maxDebt`.
 */
export class TimeDebt {
  readonly paybackFrames: number = 30;
  readonly maxAdjust: number = 0.1;
  readonly maxDebt: number = 0.25;
  private owed = 0;
  private forgivenTotal = 0;

  constructor(options: TimeDebtOptions = {}) {
    const paybackFrames = options.paybackFrames ?? 30;
    const maxAdjust = options.maxAdjust ?? 0.1;
    const maxDebt = options.maxDebt ?? 0.25;
    requireFinite('paybackFrames', paybackFrames, 1);
    requireInRange('maxAdjust', maxAdjust, 0, 1);
    requireFinite('maxDebt', maxDebt, 0);
    this.paybackFrames = paybackFrames;
    this.maxAdjust = maxAdjust;
    this.maxDebt = maxDebt;
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
   * Books one frame: the wall clock moved `wallDelta`, the filter proposes `step`. Returns the
   * step the game should take, which includes this frame's payment.
   */
  settle(wallDelta: number, step: number): number {
    const open = this.owed + wallDelta - step;
    const limit = this.maxAdjust * step;
    let payment = open / this.paybackFrames;
    if (payment > limit) payment = limit;
    else if (payment < -limit) payment = -limit;
    let owed = open - payment;
    if (owed > this.maxDebt) {
      this.forgivenTotal += owed - this.maxDebt;
      owed = this.maxDebt;
    } else if (owed < -this.maxDebt) {
      this.forgivenTotal += owed + this.maxDebt;
      owed = -this.maxDebt;
    }
    this.owed = owed;
    return step + payment;
  }

  /** Clears the debt, e.g. after a resync with a server clock. `forgiven` is kept. */
  clear(): void {
    this.owed = 0;
  }
}
