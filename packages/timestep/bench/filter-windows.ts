// The filter's window choices for issue 39, run over the shared traces of
// bench/payback-policies.ts with the same runner as bench/smoothing.bench.ts (`runOurs`: a
// TimeStep with default debt payback, only `window` and `trim` changed) beside Phaser's real
// TimeStep. scripts/plot-window.ts turns the figures into docs/window-tradeoff.svg.
import { stepVariation, worstDrift } from '../test/traces.ts';
import { POLICY_TRACES, type PolicyFigure } from './payback-policies.ts';
import { runOurs, runPhaser } from './peers.ts';

export interface WindowChoice {
  /** Short label for the plot and the table. */
  name: string;
  window: number;
  trim: number;
}

function choice(window: number, trim: number): WindowChoice {
  const name = `window ${window}, trim ${trim}${window === 11 && trim === 2 ? ' (default)' : ''}`;
  return { name, window, trim };
}

export const WINDOW_CHOICES: readonly WindowChoice[] = [
  choice(8, 2),
  choice(9, 2),
  choice(10, 0),
  choice(10, 2),
  choice(11, 0),
  choice(11, 2),
  choice(12, 1),
  choice(12, 2),
  choice(14, 2),
];

export const PHASER_NAME = 'Phaser TimeStep';

/** Step variation and worst drift of every window choice and of Phaser on every shared trace. */
export function measureWindows(): PolicyFigure[] {
  const figures: PolicyFigure[] = [];
  for (const trace of POLICY_TRACES) {
    const contenders = [
      ...WINDOW_CHOICES.map((c) => ({ name: c.name, run: (frames: Float64Array) => runOurs(frames, { window: c.window, trim: c.trim }) })),
      { name: PHASER_NAME, run: (frames: Float64Array) => runPhaser(frames) },
    ];
    for (const contender of contenders) {
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
