// GPU benchmark: the courtyard of packages/render/bench/frame.gpu.ts (1,000 walking characters,
// 4,096 small lights with ranges 0.5-1.5, 1M fluid particles, the sun's shadows) drawn by
// @cuttle/render and by plain three.js r187 (src/three-courtyard.ts) in one process on one
// device, at 1080p and 4K, over the same 20 moments (animation time and camera) for both.
// One method for every column: milliseconds from the start of the frame's JavaScript (animate
// and render calls) until device.queue.onSubmittedWorkDone() resolves, and the JavaScript part
// alone; each round the mean over the 20 frames, the table the median of the rounds, the
// columns alternating their order each round (the harness does that).
// Before timing, the first frame of every column at every size is saved as a PNG, to
// `--png-out <folder>` (or CUTTLE_BENCH_SNAPSHOTS, else /tmp/courtyard-bench), to compare by eye.
// A third column is one more Contender in CONTENDERS (bench/contender.ts says what it does).
// CUTTLE_BENCH_QUICK shrinks everything for a lavapipe smoke run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineSuite, type BenchCase, type Measure } from '@cuttle/bench';
import { encodePng } from '@cuttle/gui';
import { requestNodeGpu, type NodeGpu } from '@cuttle/test-utils/node-gpu';
import { courtyardViewAt } from '../src/index.ts';
import type { Contender, CourtyardContent } from './contender.ts';
import { RenderContender } from './render-contender.ts';
import { ThreeContender } from './three-contender.ts';

type Resolution = readonly [name: string, width: number, height: number];
type Part = 'frame' | 'js';

const QUICK = Boolean(process.env.CUTTLE_BENCH_QUICK);
const RESOLUTIONS: Resolution[] = QUICK ? [['180p', 320, 180]] : [['1080p', 1920, 1080], ['4K', 3840, 2160]];
const CONTENT: CourtyardContent = QUICK ? { characters: 20, lights: 256, fluid: 4000, lightRange: [0.5, 1.5] } : { characters: 1000, lights: 4096, fluid: 1_000_000, lightRange: [0.5, 1.5] };
const FRAMES = QUICK ? 2 : 20;
const WARM_UP_MS = QUICK ? 0 : 4000;

const three = new ThreeContender();
const threeWithAdapters = new ThreeContender(true);
/** The columns; the first is "ours" in the table, the others its peers. */
const CONTENDERS: Contender[] = [new RenderContender(), three, threeWithAdapters];

let gpu: NodeGpu | undefined;

function pngFolder(): string {
  const flag = process.argv.indexOf('--png-out');
  return (flag >= 0 ? process.argv[flag + 1] : undefined) ?? process.env.CUTTLE_BENCH_SNAPSHOTS ?? '/tmp/courtyard-bench';
}

/** The frame's moment: the same 20 clocks (animation and camera) for every column, size and round. */
function clockOf(frame: number): number {
  return (frame + 1) / 60;
}

/** One frame's milliseconds: its JavaScript, and until the GPU finished it. */
async function timeFrame(contender: Contender, frame: number, resolution: Resolution): Promise<Record<Part, number>> {
  const clock = clockOf(frame);
  const view = courtyardViewAt(clock, resolution[1], resolution[2]);
  const started = performance.now();
  contender.frame(clock, view);
  const submitted = performance.now();
  await gpu!.device.queue.onSubmittedWorkDone();
  return { js: submitted - started, frame: performance.now() - started };
}

/** Mean milliseconds per frame over the FRAMES moments. */
async function round(contender: Contender, resolution: Resolution): Promise<Record<Part, number>> {
  const sums = { js: 0, frame: 0 };
  for (let f = 0; f < FRAMES; f++) {
    const times = await timeFrame(contender, f, resolution);
    sums.js += times.js;
    sums.frame += times.frame;
  }
  return { js: sums.js / FRAMES, frame: sums.frame / FRAMES };
}

// The frame and JavaScript rows of one size read the same rounds (one set of frames per round).
const rounds = new Map<string, Record<Part, number>[]>();

function measure(contender: Contender, resolution: Resolution, part: Part): Measure {
  let next = 0;
  return async () => {
    const key = `${contender.name} ${resolution[0]}`;
    const list = rounds.get(key) ?? [];
    rounds.set(key, list);
    if (list.length <= next) {
      list.push(await round(contender, resolution));
      const last = list.at(-1)!;
      process.stderr.write(`    ${key} round ${list.length}: ${last.frame.toFixed(2)} ms a frame, ${last.js.toFixed(2)} ms of it JavaScript\n`);
    }
    return list[next++]![part];
  };
}

/** The first frame of every column at every size, as PNGs (before any timing). */
async function saveFirstFrames(): Promise<void> {
  const folder = pngFolder();
  mkdirSync(folder, { recursive: true });
  for (const [name, width, height] of RESOLUTIONS) {
    for (const contender of CONTENDERS) {
      contender.frame(clockOf(0), courtyardViewAt(clockOf(0), width, height));
      const pixels = await contender.read();
      const file = join(folder, `courtyard-${name}-${contender.name.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}.png`);
      writeFileSync(file, await encodePng({ width, height, channels: 4, data: pixels }));
      process.stderr.write(`    saved ${file}\n`);
    }
  }
}

export const suite = defineSuite({
  package: '@cuttle/courtyard-bench',
  kind: 'gpu',
  rounds: QUICK ? 1 : 5,
  async setup() {
    gpu = await requestNodeGpu();
    for (const contender of CONTENDERS) await contender.build(gpu, CONTENT);
    // Warm up every column at every size (pipelines compiled, buffers paged in), inside a
    // validation scope: a frame the GPU refused is not timed.
    gpu.device.pushErrorScope('validation');
    for (const resolution of RESOLUTIONS) for (const contender of CONTENDERS) await round(contender, resolution);
    await saveFirstFrames();
    process.stderr.write(`    three's ClusteredLighting clustered ${three.clusteredLights()} of ${CONTENT.lights} lights; @cuttle/three's CulledLighting culled ${threeWithAdapters.clusteredLights()}\n`);
    const warm = performance.now();
    while (performance.now() - warm < WARM_UP_MS) for (const contender of CONTENDERS) await round(contender, RESOLUTIONS[0]!);
    const error = await gpu.device.popErrorScope();
    if (error) throw new Error(`a courtyard frame does not validate: ${error.message}`);
  },
  async teardown() {
    for (const contender of CONTENDERS) await contender.destroy();
    gpu?.device.destroy();
  },
  gpu: () => (gpu ? gpu.info.summary : null),
  cases: (): BenchCase[] =>
    RESOLUTIONS.flatMap((resolution): BenchCase[] => {
      const [ours, ...peers] = CONTENDERS;
      const row = (name: string, part: Part): BenchCase => ({
        name,
        unit: 'ms',
        higherIsBetter: false,
        ours: measure(ours!, resolution, part),
        peers: Object.fromEntries(peers.map((peer) => [peer.name, measure(peer, resolution, part)])),
      });
      return [
        row(`courtyard, ${resolution[0]}: frame until the GPU is done (JavaScript start to onSubmittedWorkDone)`, 'frame'),
        row(`courtyard, ${resolution[0]}: JavaScript per frame (animate and render calls)`, 'js'),
      ];
    }),
  notes: [
    `The courtyard of @cuttle/render's frame benchmark with ${CONTENT.characters} walking characters, ${CONTENT.lights} small moving lights (ranges ${CONTENT.lightRange.join('-')}),`,
    `${CONTENT.fluid} fluid particles (the same @cuttle/gpu-fluid simulation in both columns, not stepped) and the sun's shadows, built in @cuttle/render (default Renderer options: deferred`,
    'lighting, compute-rasterized characters, SSAO, caustics, coloured glass shadows) and in plain three.js r187 (SkinnedMesh per character, ClusteredLighting,',
    'PCF shadows with transmitted glass tint, ACES and sRGB output; no SSAO, no caustics: see apps/courtyard-bench/README.md).',
    `Each round: the same ${FRAMES} moments (animation time and camera) for both columns, one frame at a time, timed from the start of its JavaScript to`,
    'device.queue.onSubmittedWorkDone(); mean per frame, median of the rounds, columns alternating order each round.',
  ].join(' '),
});
