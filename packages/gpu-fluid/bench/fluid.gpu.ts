// GPU benchmark of whole SPH steps: steps per second for the three neighbour-search modes at 100k,
// 1M, 4M and 10M particles of a dam break, timed with timestamp queries around a batch of
// steps in one submit. Every measurement starts again from the same initial state, so rounds
// time the same work. CUTTLE_BENCH_QUICK shrinks everything for a lavapipe smoke run.
import { defineSuite, GpuTimer, type BenchCase, type Measure } from '@cuttle/bench';
import { requestNodeGpu, type NodeGpu } from '@cuttle/test-utils/node-gpu';
import { FluidSimulation, damBreakPositions, resolveParameters, type FluidParameters, type NeighbourMode } from '../src/index.ts';

const QUICK = Boolean(process.env.CUTTLE_BENCH_QUICK);
const SIZES = QUICK ? [2000, 8000] : [100_000, 1_000_000, 4_000_000, 10_000_000];
// N-body is O(n^2): measured only up to this many particles.
const NBODY_LIMIT = QUICK ? 2000 : 100_000;
const STEPS_PER_SAMPLE = QUICK ? 2 : 20;
const NBODY_STEPS_PER_SAMPLE = QUICK ? 1 : 3;

let gpu: NodeGpu | undefined;
let timer: GpuTimer | undefined;
const simulations = new Map<string, { fluid: FluidSimulation; positions: Float32Array }>();

/**
 * A box for `count` particles at lattice spacing h / 2 (8 per cell): twice as long as high and
 * deep, sized so the dam-break column (40% of the length) is about 70% of the box's height.
 */
function sceneParameters(count: number): FluidParameters {
  const side = Math.ceil(Math.cbrt(count / (8 * 0.4 * 2 * 0.7)));
  return resolveParameters({ bounds: { min: [0, 0, 0], max: [2 * side, side, side] } });
}

type SortAlgorithm = 'onesweep' | 'count-scan';

function simulation(mode: NeighbourMode, count: number, sortAlgorithm: SortAlgorithm = 'count-scan'): { fluid: FluidSimulation; positions: Float32Array } {
  const key = `${mode}:${count}:${sortAlgorithm}`;
  let entry = simulations.get(key);
  if (!entry) {
    const parameters = sceneParameters(count);
    entry = { fluid: new FluidSimulation(gpu!.device, { capacity: count, mode, parameters, sortAlgorithm }), positions: damBreakPositions(count, parameters) };
    simulations.set(key, entry);
  }
  return entry;
}

/** Steps per second of `mode` at `count`, from GPU time over a batch of steps from the initial state. */
function stepsPerSecond(mode: NeighbourMode, count: number, sortAlgorithm: SortAlgorithm = 'count-scan'): Measure {
  return async () => {
    const { fluid, positions } = simulation(mode, count, sortAlgorithm);
    fluid.clear();
    fluid.emit(positions);
    const steps = mode === 'nbody' ? NBODY_STEPS_PER_SAMPLE : STEPS_PER_SAMPLE;
    const ms = await timer!.time(
      (encoder, i, last) => {
        fluid.step(encoder, { querySet: timer!.writes.querySet, ...(i === 0 ? { beginIndex: 0 } : {}), ...(last ? { endIndex: 1 } : {}) });
      },
      { iterations: steps },
    );
    return 1000 / ms;
  };
}

// Per-kernel figures at every size the full steps are measured at.
const KERNEL_SIZES = SIZES;
const BUILD_STAGES = new Set(['count-cells', 'scan', 'scatter', 'hash', 'sort', 'clear-table', 'cell-offsets', 'gather']);

/** Mean ms of one part of a step (the grid build, or one named stage), from FluidSimulation.profile. */
function kernelMs(mode: NeighbourMode, count: number, part: string, sortAlgorithm: SortAlgorithm = 'count-scan'): Measure {
  return async () => {
    const { fluid, positions } = simulation(mode, count, sortAlgorithm);
    fluid.clear();
    fluid.emit(positions);
    const ms = await fluid.profile(STEPS_PER_SAMPLE);
    let total = 0;
    for (const [stage, value] of Object.entries(ms)) if (part === 'build' ? BUILD_STAGES.has(stage) : stage === part) total += value;
    return total;
  };
}

function msPerStep(mode: NeighbourMode, count: number): Measure {
  const measure = stepsPerSecond(mode, count);
  return async () => 1000 / (await measure());
}

function label(count: number): string {
  return count >= 1_000_000 ? `${count / 1_000_000}M` : `${count / 1000}k`;
}

export const suite = defineSuite({
  package: '@cuttle/gpu-fluid',
  kind: 'gpu',
  rounds: QUICK ? 1 : 7,
  async setup() {
    gpu = await requestNodeGpu();
    timer = new GpuTimer(gpu.device);
    // Compile, page in and wake the GPU's clocks before anything is timed.
    const warmUntil = performance.now() + (QUICK ? 0 : 1000);
    do await stepsPerSecond('counting-sort', SIZES[0]!)();
    while (performance.now() < warmUntil);
  },
  teardown() {
    for (const { fluid } of simulations.values()) fluid.destroy();
    timer?.destroy();
    gpu?.device.destroy();
  },
  gpu: () => (gpu ? gpu.info.summary : null),
  cases: (): BenchCase[] =>
    SIZES.flatMap((count): BenchCase[] => {
      const nbody = count <= NBODY_LIMIT;
      const peers: Record<string, Measure> = { 'hashed grid (mode hashed-grid)': stepsPerSecond('hashed-grid', count), 'hashed grid, onesweep sort': stepsPerSecond('hashed-grid', count, 'onesweep') };
      const msPeers: Record<string, Measure> = { 'hashed grid (mode hashed-grid)': msPerStep('hashed-grid', count) };
      if (nbody) {
        peers['N-body tiles (mode nbody)'] = stepsPerSecond('nbody', count);
        msPeers['N-body tiles (mode nbody)'] = msPerStep('nbody', count);
      }
      return [
        { name: `full SPH step, ${label(count)} particles (dam break)`, unit: 'steps/s', higherIsBetter: true, ours: stepsPerSecond('counting-sort', count), peers },
        { name: `ms per full step, ${label(count)} particles`, unit: 'ms', higherIsBetter: false, ours: msPerStep('counting-sort', count), peers: msPeers },
      ];
    }).concat(
      KERNEL_SIZES.flatMap((count) =>
        ['build', 'density', 'forces', 'integrate'].map((part): BenchCase => ({
          name: `kernel ms at ${label(count)}: ${part === 'build' ? 'grid build' : part}`,
          unit: 'ms',
          higherIsBetter: false,
          ours: kernelMs('counting-sort', count, part),
          peers: { 'hashed grid (mode hashed-grid)': kernelMs('hashed-grid', count, part), ...(part === 'build' ? { 'hashed grid, onesweep sort': kernelMs('hashed-grid', count, part, 'onesweep') } : {}) },
        })),
      ),
    ),
  notes: [
    'Ours is mode counting-sort: atomic count per grid cell, GpuScan prefix sum, scatter that reorders the particle data, 27 neighbour cells.',
    'Peers: mode hashed-grid (the post: prime hash into a table of the next power of two >= particles, GpuRadixSort by hash, starts by atomicMin, gather, 27 cells)',
    'and mode nbody (every pair through 256-particle workgroup-memory tiles), measured only where O(n^2) still makes sense.',
    '"Hashed grid, onesweep sort" is the hashed grid with sortAlgorithm: \'onesweep\' (GpuRadixSort\'s one-sweep kernel instead of count-scan).',
    `Each sample: reset to the dam-break start (lattice spacing h/2, about 8 particles per cell), then ${STEPS_PER_SAMPLE} steps (${NBODY_STEPS_PER_SAMPLE} for nbody) in one submit,`,
    'GPU time from timestamp queries at the start of the first pass and the end of the last; ms per step = 1000 / (steps/s). Median of the rounds.',
    `Kernel rows: FluidSimulation.profile(${STEPS_PER_SAMPLE}) at each size, every stage in its own timed pass (so they add up to a little more than a full step);`,
    'grid build is count-cells + scan + scatter (ours) against hash + sort + clear-table + cell-offsets + gather (hashed grid).',
  ].join(' '),
});
