// GPU benchmark of SSAO at 1080p and 4K on a real depth prepass (gpu-culling's generated city at
// street level: towers beside far skylines, plenty of silhouettes): the normal reconstruction
// pass alone (improved against naive), and the whole SSAO pass (improved normals, 16 samples,
// blur) against its variants. Before anything is timed, the GPU's normals and AO are checked
// against the TypeScript references on that device. CUTTLE_BENCH_QUICK shrinks everything for a
// lavapipe smoke run.
import { ColdCacheGpuTimer, defineSuite, type BenchCase, type Measure } from '@cuttle/bench';
import { requestNodeGpu, type NodeGpu } from '@cuttle/test-utils/node-gpu';
import { readTexture } from '@cuttle/test-utils/gpu-buffers';
import { ForwardPlusBoxes, generateCity, lookAt, perspective, TileCuller, type City } from '@cuttle/gpu-culling';
import { compareNormals, NormalReconstructionPass, reconstructNormalsReference, SsaoPass, ssaoReference, type NormalMethod, type SsaoCamera, type SsaoOptions } from '../src/index.ts';

const QUICK = Boolean(process.env.CUTTLE_BENCH_QUICK);
const RESOLUTIONS: [string, number, number][] = QUICK ? [['180p', 320, 180], ['360p', 640, 360]] : [['1080p', 1920, 1080], ['4K', 3840, 2160]];
const ITERATIONS = QUICK ? 2 : 10;
const FLUSH_BYTES = QUICK ? 1 << 20 : 256 << 20;
/** The city's scale: blocks of 24 units, towers 5-80 units high. */
const RADIUS = 1.5;
const BIAS = 0.05;

let gpu: NodeGpu | undefined;
let city: City;
let boxes: ForwardPlusBoxes | undefined;
let culler: TileCuller | undefined;
const targets = new Map<string, { depth: GPUTexture; output: GPUTexture; normals: GPUTexture; camera: SsaoCamera }>();
const passes: { destroy(): void }[] = [];
/** Each run timed alone, after a copy that evicts the L2. */
let timer: ColdCacheGpuTimer | undefined;

function streetCamera(width: number, height: number): SsaoCamera {
  return {
    view: lookAt([city.street(3) + 1.5, 4, city.street(0) - 12], [city.street(3) + 1.5, 3, city.street(city.blocks)]),
    projection: perspective({ fovY: 1.0, aspect: width / height, near: 0.2, far: 2000, reversedZ: true }),
  };
}

/** The city's depth prepass at `width` x `height` (reversed Z, depth32float). */
function drawDepth(width: number, height: number, camera: SsaoCamera): GPUTexture {
  const device = gpu!.device;
  const depth = device.createTexture({ size: [width, height], format: 'depth32float', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_SRC });
  boxes!.setCamera(camera);
  const encoder = device.createCommandEncoder();
  boxes!.drawDepth(encoder, depth.createView());
  device.queue.submit([encoder.finish()]);
  return depth;
}

function target(name: string, width: number, height: number): { depth: GPUTexture; output: GPUTexture; normals: GPUTexture; camera: SsaoCamera } {
  let found = targets.get(name);
  if (!found) {
    const device = gpu!.device;
    const camera = streetCamera(width, height);
    found = {
      depth: drawDepth(width, height, camera),
      output: device.createTexture({ size: [width, height], format: 'r32float', usage: GPUTextureUsage.STORAGE_BINDING | GPUTextureUsage.COPY_SRC }),
      normals: device.createTexture({ size: [width, height], format: 'rgba16float', usage: GPUTextureUsage.STORAGE_BINDING }),
      camera,
    };
    targets.set(name, found);
  }
  return found;
}

/** Checks both passes against the references on this device; throws rather than time a wrong pass. */
async function verify(): Promise<void> {
  const device = gpu!.device;
  const width = 480, height = 270;
  const camera = streetCamera(width, height);
  const depth = drawDepth(width, height, camera);
  const depthValues = new Float32Array((await readTexture(device, depth, 4, 'depth-only')).buffer);
  const output = device.createTexture({ size: [width, height], format: 'rgba32float', usage: GPUTextureUsage.STORAGE_BINDING | GPUTextureUsage.COPY_SRC });
  for (const method of ['improved', 'naive'] as const) {
    const pass = new NormalReconstructionPass(device, { method });
    const encoder = device.createCommandEncoder();
    pass.run(encoder, { depth, camera, output });
    device.queue.submit([encoder.finish()]);
    const normals = new Float32Array((await readTexture(device, output, 16)).buffer);
    // 0.5 degrees: the GPU's f32 arithmetic (fused multiply-adds on NVIDIA) moves far-away
    // naive normals by up to ~0.15 degrees from the f64 reference; the errors that matter are 10.
    const comparison = compareNormals(normals, reconstructNormalsReference(depthValues, width, height, camera, method), 0.5);
    if (comparison.errors.length > 0 || comparison.surfacePixels < width * height * 0.5) throw new Error(`${method} normals disagree with the reference: ${comparison.errors.slice(0, 5).join('; ')}. Not timing a wrong pass.`);
    pass.destroy();

    const options: SsaoOptions = { normals: method, radius: RADIUS, bias: BIAS };
    const ssao = new SsaoPass(device, options);
    const ao = device.createTexture({ size: [width, height], format: 'r32float', usage: GPUTextureUsage.STORAGE_BINDING | GPUTextureUsage.COPY_SRC });
    const aoEncoder = device.createCommandEncoder();
    ssao.run(aoEncoder, { depth, camera, output: ao });
    device.queue.submit([aoEncoder.finish()]);
    const gpuAo = new Float32Array((await readTexture(device, ao, 4)).buffer);
    const halves = new Uint16Array((await readTexture(device, ssao.normalsTexture!, 8)).buffer);
    const gpuNormals = Float32Array.from(halves, halfToFloat);
    const reference = ssaoReference({ depth: depthValues, width, height, camera, options, normals: { data: gpuNormals, stride: 4 } });
    let off = 0, occluded = 0;
    for (let i = 0; i < gpuAo.length; i++) {
      if (Math.abs(gpuAo[i]! - reference.ao[i]!) > 1e-3) off++;
      if (reference.ao[i]! < 0.9) occluded++;
    }
    if (off > gpuAo.length * 0.005 || occluded < 100) throw new Error(`SSAO (${method} normals) disagrees with the reference on ${off} pixels (${occluded} occluded). Not timing a wrong pass.`);
    ssao.destroy();
    ao.destroy();
  }
  output.destroy();
  depth.destroy();
}

function halfToFloat(h: number): number {
  const exponent = (h >>> 10) & 0x1f, mantissa = h & 0x3ff, sign = h & 0x8000 ? -1 : 1;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 31) return mantissa ? NaN : sign * Infinity;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}

function normalsMs(resolution: [string, number, number], method: NormalMethod): Measure {
  const pass = new NormalReconstructionPass(gpu!.device, { method });
  passes.push(pass);
  return () => {
    const { depth, normals, camera } = target(...resolution);
    return timer!.time((encoder, begin, end) => {
      pass.run(encoder, { depth, camera, output: normals, timestamps: { querySet: timer!.querySet, beginIndex: begin, endIndex: end } });
    });
  };
}

function ssaoMs(resolution: [string, number, number], options: SsaoOptions): Measure {
  const pass = new SsaoPass(gpu!.device, { radius: RADIUS, bias: BIAS, ...options });
  passes.push(pass);
  return () => {
    const { depth, output, camera } = target(...resolution);
    return timer!.time((encoder, begin, end) => {
      pass.run(encoder, { depth, camera, output, timestamps: { querySet: timer!.querySet, beginIndex: begin, endIndex: end } });
    });
  };
}

function cases(): BenchCase[] {
  const out: BenchCase[] = [];
  for (const resolution of RESOLUTIONS) {
    const [name] = resolution;
    out.push({
      name: `normal reconstruction, ${name}`,
      unit: 'ms',
      higherIsBetter: false,
      ours: normalsMs(resolution, 'improved'),
      peers: { naive: normalsMs(resolution, 'naive') },
    });
    out.push({
      name: `SSAO, ${name}, 16 samples, blur`,
      unit: 'ms',
      higherIsBetter: false,
      ours: ssaoMs(resolution, { normals: 'improved' }),
      peers: {
        'naive normals': ssaoMs(resolution, { normals: 'naive' }),
        'no blur': ssaoMs(resolution, { normals: 'improved', blur: false }),
        '8 samples': ssaoMs(resolution, { normals: 'improved', samples: 8 }),
        '32 samples': ssaoMs(resolution, { normals: 'improved', samples: 32 }),
      },
    });
  }
  return out;
}

export const suite = defineSuite({
  package: '@cuttle/render',
  kind: 'gpu',
  rounds: QUICK ? 1 : 5,
  async setup() {
    gpu = await requestNodeGpu();
    const device = gpu.device;
    if (!gpu.hasTimestamps) throw new Error('The SSAO benchmark needs timestamp-query.');
    city = generateCity({ seed: 11, blocks: 12 });
    culler = new TileCuller(device, { technique: 'flat-bits', maxEntities: 256 });
    boxes = new ForwardPlusBoxes(device, culler, { colorFormat: 'rgba8unorm' });
    boxes.setBoxes(city.boxes);
    await verify();
    timer = new ColdCacheGpuTimer(device, { runs: ITERATIONS, flushBytes: FLUSH_BYTES });
  },
  teardown() {
    for (const pass of passes) pass.destroy();
    boxes?.destroy();
    culler?.destroy();
    timer?.destroy();
    gpu?.device.destroy();
  },
  gpu: () => (gpu ? gpu.info.summary : null),
  cases,
  notes: [
    'Scene: gpu-culling\'s generated city (12 x 12 blocks, towers 5-80 units high), depth prepass at street level looking down a street (reversed Z, depth32float).',
    `SSAO radius ${RADIUS}, bias ${BIAS} (city scale), output r32float. Normal reconstruction alone writes rgba16float view-space normals.`,
    `Each sample: ${ITERATIONS} runs in one submit, each timed alone by timestamp queries around the pass (normals + occlusion [+ blur] as three dispatches of one compute pass), with a ${FLUSH_BYTES >> 20} MiB copy between runs to evict the L2 cache. Median of the rounds.`,
    'Peers are variants of the same pass (no npm library does WebGPU SSAO to compare with): ours / peer > 1 means ours is faster.',
    'Before timing, both normal methods and SSAO are checked against the TypeScript references on the same device.',
  ].join('\n'),
});
