// Instrument for issue #39's remaining gap (the forward+ pass over flat bits against compaction
// lists at few lights): the same pass with the flat-bits walk's WGSL swapped for another walk
// from bench/walk-variants/, beside the shipped walk and compaction, all in one process and
// alternating round by round. Before timing, each variant's image must equal the shipped walk's
// byte for byte (a compaction walk against shipped compaction's), and a walk that handles list form tiles only is timed only on frames where the
// culler wrote no tile in bits form.
//
//   pnpm -s bundle:node packages/gpu-culling/bench/walk-variant.ts .device/walk-variant.mjs
//   node .device/walk-variant.mjs [--rounds 5] [--counts 1024,4096] [--resolutions 4K,1080p] [--variants loop-first,lists-only]
import { ColdCacheGpuTimer } from '@cuttle/bench';
import { requestNodeGpu } from '@cuttle/test-utils/node-gpu';
import { readTexture } from '@cuttle/test-utils/gpu-buffers';
import { EntityList, ForwardPlusBoxes, generateCity, lookAt, perspective, populateCity, TileCuller, type CameraInput, type City, type Technique } from '../src/index.ts';
import shippedFlat from '../src/shaders/module-flat.wgsl?raw';
import shippedCompaction from '../src/shaders/module-compaction.wgsl?raw';
import shippedShading from '../src/shaders/module-shading.wgsl?raw';
import loopFirst from './walk-variants/loop-first.wgsl?raw';
import listsOnly from './walk-variants/lists-only.wgsl?raw';
import oneLoop from './walk-variants/one-loop.wgsl?raw';
import cursor from './walk-variants/cursor.wgsl?raw';
import cursorLoop from './walk-variants/cursor-loop.wgsl?raw';
import listWordsFlat from './walk-variants/list-words-flat.wgsl?raw';
import listWordsCompaction from './walk-variants/list-words-compaction.wgsl?raw';
import listWordsShading from './walk-variants/list-words-shading.wgsl?raw';
import listWordsCursor from './walk-variants/list-words-cursor.wgsl?raw';
import cursorAfter from './walk-variants/cursor-after.wgsl?raw';
import cursorAfterBits from './walk-variants/cursor-after-bits.wgsl?raw';
import listLoopFirst from './walk-variants/list-loop-first.wgsl?raw';
import afterHeld from './walk-variants/after-held.wgsl?raw';
import hybrid from './walk-variants/hybrid.wgsl?raw';

/** A variant: its technique, the walk module that replaces the technique's own, and optionally the shading module. */
interface Variant {
  technique: Technique;
  walk: string;
  shading?: string;
  listsOnly: boolean;
}
const VARIANTS: Record<string, Variant> = {
  'loop-first': { technique: 'flat-bits', walk: loopFirst, listsOnly: false },
  'lists-only': { technique: 'flat-bits', walk: listsOnly, listsOnly: true },
  'one-loop': { technique: 'flat-bits', walk: oneLoop, listsOnly: false },
  cursor: { technique: 'flat-bits', walk: cursor, listsOnly: false },
  'cursor-loop': { technique: 'flat-bits', walk: cursorLoop, listsOnly: false },
  'cursor-after': { technique: 'flat-bits', walk: cursorAfter, listsOnly: false },
  'cursor-after-bits': { technique: 'flat-bits', walk: cursorAfterBits, listsOnly: false },
  'list-loop-first': { technique: 'flat-bits', walk: listLoopFirst, listsOnly: false },
  'after-held': { technique: 'flat-bits', walk: afterHeld, listsOnly: false },
  hybrid: { technique: 'flat-bits', walk: hybrid, listsOnly: false },
  'list-words': { technique: 'flat-bits', walk: listWordsFlat, shading: listWordsShading, listsOnly: false },
  'list-words-cursor': { technique: 'flat-bits', walk: listWordsCursor, shading: listWordsShading, listsOnly: false },
  'compaction-list-words': { technique: 'compaction', walk: listWordsCompaction, shading: listWordsShading, listsOnly: false },
};
const ALL_RESOLUTIONS: Record<string, [number, number]> = { '180p': [320, 180], '1080p': [1920, 1080], '4K': [3840, 2160] };

function flag(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1]! : fallback;
}
const rounds = Number(flag('--rounds', '5'));
const counts = flag('--counts', '1024,4096,65536').split(',').map(Number);
const resolutions = flag('--resolutions', '4K,1080p').split(',');
const variantNames = flag('--variants', Object.keys(VARIANTS).join(',')).split(',').filter((v) => v !== '');
for (const v of variantNames) if (!VARIANTS[v]) throw new Error(`unknown variant ${v}; known: ${Object.keys(VARIANTS).join(', ')}`);
for (const r of resolutions) if (!ALL_RESOLUTIONS[r]) throw new Error(`unknown resolution ${r}`);

const gpu = await requestNodeGpu();
const device = gpu.device;
const timer = new ColdCacheGpuTimer(device, { runs: 10, flushBytes: 256 << 20 });
const city: City = generateCity({ seed: 11, blocks: 12 });

// The walk (and shading) a ForwardPlusBoxes gets is whatever this names when it is made.
let active: Variant | undefined;
const create = device.createShaderModule.bind(device);
device.createShaderModule = (descriptor: GPUShaderModuleDescriptor): GPUShaderModule => {
  if (active !== undefined && descriptor.label === 'cuttle.culling.boxes') {
    const shipped = active.technique === 'flat-bits' ? shippedFlat : shippedCompaction;
    if (!descriptor.code.includes(shipped) || !descriptor.code.includes(shippedShading)) throw new Error('the boxes shader does not hold the shipped walk and shading modules: the variant cannot replace them');
    return create({ ...descriptor, code: descriptor.code.replace(shipped, active.walk).replace(shippedShading, active.shading ?? shippedShading) });
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
}

/** Throws when `work` made the device report a validation error (a variant that does not compile). */
async function checked<T>(what: string, work: () => T): Promise<T> {
  device.pushErrorScope('validation');
  const result = work();
  const error = await device.popErrorScope();
  if (error) throw new Error(`${what}: ${error.message}`);
  return result;
}

async function config(name: string, technique: Technique, maxEntities: number, variant?: Variant): Promise<Config> {
  const culler = new TileCuller(device, { technique, maxEntities });
  active = variant;
  try {
    const boxes = await checked(name, () => new ForwardPlusBoxes(device, culler, { colorFormat: 'rgba8unorm' }));
    boxes.setBoxes(city.boxes);
    return { name, technique, boxes, culler, listsOnly: variant?.listsOnly ?? false };
  } finally {
    active = undefined;
  }
}

const results: Record<string, number | string>[] = [];
for (const resolution of resolutions) {
  const [width, height] = ALL_RESOLUTIONS[resolution]!;
  const cam = camera(width, height);
  const depth = device.createTexture({ size: [width, height], format: 'depth32float', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_SRC });
  const color = device.createTexture({ size: [width, height], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });
  for (const count of counts) {
    const lights = new EntityList();
    populateCity(city, lights, { lights: count, seed: count });
    const maxEntities = Math.max(4096, count + 128);
    const configs = [await config('shipped', 'flat-bits', maxEntities), await config('compaction', 'compaction', maxEntities)];
    for (const v of variantNames) configs.push(await config(v, VARIANTS[v]!.technique, maxEntities, VARIANTS[v]));
    const first = configs[0]!;
    first.boxes.setCamera(cam);
    const encoder = device.createCommandEncoder();
    first.boxes.drawDepth(encoder, depth.createView());
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
    const reference = await draw(first);
    const compactionConfig = configs[1]!;
    const compactionImage = await draw(compactionConfig);
    const bitsTiles = await (async () => {
      cull(first);
      const read = await first.culler.read();
      let n = 0;
      for (const k of read.entitiesPerTile) if (k > first.culler.maxPerTile) n++;
      return n;
    })();
    const timed: Config[] = [];
    for (const c of configs) {
      // A lists-only walk misses the lights of bits form tiles (timed anyway, as a bound); every
      // other flat walk must match the shipped one, and a compaction walk shipped compaction
      // (which may drop lights; the package's benchmark checks it).
      const unchecked = c === compactionConfig || (c.listsOnly && bitsTiles > 0);
      if (unchecked && c.listsOnly) console.error(`${resolution}, ${count} lights: ${c.name} timed but not compared (${bitsTiles} tiles in bits form)`);
      const against = c.technique === 'compaction' ? compactionImage : reference;
      const image = unchecked ? against : await draw(c);
      let differ = 0;
      for (let i = 0; i < image.length; i++) if (image[i] !== against[i]) differ++;
      if (differ > 0) throw new Error(`${resolution}, ${count} lights: ${c.name}'s image differs from the shipped walk's in ${differ} bytes; not timing it`);
      timed.push(c);
    }
    const samples = new Map<string, number[]>(timed.map((c) => [c.name, []]));
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? timed : [...timed].reverse();
      for (const c of order) {
        cull(c);
        samples.get(c.name)!.push(await timer.time((enc, begin, end) => { c.boxes.drawShaded(enc, color.createView(), depth.createView(), 'culled', { querySet: timer.querySet, beginningOfPassWriteIndex: begin, endOfPassWriteIndex: end }); }));
      }
    }
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
    const row: Record<string, number | string> = { resolution, lights: count, bitsTiles };
    for (const [name, xs] of samples) row[name] = Number(median(xs).toFixed(3));
    results.push(row);
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
