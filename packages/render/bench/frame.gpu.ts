// GPU benchmark of whole frames of the courtyard with 1,000 walking characters, 4,096 small
// lights and 1M fluid particles, at 1080p and 4K: milliseconds per pass from the renderer's
// timestamp queries, mean of 20 frames with the characters and lights moving every frame.
// CUTTLE_BENCH_QUICK shrinks everything for a lavapipe smoke run.
import { defineSuite, type BenchCase, type Measure } from '@cuttle/bench';
import { requestNodeGpu, type NodeGpu } from '@cuttle/test-utils/node-gpu';
import { lookAt, perspective } from '@cuttle/gpu-culling';
import { buildCourtyard, PASSES, Renderer, RenderScene, type Courtyard, type PassName } from '../src/index.ts';

const QUICK = Boolean(process.env.CUTTLE_BENCH_QUICK);
const RESOLUTIONS: [string, number, number][] = QUICK ? [['180p', 320, 180]] : [['1080p', 1920, 1080], ['4K', 3840, 2160]];
const CONTENT = QUICK ? { characters: 20, lights: 256, fluid: 4000 } : { characters: 1000, lights: 4096, fluid: 1_000_000 };
const FRAMES = QUICK ? 2 : 20;

let gpu: NodeGpu | undefined;
let scene: RenderScene | undefined;
let yard: Courtyard | undefined;
const renderers = new Map<string, { renderer: Renderer; target: GPUTexture }>();
let clock = 0;

function setFor(resolution: [string, number, number]): { renderer: Renderer; target: GPUTexture } {
  let entry = renderers.get(resolution[0]);
  if (!entry) {
    const device = gpu!.device;
    entry = {
      renderer: new Renderer(device, { format: 'rgba8unorm', maxLights: CONTENT.lights + 64 }),
      target: device.createTexture({ size: [resolution[1], resolution[2]], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT }),
    };
    renderers.set(resolution[0], entry);
  }
  return entry;
}

/** Mean ms per pass (and their sum) over FRAMES frames. */
async function frameTimes(resolution: [string, number, number]): Promise<Partial<Record<PassName | 'frame', number>>> {
  const { renderer, target } = setFor(resolution);
  const device = gpu!.device;
  const sums: Partial<Record<PassName | 'frame', number>> = {};
  for (let f = 0; f < FRAMES; f++) {
    clock += 1 / 60;
    yard!.animate(clock);
    const camera = { view: lookAt([14 * Math.cos(clock * 0.1), 9, 22], [0, 0, -2]), projection: perspective({ fovY: 0.9, aspect: resolution[1] / resolution[2], near: 0.1, far: Infinity, reversedZ: true }) };
    const encoder = device.createCommandEncoder();
    renderer.render(encoder, scene!, camera, { view: target.createView(), width: resolution[1], height: resolution[2] });
    device.queue.submit([encoder.finish()]);
    const timings = await renderer.readTimings();
    let frame = 0;
    for (const pass of PASSES) {
      sums[pass] = (sums[pass] ?? 0) + (timings[pass] ?? 0);
      frame += timings[pass] ?? 0;
    }
    sums.frame = (sums.frame ?? 0) + frame;
  }
  for (const key of Object.keys(sums) as (PassName | 'frame')[]) sums[key] = sums[key]! / FRAMES;
  return sums;
}

function measure(resolution: [string, number, number], part: PassName | 'frame'): Measure {
  return async () => (await frameTimes(resolution))[part] ?? 0;
}

export const suite = defineSuite({
  package: '@cuttle/render',
  kind: 'gpu',
  rounds: QUICK ? 1 : 3,
  async setup() {
    gpu = await requestNodeGpu();
    scene = new RenderScene(gpu.device);
    yard = buildCourtyard(scene, CONTENT);
    // Warm up: compile every pipeline, page in every buffer.
    for (const resolution of RESOLUTIONS) await frameTimes(resolution);
  },
  teardown() {
    for (const { renderer, target } of renderers.values()) {
      renderer.destroy();
      target.destroy();
    }
    yard?.destroy();
    scene?.destroy();
    gpu?.device.destroy();
  },
  gpu: () => (gpu ? gpu.info.summary : null),
  cases: (): BenchCase[] =>
    RESOLUTIONS.flatMap((resolution): BenchCase[] => [
      { name: `whole frame, ${resolution[0]} (sum of the passes)`, unit: 'ms', higherIsBetter: false, ours: measure(resolution, 'frame'), peers: {} },
      ...PASSES.map((pass): BenchCase => ({ name: `${resolution[0]}: ${pass}`, unit: 'ms', higherIsBetter: false, ours: measure(resolution, pass), peers: {} })),
    ]),
  notes: [
    `The courtyard example with ${CONTENT.characters} walking characters (procedural, packed vertices, skinned once per frame),`,
    `${CONTENT.lights} small moving lights culled per 16x16 tile (flat bits), ${CONTENT.fluid} fluid particles drawn as sphere impostors (not stepped:`,
    'the simulation is @cuttle/gpu-fluid\'s own benchmark), the sun and its shadow map with the coloured-glass filter, water caustics.',
    `Each sample: ${FRAMES} frames in a row, characters and lights moving, each frame's passes timed by the renderer's timestamp queries; mean per frame, median of the rounds.`,
    'The frame is the sum of the passes (GPU time between them, such as buffer uploads, is not counted).',
  ].join(' '),
});
