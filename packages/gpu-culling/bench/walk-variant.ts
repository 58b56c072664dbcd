// Instrument for the forward+ pass's tile walks (issue #39): the pass over flat bits with each
// of the package's walks ('dense', 'sparse'), compaction lists, and any walk you give it as a
// WGSL file that replaces the dense walk's module (module-flat.wgsl), all in one process and
// alternating round by round. Before timing, every flat-bits walk's image must equal the dense
// walk's byte for byte (a compaction walk is compared with compaction's). A walk that handles
// list form tiles only (bench/walk-variants/lists-only.wgsl, built in) is timed on every frame
// but compared only where the culler wrote no tile in bits form: it bounds what the list walk
// alone costs.
//
//   pnpm -s bundle:node packages/gpu-culling/bench/walk-variant.ts .device/walk-variant.mjs
//   node .device/walk-variant.mjs [--rounds 5] [--counts 1024,4096] [--resolutions 4K,1080p]
//     [--lists-only] [--compaction-max 511,1023] [--walk name=file.wgsl ...]
//     [--shading name=file.wgsl ...]
//
// `--compaction-max` adds compaction cullers keeping more than 255 entities a tile (timed, not
// compared: they drop fewer lights, so their images differ); each row then also reports the
// light-tile pairs each compaction culler dropped, and the most lights a tile held.
// `--shading name=file` replaces module-shading.wgsl for the walk of the same name (a walk that
// needs its own cull_shade). The walks measured on 2026-11-29 are in git: commit 949cd81,
// packages/gpu-culling/bench/walk-variants/.
import { readFileSync } from 'node:fs';
import { ColdCacheGpuTimer } from '@cuttle/bench';
import { requestNodeGpu } from '@cuttle/test-utils/node-gpu';
import { readTexture } from '@cuttle/test-utils/gpu-buffers';
import { EntityList, ForwardPlusBoxes, generateCity, lookAt, perspective, populateCity, TileCuller, type CameraInput, type City, type CullWalk, type Technique } from '../src/index.ts';
import denseWalk from '../src/shaders/module-flat.wgsl?raw';
import shippedShading from '../src/shaders/module-shading.wgsl?raw';
import listsOnly from './walk-variants/lists-only.wgsl?raw';

const ALL_RESOLUTIONS: Record<string, [number, number]> = { '180p': [320, 180], '1080p': [1920, 1080], '4K': [3840, 2160] };

/** Every value given after `name` (`--walk a=x.wgsl --walk b=y.wgsl`). */
function flags(name: string): string[] {
  const out: string[] = [];
  process.argv.forEach((arg, i) => {
    if (arg === name) out.push(process.argv[i + 1] ?? '');
  });
  return out;
}
function flag(name: string, fallback: string): string {
  return flags(name)[0] ?? fallback;
}
/** `name=file` pairs, each file read now. */
function files(name: string): Map<string, string> {
  return new Map(flags(name).map((pair) => {
    const at = pair.indexOf('=');
    if (at <= 0) throw new Error(`${name} needs name=file.wgsl, got "${pair}"`);
    return [pair.slice(0, at), readFileSync(pair.slice(at + 1), 'utf8')];
  }));
}

const rounds = Number(flag('--rounds', '5'));
const counts = flag('--counts', '1024,4096,16384,65536').split(',').map(Number);
const resolutions = flag('--resolutions', '4K,1080p').split(',');
for (const r of resolutions) if (!ALL_RESOLUTIONS[r]) throw new Error(`unknown resolution ${r}; known: ${Object.keys(ALL_RESOLUTIONS).join(', ')}`);
const compactionMaxima = flags('--compaction-max').flatMap((list) => list.split(',')).map(Number);
const walkFiles = files('--walk');
const shadingFiles = files('--shading');
if (process.argv.includes('--lists-only')) walkFiles.set('lists-only', listsOnly);

const gpu = await requestNodeGpu();
const device = gpu.device;
const timer = new ColdCacheGpuTimer(device, { runs: 10, flushBytes: 256 << 20 });
const city: City = generateCity({ seed: 11, blocks: 12 });

/** What replaces the dense walk (and the shading) in the next ForwardPlusBoxes made. */
let replacing: { walk: string; shading: string } | undefined;
const create = device.createShaderModule.bind(device);
device.createShaderModule = (descriptor: GPUShaderModuleDescriptor): GPUShaderModule => {
  if (replacing !== undefined && descriptor.label === 'cuttle.culling.boxes') {
    if (!descriptor.code.includes(denseWalk) || !descriptor.code.includes(shippedShading)) throw new Error('the boxes shader does not hold the dense walk and the shading module: the variant cannot replace them');
    return create({ ...descriptor, code: descriptor.code.replace(denseWalk, replacing.walk).replace(shippedShading, replacing.shading) });
  }
  return create(descriptor);
};

function camera(width: number, height: number): CameraInput {
  const projection = perspective({ fovY: 1.0, aspect: width / height, near: 0.2, far: 2000 });
  return { view: lookAt([city.street(3) + 1.5, 4, city.street(0) - 12], [city.street(3) + 1.5, 3, city.street(city.blocks)]), projection };
}

interface Config {
  name: string;
  technique: Technique;
  boxes: ForwardPlusBoxes;
  culler: TileCuller;
  listsOnly: boolean;
  /** Compaction with more than the default 255 entities a tile: timed, never compared. */
  uncompared: boolean;
}

/** Throws when `work` made the device report a validation error (a variant that does not compile). */
async function checked<T>(what: string, work: () => T): Promise<T> {
  device.pushErrorScope('validation');
  const result = work();
  const error = await device.popErrorScope();
  if (error) throw new Error(`${what}: ${error.message}`);
  return result;
}

async function config(name: string, technique: Technique, maxEntities: number, walk: CullWalk, replace?: { walk: string; shading: string }, maxPerTile?: number): Promise<Config> {
  const culler = new TileCuller(device, { technique, maxEntities, ...(maxPerTile === undefined ? {} : { maxPerTile }) });
  replacing = replace;
  try {
    const boxes = await checked(name, () => new ForwardPlusBoxes(device, culler, { colorFormat: 'rgba8unorm', walk }));
    boxes.setBoxes(city.boxes);
    return { name, technique, boxes, culler, listsOnly: name === 'lists-only', uncompared: maxPerTile !== undefined };
  } finally {
    replacing = undefined;
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
for (const resolution of resolutions) {
  const [width, height] = ALL_RESOLUTIONS[resolution]!;
  const cam = camera(width, height);
  const depth = device.createTexture({ size: [width, height], format: 'depth32float', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_SRC });
  const color = device.createTexture({ size: [width, height], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });
  for (const count of counts) {
    const lights = new EntityList();
    populateCity(city, lights, { lights: count, seed: count });
    const maxEntities = Math.max(4096, count + 128);
    const configs = [await config('dense', 'flat-bits', maxEntities, 'dense'), await config('compaction', 'compaction', maxEntities, 'auto'), await config('sparse', 'flat-bits', maxEntities, 'sparse')];
    for (const [name, walk] of walkFiles) configs.push(await config(name, 'flat-bits', maxEntities, 'dense', { walk, shading: shadingFiles.get(name) ?? shippedShading }));
    for (const max of compactionMaxima) configs.push(await config(`compaction-${max}`, 'compaction', maxEntities, 'auto', undefined, max));
    const [dense, compaction] = configs as [Config, Config];
    dense.boxes.setCamera(cam);
    const encoder = device.createCommandEncoder();
    dense.boxes.drawDepth(encoder, depth.createView());
    device.queue.submit([encoder.finish()]);
    const cull = (c: Config): void => {
      c.culler.method = 'auto';
      c.culler.setCamera(cam);
      c.culler.setEntities(lights);
      c.boxes.setCamera(cam);
      const e = device.createCommandEncoder();
      c.culler.cull(e, depth);
      device.queue.submit([e.finish()]);
    };
    const draw = async (c: Config): Promise<Uint8Array> => {
      cull(c);
      await checked(`${c.name} draw`, () => {
        const e = device.createCommandEncoder();
        c.boxes.drawShaded(e, color.createView(), depth.createView(), 'culled');
        device.queue.submit([e.finish()]);
      });
      return readTexture(device, color, 4);
    };
    const references = { 'flat-bits': await draw(dense), compaction: await draw(compaction) };
    cull(dense);
    const read = await dense.culler.read();
    let bitsTiles = 0;
    let mostInTile = 0;
    for (let t = 0; t < read.entitiesPerTile.length; t++) {
      if (read.entitiesPerTile[t]! > 0 && read.tiles[t * dense.culler.wordsPerTile]! >>> 31 === 0) bitsTiles++;
      mostInTile = Math.max(mostInTile, read.entitiesPerTile[t]!);
    }
    const dropped: Record<string, number> = {};
    for (const c of configs) {
      if (c.technique !== 'compaction') continue;
      cull(c);
      dropped[`${c.name} dropped`] = (await c.culler.read()).droppedEntities;
    }
    for (const c of configs) {
      if (c === dense || c === compaction || c.uncompared) continue;
      if (c.listsOnly && bitsTiles > 0) {
        console.error(`${resolution}, ${count} lights: ${c.name} timed but not compared (${bitsTiles} tiles in bits form)`);
        continue;
      }
      const image = await draw(c);
      const against = references[c.technique];
      let differ = 0;
      for (let i = 0; i < image.length; i++) if (image[i] !== against[i]) differ++;
      if (differ > 0) throw new Error(`${resolution}, ${count} lights: ${c.name}'s image differs from the ${c.technique === 'compaction' ? 'compaction' : 'dense'} walk's in ${differ} bytes; not timing it`);
    }
    const samples = new Map<string, number[]>(configs.map((c) => [c.name, []]));
    for (let r = 0; r < rounds; r++) {
      for (const c of r % 2 === 0 ? configs : [...configs].reverse()) {
        cull(c);
        samples.get(c.name)!.push(await timer.time((enc, begin, end) => { c.boxes.drawShaded(enc, color.createView(), depth.createView(), 'culled', { querySet: timer.querySet, beginningOfPassWriteIndex: begin, endOfPassWriteIndex: end }); }));
      }
    }
    const row: Record<string, number | string> = { resolution, lights: count, bitsTiles, mostInTile, ...dropped };
    for (const [name, xs] of samples) row[name] = Number(median(xs).toFixed(3));
    console.log(JSON.stringify(row));
    for (const c of configs) {
      c.boxes.destroy();
      c.culler.destroy();
    }
  }
  depth.destroy();
  color.destroy();
}
console.log(`GPU: ${gpu.info.summary}`);
timer.destroy();
device.destroy();
