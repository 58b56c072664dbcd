// GPU benchmarks of the primitives on 256 MiB inputs. Each primitive is measured against two
// peers: a vec4 copy kernel over the same bytes on the same GPU (what memory bandwidth
// allows: bytes copied per second) and the same operation as a plain JavaScript loop on one
// CPU core. Figures are input bytes processed per second.
import { defineSuite, GpuTimer, opsPerSecond, type BenchCase } from '@cuttle/bench';
import { requestNodeGpu, type NodeGpu } from '@cuttle/test-utils/node-gpu';
import { GpuReduce, GpuScan, type PassTimestamps } from '../src/index.ts';
import { CopyKernel } from './copy-kernel.ts';

// 2^26 elements = 256 MiB, far past every cache; CUTTLE_BENCH_QUICK shrinks it for lavapipe.
const COUNT = process.env.CUTTLE_BENCH_QUICK ? 1 << 20 : 1 << 26;
const BYTES = COUNT * 4;
const ITERATIONS = 20;

let gpu: NodeGpu | undefined;
let floats: GPUBuffer | undefined;
let words: GPUBuffer | undefined;
let scratch: GPUBuffer | undefined;
let reduce: GpuReduce | undefined;
let scan: GpuScan | undefined;
let copy: CopyKernel | undefined;
let timer: GpuTimer | undefined;
const hostFloats = new Float32Array(COUNT);
const hostWords = new Uint32Array(COUNT);
const hostOut = new Uint32Array(COUNT);

/** Timestamp writes for iteration `i` of a timed run: begin on the first, end on the last. */
function writes(i: number, last: boolean): PassTimestamps {
  return { querySet: timer!.writes.querySet, ...(i === 0 ? { beginIndex: 0 } : {}), ...(last ? { endIndex: 1 } : {}) };
}

async function gpuBytesPerSecond(record: (encoder: GPUCommandEncoder, timestamps: PassTimestamps) => void): Promise<number> {
  const ms = await timer!.time((encoder, i, last) => { record(encoder, writes(i, last)); }, { iterations: ITERATIONS });
  return BYTES / ms / 1e6;
}

function sumLoop(data: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < data.length; i++) sum += data[i]!;
  return sum;
}

function scanLoop(data: Uint32Array, out: Uint32Array): void {
  let running = 0;
  for (let i = 0; i < data.length; i++) {
    out[i] = running;
    running = (running + data[i]!) >>> 0;
  }
}

const copyPeer = (): Promise<number> => gpuBytesPerSecond((encoder, timestamps) => { copy!.encode(encoder, timestamps); });

export const suite = defineSuite({
  package: '@cuttle/gpu-primitives',
  kind: 'gpu',
  rounds: 9,
  async setup() {
    gpu = await requestNodeGpu();
    const { device } = gpu;
    for (let i = 0; i < COUNT; i++) {
      hostFloats[i] = (i % 1000) * 0.001;
      hostWords[i] = i % 7;
    }
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
    floats = device.createBuffer({ size: BYTES, usage });
    words = device.createBuffer({ size: BYTES, usage });
    scratch = device.createBuffer({ size: BYTES, usage });
    device.queue.writeBuffer(floats, 0, hostFloats);
    device.queue.writeBuffer(words, 0, hostWords);
    reduce = new GpuReduce(device, { op: 'sum', type: 'f32', slots: ITERATIONS });
    scan = new GpuScan(device, { maxCount: COUNT, slots: ITERATIONS });
    copy = new CopyKernel(device, words, scratch, BYTES);
    timer = new GpuTimer(device);
  },
  teardown() {
    reduce?.destroy();
    scan?.destroy();
    timer?.destroy();
    for (const buffer of [floats, words, scratch]) buffer?.destroy();
    gpu?.device.destroy();
  },
  gpu: () => (gpu ? gpu.info.summary : null),
  cases: (): BenchCase[] => [
    {
      name: `reduce: sum of ${COUNT >> 20}M f32`,
      unit: 'GB/s',
      higherIsBetter: true,
      ours: () => gpuBytesPerSecond((encoder, timestamps) => { reduce!.encode(encoder, floats!, COUNT, timestamps); }),
      peers: {
        'vec4 copy (GPU)': copyPeer,
        'JS loop, 1 core': () => (opsPerSecond(() => sumLoop(hostFloats), { minMs: 200 }) * BYTES) / 1e9,
      },
    },
    {
      name: `scan: exclusive prefix sum of ${COUNT >> 20}M u32`,
      unit: 'GB/s',
      higherIsBetter: true,
      ours: () => gpuBytesPerSecond((encoder, timestamps) => { scan!.encode(encoder, words!, scratch!, COUNT, timestamps); }),
      peers: {
        'vec4 copy (GPU)': copyPeer,
        'JS loop, 1 core': () => (opsPerSecond(() => { scanLoop(hostWords, hostOut); }, { minMs: 200 }) * BYTES) / 1e9,
      },
    },
  ],
  notes: [
    'GPU time from timestamp queries around 20 back-to-back runs in one submit; median of 9 rounds.',
    'GB/s is input bytes processed per second; for the copy it is bytes copied per second (each byte read once and written once).',
    'The reduction reads its input once; the scan (reduce-then-scan) reads it twice and writes the output once, so its ceiling is about two thirds of the copy figure.',
    'JS loop: the same operation on a Float32Array/Uint32Array on one CPU core of the same machine.',
  ].join(' '),
});
