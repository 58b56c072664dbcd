// GPU benchmark of tiled culling on a street-level view of a generated city (towers beside far
// skylines: real depth discontinuities), at 1080p and 4K with 1k, 4k, 16k and 64k lights:
// flat bits against compaction, gather against scatter, 2.5D against 2D, and what it buys the
// forward+ shading pass. Before anything is timed, the GPU's results are checked against the
// TypeScript reference. CUTTLE_BENCH_QUICK shrinks everything for a lavapipe smoke run.
import { ColdCacheGpuTimer, defineSuite, type BenchCase, type Measure } from '@cuttle/bench';
import { requestNodeGpu, type NodeGpu } from '@cuttle/test-utils/node-gpu';
import { boxMatrix, EntityList, ForwardPlusBoxes, entitiesPerShadedPixel, generateCity, generateForest, lookAt, perspective, populateCity, populateForest, TileCuller, type CameraInput, type City, type CullMethod, type CullWalk, type Forest, type Technique } from '../src/index.ts';
import { verifyAgainstReference, verifyForwardPlus, verifyGatherEqualsScatter } from './verify.ts';

const QUICK = Boolean(process.env.CUTTLE_BENCH_QUICK);
const RESOLUTIONS: [string, number, number][] = QUICK ? [['180p', 320, 180], ['360p', 640, 360]] : [['1080p', 1920, 1080], ['4K', 3840, 2160]];
const COUNTS = QUICK ? [256, 1024] : [1024, 4096, 16_384, 65_536];
const ITERATIONS = QUICK ? 2 : 10;
const FLUSH_BYTES = QUICK ? 1 << 20 : 256 << 20;
/** Shading every light at every pixel is measured up to this many lights. */
const EVERYTHING_LIMIT = 4096;

let gpu: NodeGpu | undefined;
let city: City;
let forest: Forest;
const cameras = new Map<string, CameraInput>();
const depths = new Map<string, GPUTexture>();
const colors = new Map<string, GPUTexture>();
const lists = new Map<string, EntityList>();
const cullers = new Map<string, TileCuller>();
const renderers = new Map<string, ForwardPlusBoxes>();
/** Each run timed alone, after a copy that evicts the L2. */
let timer: ColdCacheGpuTimer | undefined;

type View = 'street' | 'park' | 'forest';

/**
 * Street: down a street between towers to the skyline. Park: across a park, through the trees.
 * Forest: at eye level into the generated forest (its own scene and lights), the post's case.
 */
function viewCamera(view: View, width: number, height: number): CameraInput {
  const projection = perspective({ fovY: 1.0, aspect: width / height, near: 0.2, far: 2000 });
  if (view === 'forest') return { view: lookAt([-forest.size / 2 - 2, 1.7, 3], [0, 3, 0]), projection };
  if (view === 'street') return { view: lookAt([city.street(3) + 1.5, 4, city.street(0) - 12], [city.street(3) + 1.5, 3, city.street(city.blocks)]), projection };
  const [bx, bz] = city.parks[0]!;
  const [x0, z0, x1, z1] = city.block(bx, bz);
  return { view: lookAt([x0 - 4, 2.2, (z0 + z1) / 2], [x1 + 20, 3.5, (z0 + z1) / 2 + 3]), projection };
}

/** `count` lights of the city in random order, or (sorted) in Morton order of their positions; or the forest's. */
function lightList(count: number, sorted = false, view: View = 'street'): EntityList {
  const key = `${view === 'forest' ? 'forest' : 'city'}:${sorted ? 'morton' : 'random'}:${count}`;
  let list = lists.get(key);
  if (!list) {
    list = new EntityList();
    if (view === 'forest') populateForest(forest, list, { lights: count, seed: count });
    else populateCity(city, list, { lights: count, seed: count });
    if (sorted) list.sortLightsSpatially();
    lists.set(key, list);
  }
  return list;
}

/** 100 overlapping decals that cover the whole screen (the post's worst case), and 1000 lights. */
function fullScreenDecals(): EntityList {
  let list = lists.get('decals');
  if (!list) {
    list = new EntityList();
    populateCity(city, list, { lights: 1000, seed: 99 });
    const x = city.street(3) + 1.5, z = city.street(0);
    for (let d = 0; d < 100; d++) list.addDecal({ matrix: boxMatrix([x, 10, z + 60], [200, 60, 200], d * 0.03), color: [1, 0.5, 0.2, 0.01] });
    lists.set('decals', list);
  }
  return list;
}

/** A culler; without cullThreads, the package's default for maxEntities. */
function culler(technique: Technique, maxEntities: number, cullThreads?: 64 | 128 | 256, tileLists = true): TileCuller {
  const key = `${technique}:${maxEntities}:${cullThreads ?? 'default'}:${tileLists}`;
  let found = cullers.get(key);
  if (!found) {
    found = new TileCuller(gpu!.device, cullThreads ? { technique, maxEntities, cullThreads, tileLists } : { technique, maxEntities, tileLists });
    cullers.set(key, found);
  }
  return found;
}

/** maxEntities for `count` lights: the seed's 4096 up to 4096 lights, else the count. */
function capacityFor(count: number): number {
  return Math.max(4096, count + 128);
}

function renderer(technique: Technique, maxEntities: number, scalarize = false, view: View = 'street', tileLists = true, walk: CullWalk = 'auto'): ForwardPlusBoxes {
  const scene = view === 'forest' ? 'forest' : 'city';
  const key = `${technique}:${maxEntities}:${scalarize}:${scene}:${tileLists}:${walk}`;
  let found = renderers.get(key);
  if (!found) {
    found = new ForwardPlusBoxes(gpu!.device, culler(technique, maxEntities, undefined, tileLists), { colorFormat: 'rgba8unorm', scalarize, walk });
    found.setBoxes(scene === 'forest' ? forest.boxes : city.boxes);
    renderers.set(key, found);
  }
  return found;
}

function target(resolution: string, width: number, height: number, view: View = 'street'): { depth: GPUTexture; color: GPUTexture; camera: CameraInput } {
  const key = `${resolution}:${view}`;
  let depth = depths.get(key);
  if (!depth) {
    const device = gpu!.device;
    depth = device.createTexture({ size: [width, height], format: 'depth32float', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_SRC });
    colors.set(key, device.createTexture({ size: [width, height], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC }));
    const camera = viewCamera(view, width, height);
    cameras.set(key, camera);
    const boxes = renderer('flat-bits', 4096, false, view);
    boxes.setCamera(camera);
    const encoder = device.createCommandEncoder();
    boxes.drawDepth(encoder, depth.createView());
    device.queue.submit([encoder.finish()]);
    depths.set(key, depth);
  }
  return { depth, color: colors.get(key)!, camera: cameras.get(key)! };
}

interface Variant {
  technique: Technique;
  method: CullMethod;
  depthMask: boolean;
  cullThreads?: 64 | 128 | 256;
  /** Flat bits: tiles that fit written as lists (the default; false: bits everywhere). */
  tileLists?: boolean;
}

function prepared(resolution: [string, number, number], list: EntityList, capacity: number, variant: Variant, view: View = 'street'): { c: TileCuller; depth: GPUTexture } {
  const { depth, camera } = target(...resolution, view);
  const c = culler(variant.technique, capacity, variant.cullThreads, variant.tileLists ?? true);
  c.method = variant.method;
  c.depthMask = variant.depthMask;
  c.setCamera(camera);
  c.setEntities(list);
  return { c, depth };
}

function cullMs(resolution: [string, number, number], list: EntityList, capacity: number, variant: Variant, view: View = 'street'): Measure {
  return () => {
    const { c, depth } = prepared(resolution, list, capacity, variant, view);
    return timer!.time((encoder, begin, end) => { c.cull(encoder, depth, { querySet: timer!.querySet, beginIndex: begin, endIndex: end }); });
  };
}

/**
 * The cull as a frame pays for it: `cull` records its buffer clears (the scatter's coarse bits,
 * the stats header) before its compute pass, outside the pass's timestamps. Here an empty pass
 * before them takes the begin timestamp, so the clears count too.
 */
function cullWithClearsMs(resolution: [string, number, number], list: EntityList, capacity: number, variant: Variant): Measure {
  return () => {
    const { c, depth } = prepared(resolution, list, capacity, variant);
    return timer!.time((encoder, begin, end) => {
      encoder.beginComputePass({ label: 'bench.begin', timestampWrites: { querySet: timer!.querySet, beginningOfPassWriteIndex: begin } }).end();
      c.cull(encoder, depth, { querySet: timer!.querySet, endIndex: end });
    });
  };
}

/** Lights per shaded pixel: each surface pixel counts the entities of its tile. */
function entitiesPerPixel(resolution: [string, number, number], count: number, depthMask: boolean, view: View = 'street'): Measure {
  return async () => {
    const { c, depth } = prepared(resolution, lightList(count, false, view), capacityFor(count), { technique: 'flat-bits', method: 'scatter', depthMask }, view);
    const encoder = gpu!.device.createCommandEncoder();
    c.cull(encoder, depth);
    gpu!.device.queue.submit([encoder.finish()]);
    return entitiesPerShadedPixel(await c.read());
  };
}

/** Light-tile pairs compaction drops at its default 255 entries a tile (flat bits drop none). */
function droppedPairs(resolution: [string, number, number], count: number): Measure {
  return async () => {
    const { c, depth } = prepared(resolution, lightList(count), capacityFor(count), { technique: 'compaction', method: 'scatter', depthMask: true });
    const encoder = gpu!.device.createCommandEncoder();
    c.cull(encoder, depth);
    gpu!.device.queue.submit([encoder.finish()]);
    return (await c.read()).droppedEntities;
  };
}

/** The forward+ colour pass (after culling), or the same pass lighting every pixel with every entity. */
function shadingMs(resolution: [string, number, number], count: number, technique: Technique, mode: 'culled' | 'everything', scalarize = false, view: View = 'street', depthMask = true, sorted = false, tileLists = true, walk: CullWalk = 'auto'): Measure {
  return async () => {
    const capacity = capacityFor(count);
    const { c, depth } = prepared(resolution, lightList(count, sorted, view), capacity, { technique, method: 'auto', depthMask, tileLists }, view);
    const { color, camera } = target(...resolution, view);
    const boxes = renderer(technique, capacity, scalarize, view, tileLists, walk);
    boxes.setCamera(camera);
    const encoder = gpu!.device.createCommandEncoder();
    c.cull(encoder, depth);
    gpu!.device.queue.submit([encoder.finish()]);
    return timer!.time((enc, begin, end) => { boxes.drawShaded(enc, color.createView(), depth.createView(), mode, { querySet: timer!.querySet, beginningOfPassWriteIndex: begin, endOfPassWriteIndex: end }); });
  };
}

function stageMs(resolution: [string, number, number], count: number, variant: Variant, stages: string[]): Measure {
  return async () => {
    const { c, depth } = prepared(resolution, lightList(count), capacityFor(count), variant);
    const profile = await c.profile(depth, ITERATIONS);
    return stages.reduce((sum, stage) => sum + (profile[stage as keyof typeof profile] ?? 0), 0);
  };
}

function label(count: number): string {
  return count >= 1024 ? `${count / 1024}k` : String(count);
}

function cases(): BenchCase[] {
  const out: BenchCase[] = [];
  const flatScatter: Variant = { technique: 'flat-bits', method: 'scatter', depthMask: true };
  for (const resolution of RESOLUTIONS) {
    const [name] = resolution;
    for (const count of COUNTS) {
      const list = lightList(count);
      const capacity = capacityFor(count);
      out.push({
        name: `cull ${name}, ${label(count)} lights (2.5D)`,
        unit: 'ms',
        higherIsBetter: false,
        ours: cullMs(resolution, list, capacity, flatScatter),
        peers: {
          'flat bits, gather': cullMs(resolution, list, capacity, { technique: 'flat-bits', method: 'gather', depthMask: true }),
          'compaction, scatter': cullMs(resolution, list, capacity, { technique: 'compaction', method: 'scatter', depthMask: true }),
          'compaction, gather': cullMs(resolution, list, capacity, { technique: 'compaction', method: 'gather', depthMask: true }),
          'flat bits without lists, scatter': cullMs(resolution, list, capacity, { ...flatScatter, tileLists: false }),
          'flat bits, scatter, 2D': cullMs(resolution, list, capacity, { technique: 'flat-bits', method: 'scatter', depthMask: false }),
        },
      });
      out.push({
        name: `cull ${name}, ${label(count)} lights (2.5D), with the clears recorded before its pass`,
        unit: 'ms',
        higherIsBetter: false,
        ours: cullWithClearsMs(resolution, list, capacity, flatScatter),
        peers: { 'its compute pass alone': cullMs(resolution, list, capacity, flatScatter) },
      });
      out.push({
        name: `lights per shaded pixel, ${name}, ${label(count)} lights`,
        unit: 'lights/px',
        higherIsBetter: false,
        ours: entitiesPerPixel(resolution, count, true),
        peers: { '2D (no depth mask)': entitiesPerPixel(resolution, count, false) },
      });
      out.push({
        name: `compaction (255 a tile): light-tile pairs dropped, ${name}, ${label(count)} lights`,
        unit: 'pairs',
        higherIsBetter: false,
        ours: droppedPairs(resolution, count),
        peers: {},
      });
      const shadingPeers: Record<string, Measure> = {
        'compaction tiles': shadingMs(resolution, count, 'compaction', 'culled'),
        'flat bits, sparse walk': shadingMs(resolution, count, 'flat-bits', 'culled', false, 'street', true, false, true, 'sparse'),
        'flat bits, dense walk': shadingMs(resolution, count, 'flat-bits', 'culled', false, 'street', true, false, true, 'dense'),
        'flat bits, scalarized': shadingMs(resolution, count, 'flat-bits', 'culled', true),
        'compaction, scalarized': shadingMs(resolution, count, 'compaction', 'culled', true),
        'flat bits, lights in Morton order': shadingMs(resolution, count, 'flat-bits', 'culled', false, 'street', true, true),
        'flat bits without lists': shadingMs(resolution, count, 'flat-bits', 'culled', false, 'street', true, false, false, 'dense'),
        'flat bits without lists, Morton order': shadingMs(resolution, count, 'flat-bits', 'culled', false, 'street', true, true, false, 'dense'),
      };
      if (count <= EVERYTHING_LIMIT) shadingPeers['every light at every pixel'] = shadingMs(resolution, count, 'flat-bits', 'everything');
      out.push({ name: `forward+ shading pass, ${name}, ${label(count)} lights`, unit: 'ms', higherIsBetter: false, ours: shadingMs(resolution, count, 'flat-bits', 'culled'), peers: shadingPeers });
    }
    const seedList = lightList(COUNTS[0]!);
    out.push({
      name: `seed set-up: ${label(COUNTS[0]!)} lights, 4096 max, gather, ${name}`,
      unit: 'ms',
      higherIsBetter: false,
      ours: cullMs(resolution, seedList, 4096, { technique: 'flat-bits', method: 'gather', depthMask: true }),
      peers: { 'compaction (255 per tile)': cullMs(resolution, seedList, 4096, { technique: 'compaction', method: 'gather', depthMask: true }) },
    });
  }
  const big = RESOLUTIONS[RESOLUTIONS.length - 1]!;
  const most = COUNTS[COUNTS.length - 1]!;
  for (const [stage, stages] of [['prepare (entities to cull space)', ['prepare']], ['depth pass (range, 2.5D mask, AABB)', ['depth']], ['coarse tiles + scatter', ['coarseBounds', 'scatter']], ['fine culling', ['fromCoarse']]] as const) {
    out.push({ name: `stage ms at ${big[0]}, ${label(most)} lights: ${stage}`, unit: 'ms', higherIsBetter: false, ours: stageMs(big, most, flatScatter, [...stages]), peers: {} });
  }
  // The park view: lights hung among trees, the post's vegetation case for 2.5D culling.
  for (const resolution of RESOLUTIONS) {
    for (const count of COUNTS.slice(1, 3)) {
      out.push({
        name: `park view: lights per shaded pixel, ${resolution[0]}, ${label(count)} lights`,
        unit: 'lights/px',
        higherIsBetter: false,
        ours: entitiesPerPixel(resolution, count, true, 'park'),
        peers: { '2D (no depth mask)': entitiesPerPixel(resolution, count, false, 'park') },
      });
      out.push({
        name: `park view: forward+ shading pass, ${resolution[0]}, ${label(count)} lights`,
        unit: 'ms',
        higherIsBetter: false,
        ours: shadingMs(resolution, count, 'flat-bits', 'culled', false, 'park'),
        peers: { '2D tiles': shadingMs(resolution, count, 'flat-bits', 'culled', false, 'park', false) },
      });
    }
  }
  // The forest view: the post's scene for 2.5D culling (alpha-tested vegetation, lights hung in
  // the gaps). What the depth mask costs in culling and what it saves in shading.
  for (const resolution of RESOLUTIONS) {
    for (const count of COUNTS.slice(0, 3)) {
      const list = lightList(count, false, 'forest');
      out.push({
        name: `forest view: lights per shaded pixel, ${resolution[0]}, ${label(count)} lights`,
        unit: 'lights/px',
        higherIsBetter: false,
        ours: entitiesPerPixel(resolution, count, true, 'forest'),
        peers: { '2D (no depth mask)': entitiesPerPixel(resolution, count, false, 'forest') },
      });
      out.push({
        name: `forest view: cull, ${resolution[0]}, ${label(count)} lights`,
        unit: 'ms',
        higherIsBetter: false,
        ours: cullMs(resolution, list, capacityFor(count), flatScatter, 'forest'),
        peers: { '2D (no depth mask)': cullMs(resolution, list, capacityFor(count), { ...flatScatter, depthMask: false }, 'forest') },
      });
      out.push({
        name: `forest view: forward+ shading pass, ${resolution[0]}, ${label(count)} lights`,
        unit: 'ms',
        higherIsBetter: false,
        ours: shadingMs(resolution, count, 'flat-bits', 'culled', false, 'forest'),
        peers: { '2D tiles': shadingMs(resolution, count, 'flat-bits', 'culled', false, 'forest', false) },
      });
    }
  }
  // Invocations per tile in the culling pass (the defaults follow these rows).
  for (const [resolution, count] of [...RESOLUTIONS.map((r) => [r, COUNTS[1] ?? COUNTS[0]!] as const), [big, most] as const]) {
    for (const method of count > 16_384 ? (['scatter'] as const) : (['gather', 'scatter'] as const)) {
      const variant = (cullThreads: 64 | 128 | 256): Variant => ({ technique: 'flat-bits', method, depthMask: true, cullThreads });
      out.push({
        name: `tuning: ${method}, ${resolution[0]}, ${label(count)} lights, 64 invocations per tile`,
        unit: 'ms',
        higherIsBetter: false,
        ours: cullMs(resolution, lightList(count), capacityFor(count), variant(64)),
        peers: { '128 invocations': cullMs(resolution, lightList(count), capacityFor(count), variant(128)), '256 invocations': cullMs(resolution, lightList(count), capacityFor(count), variant(256)) },
      });
    }
  }
  for (const count of [COUNTS[1] ?? COUNTS[0]!]) {
    for (const [stage, stages] of [['depth pass', ['depth']], ['gather culling', ['gather']]] as const) {
      out.push({ name: `stage ms at ${big[0]}, ${label(count)} lights: ${stage}`, unit: 'ms', higherIsBetter: false, ours: stageMs(big, count, { technique: 'flat-bits', method: 'gather', depthMask: true }, [...stages]), peers: {} });
    }
    for (const [stage, stages] of [['coarse tiles + scatter', ['coarseBounds', 'scatter']], ['fine culling', ['fromCoarse']]] as const) {
      out.push({ name: `stage ms at ${big[0]}, ${label(count)} lights: ${stage}`, unit: 'ms', higherIsBetter: false, ours: stageMs(big, count, flatScatter, [...stages]), peers: {} });
    }
  }
  const decals = fullScreenDecals();
  out.push({
    name: `100 full-screen decals + 1k lights, gather, ${big[0]}`,
    unit: 'ms',
    higherIsBetter: false,
    ours: cullMs(big, decals, 4096, { technique: 'flat-bits', method: 'gather', depthMask: true }),
    peers: { 'compaction (sorted tiles)': cullMs(big, decals, 4096, { technique: 'compaction', method: 'gather', depthMask: true }) },
  });
  return out;
}

export const suite = defineSuite({
  package: '@cuttle/gpu-culling',
  kind: 'gpu',
  rounds: QUICK ? 1 : 5,
  async setup() {
    gpu = await requestNodeGpu();
    const device = gpu.device;
    city = generateCity({ seed: 11, blocks: 12 });
    forest = generateForest({ seed: 3 });
    timer = new ColdCacheGpuTimer(device, { runs: ITERATIONS, flushBytes: FLUSH_BYTES });
    // Right before fast: every technique and method against the reference on this GPU, gather
    // against scatter bit for bit at full size, and forward+ against shading everything.
    await verifyAgainstReference(device);
    const big = RESOLUTIONS[RESOLUTIONS.length - 1]!;
    const most = COUNTS[COUNTS.length - 1]!;
    const { depth, camera } = target(...big);
    await verifyGatherEqualsScatter(device, camera, depth, lightList(most), capacityFor(most));
    const small = RESOLUTIONS[0]!;
    const view = target(...small);
    await verifyForwardPlus(device, renderer('flat-bits', 4096), culler('flat-bits', 4096), view.camera, view.depth, view.color, lightList(COUNTS[0]!));
    const woods = target(...small, 'forest');
    await verifyForwardPlus(device, renderer('flat-bits', 4096, false, 'forest'), culler('flat-bits', 4096), woods.camera, woods.depth, woods.color, lightList(COUNTS[0]!, false, 'forest'));
    console.error('  results checked against the reference: ok');
  },
  teardown() {
    for (const c of cullers.values()) c.destroy();
    for (const r of renderers.values()) r.destroy();
    timer?.destroy();
    gpu?.device.destroy();
  },
  gpu: () => (gpu ? gpu.info.summary : null),
  cases,
  notes: [
    'Scene: a generated city (12 x 12 blocks of towers 5-80 units high, props), camera at street level looking down a street: near walls beside far skylines and sky.',
    `Lights along streets, on facades and above roofs (20% spots), ranges 3-12; maxEntities 4096 up to 4096 lights, else the count + 128. Tiles 16 x 16.`,
    `Each sample: ${ITERATIONS} culling runs in one submit, each timed alone by timestamp queries (prepare + depth + [coarse + scatter] + cull, one compute pass),`,
    'with a 256 MiB copy before each so that no run starts with the last one\'s data in L2; median of the rounds. Ours: flat bit arrays, scatter, 2.5D,',
    'with the default invocations per tile (64 up to 8192 maxEntities, 128 up to 32768, else 256: the tuning rows).',
    'The rows "with the clears recorded before its pass" take their begin timestamp on an empty pass recorded before cull()\'s buffer clears',
    '(the scatter\'s coarse bits, the stats header), so they time what a frame pays; their peer is the compute pass alone, as every other cull row is timed.',
    'Lights per shaded pixel: every pixel that holds a surface counts its tile\'s entities. Forward+ rows: the colour pass over the prepass depth (depth test equal),',
    'ours with the default walk (\'auto\': sparse up to 8,192 maxEntities, so at 1k and 4k lights here, dense above), the two walks as peers; flat bits without lists walk densely,',
    'culled (cull_shade) or every light at every pixel (cull_shade_everything). Before timing, each technique and method is checked against the TypeScript reference,',
    'gather against scatter bit for bit at the largest size, and the culled forward+ image against shading everything.',
    'Forest view (generateForest, seed 3): 400 trees on a 120 x 120 floor, canopies of 90 leaf boxes with gaps between them (alpha-tested foliage),',
    'a third with undergrowth; camera at eye height from the edge into the trees. Lights hung through the volume at 0.3-9 units, ranges 1-4 (10% downward spots).',
  ].join(' '),
});
