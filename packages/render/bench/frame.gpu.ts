// GPU benchmark of whole frames of the courtyard with 1,000 walking characters, 4,096 small
// lights and 1M fluid particles, at 1080p and 4K: milliseconds per pass from the renderer's
// timestamp queries, mean of the same 20 frames (characters and lights moving) for every
// courtyard, resolution and round, so the peers leave out one part of exactly these frames.
// The main rows light the courtyard the way a game would (ranges 0.5-1.5: a few lights reach
// each point); the "dense lights" peer is the demo's look (ranges 1.5-4.5: about 90 reach each
// point), a stress test of the culling and the light loop.
// CUTTLE_BENCH_QUICK shrinks everything for a lavapipe smoke run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineSuite, type BenchCase, type Measure } from '@cuttle/bench';
import { encodePng } from '@cuttle/gui';
import { readTexture } from '@cuttle/test-utils/gpu-buffers';
import { requestNodeGpu, type NodeGpu } from '@cuttle/test-utils/node-gpu';
import { lookAt, perspective } from '@cuttle/gpu-culling';
import { buildCourtyard, PASSES, Renderer, RenderScene, type Courtyard, type PassName, type RenderCamera, type RendererOptions } from '../src/index.ts';

type Resolution = readonly [name: string, width: number, height: number];
type Times = Partial<Record<PassName | 'frame', number>>;

const QUICK = Boolean(process.env.CUTTLE_BENCH_QUICK);
const RESOLUTIONS: Resolution[] = QUICK ? [['180p', 320, 180]] : [['1080p', 1920, 1080], ['4K', 3840, 2160]];
const CONTENT = QUICK ? { characters: 20, lights: 256, fluid: 4000 } : { characters: 1000, lights: 4096, fluid: 1_000_000 };
const LIGHT_RANGES = { small: [0.5, 1.5], dense: [1.5, 4.5] } as const;
/** The courtyards timed: ours, the dense-light stress peer, and ours without one part (4K only). */
const VARIANTS = {
  small: { ...CONTENT, lightRange: LIGHT_RANGES.small },
  dense: { ...CONTENT, lightRange: LIGHT_RANGES.dense },
  noFluid: { ...CONTENT, fluid: 0, lightRange: LIGHT_RANGES.small },
  noCharacters: { ...CONTENT, characters: 0, lightRange: LIGHT_RANGES.small },
  noLights: { ...CONTENT, lights: 0, lightRange: LIGHT_RANGES.small },
} as const;
type Lighting = keyof typeof VARIANTS;
/** Renderer settings: ours (the defaults), or one left at its alternative. */
const RENDERERS = {
  ours: {},
  hardware: { skinnedRaster: 'hardware' },
  forward: { opaqueShading: 'forward' },
  sparseWalk: { tileWalk: 'sparse' },
} as const satisfies Record<string, Partial<RendererOptions>>;
type Raster = keyof typeof RENDERERS;
/** Peers: [courtyard, renderer, measured at every resolution (else at the largest only)]. */
const PEERS: Record<string, [Lighting, Raster, boolean]> = {
  'characters on the raster hardware': ['small', 'hardware', true],
  'forward+ with a depth prepass': ['small', 'forward', true],
  'dense lights (stress)': ['dense', 'ours', true],
  'tiles walked sparsely': ['small', 'sparseWalk', true],
  'dense lights, tiles walked sparsely': ['dense', 'sparseWalk', true],
  'without the fluid': ['noFluid', 'ours', false],
  'without the characters': ['noCharacters', 'ours', false],
  'without the culled lights': ['noLights', 'ours', false],
};
const FRAMES = QUICK ? 2 : 20;
const WARM_UP_MS = 4000;

let gpu: NodeGpu | undefined;
const courtyards = new Map<Lighting, { scene: RenderScene; yard: Courtyard }>();
const renderers = new Map<string, { renderer: Renderer; target: GPUTexture }>();

/** Ours and the dense-light peer at every resolution; the leave-one-out peers at the largest only. */
function measuredAt(lighting: Lighting, resolution: number): boolean {
  return lighting === 'small' || (Object.values(PEERS).find(([variant]) => variant === lighting)?.[2] ?? false) || resolution === RESOLUTIONS.length - 1;
}

function setFor(resolution: Resolution, raster: Raster): { renderer: Renderer; target: GPUTexture } {
  let entry = renderers.get(`${resolution[0]} ${raster}`);
  if (!entry) {
    const device = gpu!.device;
    entry = {
      renderer: new Renderer(device, { format: 'rgba8unorm', maxLights: CONTENT.lights + 64, ...RENDERERS[raster] }),
      // Storage, as the engine's offscreen frames: the renderer tone-maps into it from compute.
      target: device.createTexture({ size: [resolution[1], resolution[2]], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.STORAGE_BINDING }),
    };
    renderers.set(`${resolution[0]} ${raster}`, entry);
  }
  return entry;
}

/** The benchmark's camera at `clock` seconds: it drifts around the courtyard. */
function cameraAt(clock: number, aspect: number): RenderCamera {
  return { view: lookAt([14 * Math.cos(clock * 0.1), 9, 22], [0, 0, -2]), projection: perspective({ fovY: 0.9, aspect, near: 0.1, far: Infinity, reversedZ: true }) };
}

/**
 * Before timing: the first frame drawn by ours and by each renderer peer (characters on the raster
 * hardware, forward+) at a small size must agree but for edge pixels, on the GPU that is timed.
 * CUTTLE_BENCH_SNAPSHOTS=<folder> also writes the three frames there as PNGs.
 */
async function checkRenderersAgree(): Promise<void> {
  const device = gpu!.device;
  const { yard, scene } = courtyards.get('small')!;
  const [width, height] = QUICK ? [160, 90] : [480, 270];
  yard.animate(1 / 60);
  const frames = new Map<Raster, Uint8Array>();
  for (const raster of Object.keys(RENDERERS) as Raster[]) {
    const renderer = new Renderer(device, { format: 'rgba8unorm', maxLights: CONTENT.lights + 64, ...RENDERERS[raster] });
    const target = device.createTexture({ size: [width, height], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });
    const encoder = device.createCommandEncoder();
    renderer.render(encoder, scene, cameraAt(1 / 60, width / height), { view: target.createView(), width, height });
    device.queue.submit([encoder.finish()]);
    frames.set(raster, await readTexture(device, target, 4));
    renderer.destroy();
    target.destroy();
  }
  const folder = process.env.CUTTLE_BENCH_SNAPSHOTS;
  if (folder) {
    mkdirSync(folder, { recursive: true });
    for (const [raster, pixels] of frames) writeFileSync(join(folder, `courtyard-${raster}.png`), await encodePng({ width, height, channels: 4, data: pixels }));
  }
  const ours = frames.get('ours')!;
  for (const [raster, pixels] of frames) {
    let differing = 0;
    for (let i = 0; i < width * height; i++) if ([0, 1, 2].some((c) => Math.abs(pixels[i * 4 + c]! - ours[i * 4 + c]!) > 16)) differing++;
    process.stderr.write(`    ${raster} against ours: ${differing} of ${width * height} pixels differ\n`);
    if (differing > width * height * 0.01) throw new Error(`the ${raster} renderer's frame differs from ours on ${differing} of ${width * height} pixels (more than edges): not timing frames that disagree`);
  }
}

/** Mean ms per pass (and their sum) over FRAMES frames of one courtyard. */
async function frameTimes(resolution: Resolution, lighting: Lighting, raster: Raster): Promise<Times> {
  const { renderer, target } = setFor(resolution, raster);
  const { scene, yard } = courtyards.get(lighting)!;
  const device = gpu!.device;
  const sums: Times = {};
  for (let f = 0; f < FRAMES; f++) {
    // The same 20 moments (animation and camera) for every courtyard, resolution and round, so
    // the peers are timed on the very frames ours is.
    const clock = (f + 1) / 60;
    yard.animate(clock);
    const camera = cameraAt(clock, resolution[1] / resolution[2]);
    const encoder = device.createCommandEncoder();
    renderer.render(encoder, scene, camera, { view: target.createView(), texture: target, width: resolution[1], height: resolution[2] });
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

// One set of frames per round, resolution and lighting gives every pass its figure: the frame
// case renders them and the per-pass cases of the same resolution read the same rounds (each of
// the 11 cases rendering its own frames made the 4K run take minutes).
const rounds = new Map<string, Times[]>();

function measure(resolution: Resolution, part: PassName | 'frame', lighting: Lighting = 'small', raster: Raster = 'ours'): Measure {
  let round = 0;
  return async () => {
    const key = `${resolution[0]} ${lighting}${raster === 'ours' ? '' : ` ${raster}`}`;
    const list = rounds.get(key) ?? [];
    rounds.set(key, list);
    if (list.length <= round) {
      const started = performance.now();
      list.push(await frameTimes(resolution, lighting, raster));
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const times = JSON.stringify(list.at(-1), (_, v: unknown) => (typeof v === 'number' ? Number(v.toFixed(3)) : v));
      process.stderr.write(`    ${key} round ${list.length}: ${FRAMES} frames in ${seconds} s wall, ${times} ms GPU\n`);
    }
    return list[round++]![part] ?? 0;
  };
}

/** How many lights reach an average point of the volume the lights live in (40 x 40 x 4.5 units). */
function lightsPerPoint([min, max]: readonly [number, number]): number {
  const meanCube = (max ** 4 - min ** 4) / (4 * (max - min));
  return (CONTENT.lights * (4 / 3) * Math.PI * meanCube) / (40 * 40 * 4.5);
}

export const suite = defineSuite({
  package: '@cuttle/render',
  kind: 'gpu',
  rounds: QUICK ? 1 : 3,
  async setup() {
    gpu = await requestNodeGpu();
    for (const lighting of Object.keys(VARIANTS) as Lighting[]) {
      const scene = new RenderScene(gpu.device);
      courtyards.set(lighting, { scene, yard: buildCourtyard(scene, VARIANTS[lighting]) });
    }
    // Warm up: compile every pipeline, page in every buffer. A validation error stops the run
    // rather than time frames the GPU refused to draw.
    gpu.device.pushErrorScope('validation');
    for (const [r, resolution] of RESOLUTIONS.entries()) {
      for (const lighting of courtyards.keys()) if (measuredAt(lighting, r)) await frameTimes(resolution, lighting, 'ours');
      for (const raster of ['hardware', 'forward', 'sparseWalk'] as const) await frameTimes(resolution, 'small', raster);
      await frameTimes(resolution, 'dense', 'sparseWalk');
    }
    await checkRenderersAgree();
    // The first resolution timed used to read up to 35% slow in some processes (the GPU still
    // ramping up): frames for a few seconds first.
    const warm = performance.now();
    while (!QUICK && performance.now() - warm < WARM_UP_MS) await frameTimes(RESOLUTIONS[0]!, 'small', 'ours');
    const error = await gpu.device.popErrorScope();
    if (error) throw new Error(`the courtyard frame does not validate: ${error.message}`);
  },
  teardown() {
    for (const { renderer, target } of renderers.values()) {
      renderer.destroy();
      target.destroy();
    }
    for (const { scene, yard } of courtyards.values()) {
      yard.destroy();
      scene.destroy();
    }
    gpu?.device.destroy();
  },
  gpu: () => (gpu ? gpu.info.summary : null),
  cases: (): BenchCase[] =>
    RESOLUTIONS.flatMap((resolution, r): BenchCase[] => {
      const peers = (part: PassName | 'frame'): Record<string, Measure> =>
        Object.fromEntries(Object.entries(PEERS).filter(([, [, , everywhere]]) => everywhere || r === RESOLUTIONS.length - 1).map(([name, [variant, raster]]) => [name, measure(resolution, part, variant, raster)]));
      return [
        { name: `whole frame, ${resolution[0]} (sum of the passes)`, unit: 'ms', higherIsBetter: false, ours: measure(resolution, 'frame'), peers: peers('frame') },
        ...PASSES.map((pass): BenchCase => ({ name: `${resolution[0]}: ${pass}`, unit: 'ms', higherIsBetter: false, ours: measure(resolution, pass), peers: peers(pass) })),
      ];
    }),
  notes: [
    `The courtyard example with ${CONTENT.characters} walking characters (procedural, packed vertices, skinned once per frame, rasterized in compute: a peer draws them through the raster hardware),`,
    `${CONTENT.lights} small moving lights culled per 16x16 tile (flat bits), ${CONTENT.fluid} fluid particles drawn as sphere impostors (not stepped:`,
    'the simulation is @cuttle/gpu-fluid\'s own benchmark), the sun and its shadow map with the coloured-glass filter, water caustics.',
    'Opaque surfaces lit deferred (a G-buffer lit in compute); a peer lights them forward+ after a depth prepass (opaqueShading: \'forward\').',
    `Ours: light ranges ${LIGHT_RANGES.small.join('-')} units (about ${lightsPerPoint(LIGHT_RANGES.small).toFixed(1)} lights reach an average point of the 40 x 40 x 4.5 volume they live in);`,
    `dense lights (stress): ranges ${LIGHT_RANGES.dense.join('-')} (about ${lightsPerPoint(LIGHT_RANGES.dense).toFixed(0)} per point, the demo's look), same everything else.`,
    'At the largest resolution two more peers leave one part out (the fluid, the characters) to show what each costs.',
    'Ours walks the culled tiles with gpu-culling\'s dense walk (render\'s default tileWalk); two peers take the sparse walk (tileWalk: \'sparse\'), with both courtyards\' lights.',
    `Each round: ${FRAMES} frames in a row, characters and lights moving, each frame's passes timed by the renderer's timestamp queries; mean per frame, median of the rounds (every pass row reads the same rounds as the frame row).`,
    'The frame is the sum of the passes (GPU time between them, such as buffer uploads, is not counted).',
  ].join(' '),
});
