// Every time-debt payback policy tried for issue 18, run over the shared traces with the same
// filter and stall handling as TimeStep. Two kinds: the package's own options (payback 'linear'
// and 'guarded' with parts of it switched off), and three policies that were tried and left out
// of the package (their settle functions are written here). scripts/plot-policies.ts turns the
// figures into docs/payback-policies.svg; bench/smoothing.bench.ts reports the default and
// 'linear' beside Phaser.
import { SmoothingFilter, TimeDebt, type TimeDebtOptions } from '../src/index.ts';
import { glitches, jitter, rateChange, recorded, recordedDemo, stepVariation, worstDrift, zigzag, type Trace } from '../test/traces.ts';
import { runEma, runOurs, runPhaser } from './peers.ts';

/** A debt book: the wall clock moved `wallDelta`, the filter proposes `step`; returns the step taken. */
export interface Book {
  settle(wallDelta: number, step: number): number;
}

export interface Policy {
  /** Short label for the plot and the table. */
  name: string;
  /** What it does, in one line. */
  description: string;
  /** Whether `new TimeStep()` uses it, or an option of the package reaches it. */
  inPackage: boolean;
  run(frames: Float64Array): Float64Array;
}

const STALL = 0.25;
const HZ60 = 1 / 60;

/** TimeStep's smoothed policy with a book of our own: same filter, same stall clamp. */
export function runWithBook(frames: Float64Array, book: Book, out = new Float64Array(frames.length)): Float64Array {
  const filter = new SmoothingFilter({ initial: HZ60 });
  let lastSane = HZ60;
  for (let i = 0; i < frames.length; i++) {
    let counted = frames[i]!;
    if (counted > STALL) counted = lastSane;
    else lastSane = counted;
    out[i] = book.settle(counted, filter.push(counted));
  }
  return out;
}

function clamp(value: number, limit: number): number {
  return value > limit ? limit : value < -limit ? -limit : value;
}

/** "Pay large debts faster": the share paid per frame grows with the debt, in steps. */
class ProgressiveBook implements Book {
  private owed = 0;
  constructor(
    private readonly frames: number,
    private readonly stepsPerDoubling: number,
    private readonly maxAdjust: number,
  ) {}
  settle(wallDelta: number, step: number): number {
    const open = this.owed + wallDelta - step;
    const rate = Math.min(1, (1 + Math.abs(open) / (this.stepsPerDoubling * step)) / this.frames);
    const payment = clamp(open * rate, this.maxAdjust * step);
    this.owed = clamp(open - payment, 0.25);
    return step + payment;
  }
}

/** Linear payback plus a hard ceiling: any debt above `steps` smoothed steps is paid at once. */
class HardBoundBook implements Book {
  private owed = 0;
  constructor(private readonly steps: number) {}
  settle(wallDelta: number, step: number): number {
    const open = this.owed + wallDelta - step;
    let payment = clamp(open / 30, 0.1 * step);
    const rest = open - payment;
    const bound = this.steps * step;
    if (rest > bound) payment += rest - bound;
    else if (rest < -bound) payment += rest + bound;
    this.owed = open - payment;
    return step + payment;
  }
}

/** Linear payback plus the recurring share (the average of what the filter leaves out), no guard. */
class RecurringBook implements Book {
  private owed = 0;
  private recurring = 0;
  settle(wallDelta: number, step: number): number {
    this.recurring += (wallDelta - step - this.recurring) / 120;
    const base = step + this.recurring;
    const open = this.owed + wallDelta - base;
    const payment = clamp(open / 30, 0.1 * step);
    this.owed = clamp(open - payment, 0.25);
    return base + payment;
  }
}

function packaged(name: string, description: string, debt: TimeDebtOptions): Policy {
  return { name, description, inPackage: true, run: (frames) => runOurs(frames, { debt }) };
}

function custom(name: string, description: string, make: () => Book): Policy {
  return { name, description, inPackage: false, run: (frames) => runWithBook(frames, make()) };
}

export const POLICIES: readonly Policy[] = [
  packaged('linear (0.x default)', "payback 'linear': debt/30 per frame, at most 10 % of a step", { payback: 'linear' }),
  packaged('linear, fast', "payback 'linear', paybackFrames 10, maxAdjust 0.3", { payback: 'linear', paybackFrames: 10, maxAdjust: 0.3 }),
  custom('progressive', 'rate (1 + debt/(4 steps))/15 per frame, at most 30 % of a step: large debts paid faster', () => new ProgressiveBook(15, 4, 0.3)),
  custom('hard bound 4.5 steps', 'linear, plus any debt over 4.5 smoothed steps paid at once', () => new HardBoundBook(4.5)),
  custom('recurring share', 'linear, plus the 120-frame average of what the filter leaves out paid every frame', () => new RecurringBook()),
  packaged('guard', "payback 'guarded' without recurring share or easing", { recurringFrames: 0, easing: 1 }),
  packaged('guard + easing', "payback 'guarded' without the recurring share", { recurringFrames: 0 }),
  packaged('guard + recurring', "payback 'guarded' without easing", { easing: 1 }),
  packaged('guarded (default)', "payback 'guarded': guard + recurring share + easing", {}),
];

export const POLICY_TRACES: readonly Trace[] = [jitter(), zigzag(), glitches(), rateChange(), recorded(), recordedDemo()];

export interface PolicyFigure {
  trace: string;
  contender: string;
  /** Mean |step[i] - step[i-1]| in milliseconds. */
  variationMs: number;
  /** Largest |game clock - wall clock| in milliseconds. */
  driftMs: number;
}

export const REFERENCES: readonly { name: string; run: (frames: Float64Array) => Float64Array }[] = [
  { name: 'Phaser TimeStep', run: (frames) => runPhaser(frames) },
  { name: 'EMA', run: (frames) => runEma(frames) },
];

/** Step variation and worst drift of every policy and reference on every shared trace. */
export function measurePolicies(): PolicyFigure[] {
  const figures: PolicyFigure[] = [];
  for (const trace of POLICY_TRACES) {
    for (const contender of [...POLICIES, ...REFERENCES]) {
      const steps = contender.run(trace.frames);
      figures.push({
        trace: trace.name,
        contender: contender.name,
        variationMs: stepVariation(steps).mean * 1000,
        driftMs: worstDrift(trace.frames, steps) * 1000,
      });
    }
  }
  return figures;
}

/** The custom runner must be TimeStep itself when given TimeStep's own book. */
export function checkRunner(): void {
  for (const trace of POLICY_TRACES) {
    const viaTimeStep = runOurs(trace.frames);
    const viaBook = runWithBook(trace.frames, new TimeDebt());
    for (let i = 0; i < viaBook.length; i++) {
      if (viaBook[i] !== viaTimeStep[i]) throw new Error(`runWithBook differs from TimeStep on ${trace.name} at frame ${i}`);
    }
  }
}
