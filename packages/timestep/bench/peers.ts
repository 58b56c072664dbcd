// The contenders of the smoothing comparison, each run over a whole trace into a Float64Array of
// steps (seconds), so the metrics in test/traces.ts see every filter the same way.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { TimeStep, type TimeStepOptions } from '../src/index.ts';

/** Runs @cuttle/timestep's TimeStep over `frames`; returns the step the game took each frame. */
export function runOurs(frames: Float64Array, options: TimeStepOptions = {}, out = new Float64Array(frames.length)): Float64Array {
  const ts = new TimeStep(options);
  for (let i = 0; i < frames.length; i++) {
    ts.advance(frames[i]!);
    out[i] = ts.unscaledDelta;
  }
  return out;
}

/**
 * An exponential moving average of the frame time: step += alpha * (frame - step), starting at
 * the nominal 1/60 s like the other two contenders.
 */
export function runEma(frames: Float64Array, alpha = 2 / 11, out = new Float64Array(frames.length)): Float64Array {
  let step = 1 / 60;
  for (let i = 0; i < frames.length; i++) {
    step += (frames[i]! - step) * alpha;
    out[i] = step;
  }
  return out;
}

/** The parts of Phaser.Core.TimeStep this comparison drives. */
export interface PhaserTimeStep {
  lastTime: number;
  start(callback: (time: number, delta: number) => void): void;
  step(time: number): void;
  smoothDelta(delta: number): number;
}
type PhaserTimeStepClass = new (game: null, config: Record<string, unknown>) => PhaserTimeStep;

// Phaser's TimeStep only touches `window` for performance.now and requestAnimationFrame; this
// stub supplies both with a virtual clock, and the trace drives `step(time)` by hand.
const virtual = { nowMs: 0 };
let PhaserTimeStepCtor: PhaserTimeStepClass | undefined;

function loadPhaserTimeStep(): PhaserTimeStepClass {
  if (PhaserTimeStepCtor) return PhaserTimeStepCtor;
  const g = globalThis as unknown as { window?: unknown };
  g.window ??= {
    performance: { now: () => virtual.nowMs },
    requestAnimationFrame: () => 1,
    cancelAnimationFrame: () => undefined,
  };
  const require = createRequire(import.meta.url);
  // The package's exports map hides src/, so require the file by its absolute path.
  const root = dirname(require.resolve('phaser/package.json'));
  PhaserTimeStepCtor = require(join(root, 'src/core/TimeStep.js')) as PhaserTimeStepClass;
  return PhaserTimeStepCtor;
}

/** A started Phaser TimeStep at virtual time 0 (`panicMax: 0`, see runPhaser), callback a no-op. */
export function createPhaserTimeStep(): PhaserTimeStep {
  const Ctor = loadPhaserTimeStep();
  const ts = new Ctor(null, { panicMax: 0 });
  virtual.nowMs = 0;
  ts.start(() => undefined);
  return ts;
}

/**
 * The real Phaser 4 `Phaser.Core.TimeStep` (a 10-frame mean of clamped deltas) driven over the
 * trace. `panicMax: 0` turns off its 120-frame start-up clamp to the target rate, so what is
 * measured is its smoothing itself; everything else is Phaser's default config.
 */
export function runPhaser(frames: Float64Array, out = new Float64Array(frames.length)): Float64Array {
  const Ctor = loadPhaserTimeStep();
  const ts = new Ctor(null, { panicMax: 0 });
  let index = 0;
  virtual.nowMs = 0;
  ts.start((_time, delta) => {
    out[index++] = delta / 1000;
  });
  let nowMs = 0;
  for (let i = 0; i < frames.length; i++) {
    nowMs += frames[i]! * 1000;
    ts.step(nowMs);
  }
  return out;
}
