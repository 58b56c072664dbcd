// The smoothing comparison of the issue, on the same traces as the tests: @cuttle/timestep's
// TimeStep (BitSquid filter + time debt, defaults) against Phaser 4's real TimeStep (a 10-frame
// mean), an exponential moving average, and our own 0.x default (linear debt payback). Two
// figures per trace: the mean frame-to-frame step change, and the worst distance between the
// game clock and the wall clock. Then the per-frame cost of each filter.
import { defineSuite, opsPerSecond, type BenchCase } from '@cuttle/bench';
import { SmoothingFilter, TimeStep } from '../src/index.ts';
import { glitches, jitter, rateChange, recorded, recordedDemo, stall, stepVariation, worstDrift, zigzag, type Trace } from '../test/traces.ts';
import { createPhaserTimeStep, runEma, runOurs, runPhaser } from './peers.ts';

const EMA_NAME = 'EMA';
const PHASER_NAME = 'Phaser TimeStep';
const LINEAR_NAME = 'linear payback (0.x)';
const LINEAR = { debt: { payback: 'linear' } } as const;

function ms(seconds: number): number {
  return seconds * 1000;
}

function variationCase(trace: Trace): BenchCase {
  return {
    name: `${trace.name}: step variation`,
    unit: 'step variation (ms)',
    higherIsBetter: false,
    rounds: 1,
    ours: () => ms(stepVariation(runOurs(trace.frames)).mean),
    peers: {
      [PHASER_NAME]: () => ms(stepVariation(runPhaser(trace.frames)).mean),
      [EMA_NAME]: () => ms(stepVariation(runEma(trace.frames)).mean),
      raw: () => ms(stepVariation(trace.frames).mean),
      [LINEAR_NAME]: () => ms(stepVariation(runOurs(trace.frames, LINEAR)).mean),
    },
  };
}

function driftCase(trace: Trace): BenchCase {
  return {
    name: `${trace.name}: worst drift`,
    unit: 'clock drift (ms)',
    higherIsBetter: false,
    rounds: 1,
    ours: () => ms(worstDrift(trace.frames, runOurs(trace.frames))),
    peers: {
      [PHASER_NAME]: () => ms(worstDrift(trace.frames, runPhaser(trace.frames))),
      [EMA_NAME]: () => ms(worstDrift(trace.frames, runEma(trace.frames))),
      [LINEAR_NAME]: () => ms(worstDrift(trace.frames, runOurs(trace.frames, LINEAR))),
    },
  };
}

function largestStep(steps: Float64Array): number {
  let max = 0;
  for (let i = 0; i < steps.length; i++) if (steps[i]! > max) max = steps[i]!;
  return max;
}

const traces = [jitter(), zigzag(), glitches(), rateChange(), recorded(), recordedDemo()];
const stallTrace = stall();
const costTrace = recorded().frames;

const filter = new SmoothingFilter({ initial: 1 / 60 });
const timeStep = new TimeStep();
const phaser = createPhaserTimeStep();
let emaStep = 1 / 60;

export const suite = defineSuite({
  package: '@cuttle/timestep',
  rounds: 5,
  cases: [
    ...traces.flatMap((trace) => [variationCase(trace), driftCase(trace)]),
    {
      name: `${stallTrace.name}: largest step`,
      unit: 'sim jump (ms)',
      higherIsBetter: false,
      rounds: 1,
      ours: () => ms(largestStep(runOurs(stallTrace.frames))),
      peers: {
        [PHASER_NAME]: () => ms(largestStep(runPhaser(stallTrace.frames))),
        [EMA_NAME]: () => ms(largestStep(runEma(stallTrace.frames))),
        raw: () => ms(largestStep(stallTrace.frames)),
      },
    },
    {
      name: 'filter, one frame (Phaser: smoothDelta)',
      unit: 'ops/s',
      higherIsBetter: true,
      ours: () =>
        opsPerSecond(
          () => {
            for (let i = 0; i < costTrace.length; i++) filter.push(costTrace[i]!);
          },
          { opsPerCall: costTrace.length },
        ),
      peers: {
        [PHASER_NAME]: () =>
          opsPerSecond(
            () => {
              for (let i = 0; i < costTrace.length; i++) phaser.smoothDelta(costTrace[i]! * 1000);
            },
            { opsPerCall: costTrace.length },
          ),
        [EMA_NAME]: () =>
          opsPerSecond(
            () => {
              for (let i = 0; i < costTrace.length; i++) emaStep += (costTrace[i]! - emaStep) * (2 / 11);
              return emaStep;
            },
            { opsPerCall: costTrace.length },
          ),
      },
    },
    {
      name: 'TimeStep.advance, one frame (Phaser: step)',
      unit: 'ops/s',
      higherIsBetter: true,
      ours: () =>
        opsPerSecond(
          () => {
            for (let i = 0; i < costTrace.length; i++) timeStep.advance(costTrace[i]!);
          },
          { opsPerCall: costTrace.length },
        ),
      peers: {
        [PHASER_NAME]: () =>
          opsPerSecond(
            () => {
              let now = phaser.lastTime;
              for (let i = 0; i < costTrace.length; i++) {
                now += costTrace[i]! * 1000;
                phaser.step(now);
              }
            },
            { opsPerCall: costTrace.length },
          ),
      },
    },
  ],
  notes: [
    'Traces (seconds per frame, 600 frames each) are those of test/traces.ts; the recorded ones are',
    'requestAnimationFrame in headless Chromium (test/fixtures/chromium-raf-trace.json) and in the Cuttle demo',
    "(test/fixtures/demo-raf-trace.json: WebGPU on SwiftShader, 7-10 fps with stalls; drift there counts the stall time",
    'each contender drops on purpose: ours forgives frames over 250 ms, Phaser replaces frames over 200 ms).',
    '"step variation" is the mean |step[i] - step[i-1]|; "worst drift" the largest |game clock - wall clock|;',
    '"sim jump" the largest single step. Ours is `new TimeStep()` with defaults (lerp 0.5, payback \'guarded\': the debt never',
    'exceeds the worst drift of a plain 10-frame mean, the recurring share is learned over 120 frames, the rest paid over 30',
    'frames, eased 0.2 per frame; stalls over 250 ms forgiven). "linear payback (0.x)" is the same filter with `debt: { payback: \'linear\' }`,',
    'the default before: debt/30 per frame, at most 10 % of a step.',
    `${PHASER_NAME} is phaser@4.2.1, the real \`phaser\` npm package's \`Phaser.Core.TimeStep\` (src/core/TimeStep.js), loaded`,
    'in Node with a stub `window` (performance.now, requestAnimationFrame) and driven by `step(time)`;',
    'config `{ panicMax: 0 }` turns off its 120-frame start-up clamp so its 10-frame mean is what is measured.',
    `${EMA_NAME} is step += (frame - step) * 2/11 from 1/60 s, the exponential moving average with the centre of mass of a 10-frame mean.`,
    'The steady 60 Hz trace is left out: every contender scores 0 on it (ratio undefined).',
  ].join('\n'),
});
