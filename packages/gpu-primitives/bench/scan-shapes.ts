// Instrument: the chained scan with other tile shapes (bench/scan-variant.ts) beside the shipped
// GpuScan, a vec4 copy of the same bytes and, where CUTTLE_CUB_BIN names bench/cub_sort.cu
// compiled, CUB's DeviceScan::ExclusiveSum, alternating round by round in one process. Before
// timing, every build's output must equal the TypeScript reference (bench/verify.ts). Figures are GB/s of
// memory traffic (8 bytes an element: read once, written once), from timestamps around 100
// back-to-back scans in one submit, as the suite times GpuScan; median of the rounds.
//
//   pnpm -s bundle:node packages/gpu-primitives/bench/scan-shapes.ts .device/scan-shapes.mjs
//   node .device/scan-shapes.mjs [--counts 131072,2097152,67108864] [--shapes 256x4,512x8,p256x8] [--rounds 7]
import { existsSync } from 'node:fs';
import { CopyKernel, GpuTimer, median } from '@cuttle/bench';
import { requestNodeGpu } from '@cuttle/test-utils/node-gpu';
import { GpuScan, type PassTimestamps } from '../src/index.ts';
import { CubPeer } from './cub-peer.ts';
import { ScanShapeBuild } from './scan-variant.ts';
import { verifyScanBuild, verifyScans } from './verify.ts';

function flag(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1]! : fallback;
}
const counts = flag('--counts', '131072,2097152,67108864').split(',').map(Number);
// A leading p builds the portable variant: p256x8 is the shipped portable shape.
const shapes = flag('--shapes', '256x4,256x16,512x8,512x4,128x16').split(',').map((shape) => {
  const portable = shape.startsWith('p');
  const [workgroupSize, vecs] = shape.replace(/^p/, '').split('x').map(Number);
  if (!workgroupSize || !vecs) throw new Error(`--shapes takes [p]<invocations>x<vec4s>, got ${shape}`);
  return { workgroupSize, vecs, portable };
});
const rounds = Number(flag('--rounds', '7'));
const ITERATIONS = 100;
/** Traffic a scan must move: each element read once and written once. */
const SCAN_BYTES_PER_ELEMENT = 8;
for (const count of counts) if (!Number.isInteger(count) || count <= 0 || count % 4 !== 0) throw new Error(`--counts takes positive multiples of 4, got ${count}`);

const gpu = await requestNodeGpu();
const { device } = gpu;
const largest = Math.max(...counts);
const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
const input = device.createBuffer({ label: 'scan input', size: largest * 4, usage });
const output = device.createBuffer({ label: 'scan output', size: largest * 4, usage });
const host = new Uint32Array(largest);
for (let i = 0; i < largest; i++) host[i] = i % 7;
device.queue.writeBuffer(input, 0, host);

const shipped = new GpuScan(device, { maxCount: largest, slots: ITERATIONS });
if (shipped.variant !== 'subgroups') throw new Error('scan-shapes compares subgroup scans; this device has no subgroups');
const builds = shapes.map((shape) => new ScanShapeBuild(device, shape, largest, ITERATIONS));
const timer = new GpuTimer(device);
const cubBinary = process.env.CUTTLE_CUB_BIN;
const cub = cubBinary && existsSync(cubBinary) ? new CubPeer([cubBinary], 'cub_sort') : undefined;

type Encode = (encoder: GPUCommandEncoder, count: number, timestamps: PassTimestamps | undefined) => void;
const contenders = new Map<string, Encode>([
  ['shipped GpuScan (tiles of 4096 up to SMALL_SCAN_MAX, of 8192 above)', (encoder, count, timestamps) => { shipped.encode(encoder, input, output, count, timestamps); }],
  ...builds.map((build): [string, Encode] => [build.name, (encoder, count, timestamps) => { build.encode(encoder, input, output, count, timestamps); }]),
]);

/** GB/s of traffic (8 bytes an element) of 100 back-to-back runs of `record`. */
async function trafficOf(record: Encode, count: number): Promise<number> {
  const ms = await timer.time((encoder, i, last) => {
    const timestamps = i === 0 || last ? { querySet: timer.writes.querySet, ...(i === 0 ? { beginIndex: 0 } : {}), ...(last ? { endIndex: 1 } : {}) } : undefined;
    record(encoder, count, timestamps);
  }, { iterations: ITERATIONS });
  return (count * SCAN_BYTES_PER_ELEMENT) / ms / 1e6;
}

for (const count of counts) {
  await verifyScans([shipped], input, output, host.subarray(0, count));
  for (const build of builds) await verifyScanBuild(build.name, build, input, output, host.subarray(0, count));
  const copy = new CopyKernel(device, count * 4, { source: input, destination: output });
  const all = new Map<string, Encode>([...contenders, ['vec4 copy', (encoder, _count, timestamps) => { copy.encode(encoder, timestamps); }]]);
  for (const record of all.values()) await trafficOf(record, count); // warm-up
  const samples = new Map<string, number[]>([...all.keys(), ...(cub ? ['CUB DeviceScan::ExclusiveSum'] : [])].map((name) => [name, []]));
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? [...all] : [...all].reverse();
    for (const [name, record] of order) samples.get(name)!.push(await trafficOf(record, count));
    if (cub) samples.get('CUB DeviceScan::ExclusiveSum')!.push((await cub.scanElementsPerSecond(count)) * SCAN_BYTES_PER_ELEMENT / 1e9);
  }
  copy.destroy();
  const row: Record<string, number> = { count };
  for (const [name, xs] of samples) row[name] = Math.round(median(xs));
  console.log(JSON.stringify(row));
}
cub?.close();
console.log(`GPU: ${gpu.info.summary}`);
for (const build of builds) build.destroy();
shipped.destroy();
timer.destroy();
device.destroy();
