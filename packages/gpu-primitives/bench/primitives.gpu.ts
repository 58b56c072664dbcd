// GPU benchmarks of the primitives on 256 MiB inputs. Each primitive is measured against two
// peers: a vec4 copy kernel over the same bytes on the same GPU (what memory bandwidth
// allows) and the same operation as a plain JavaScript loop on one CPU core. Figures are memory
// traffic per second (bytes each kernel must read plus write), so they compare with the copy.
import { existsSync } from 'node:fs';
import { ColdCacheGpuTimer, CopyKernel, defineSuite, GpuTimer, opsPerSecond, type BenchCase, type Measure } from '@cuttle/bench';
import { requestNodeGpu, type NodeGpu } from '@cuttle/test-utils/node-gpu';
import { GpuBitonicSort, GpuRadixSort, GpuReduce, GpuScan, type PassTimestamps, type PerPassTimestamps } from '../src/index.ts';
import { PerPassTimer } from './per-pass-timer.ts';
import { keysFor, refill, SORT_INPUTS, uploadPristine, type PristinePairs, type SortInput } from './sort-inputs.ts';
import { CubPeer } from './cub-peer.ts';
import { countScanBuild, flushedCountScan as buildFlushedCountScan, guessedCountScan as buildGuessedCountScan, writePatternCountScan } from './count-scan-variant.ts';
import { OccupancyProbe } from './occupancy-probe.ts';
import { subgroupRadixLayout } from '../src/radix-plan.ts';
import { onesweepVariant, walkCountingVariant, type OnesweepVariant } from './onesweep-variant.ts';
import type { WalkStats } from '../src/onesweep-passes.ts';
import type { SortVariant } from './sort-variant.ts';
import { ScanShapeBuild } from './scan-variant.ts';
import { verifyKeySort, verifyScanBuild, verifyScans, verifySorts, verifySortsOf } from './verify.ts';

// 2^26 elements = 256 MiB, far past every cache; CUTTLE_BENCH_QUICK shrinks it for lavapipe.
const COUNT = process.env.CUTTLE_BENCH_QUICK ? 1 << 20 : 1 << 26;
const BYTES = COUNT * 4;
// Enough back-to-back runs per sample (hundreds of ms on an H100) for clocks to settle.
const ITERATIONS = process.env.CUTTLE_BENCH_QUICK ? 5 : 100;

let gpu: NodeGpu | undefined;
let floats: GPUBuffer | undefined;
let words: GPUBuffer | undefined;
let scratch: GPUBuffer | undefined;
let reduce: GpuReduce | undefined;
let scan: GpuScan | undefined;
let portableScan: GpuScan | undefined;
// Tiles handed out by ticket instead of in dispatch order: one global atomic more per tile.
let ticketScan: GpuScan | undefined;
let copy: CopyKernel | undefined;
// The count table of a 2^24-pair sort: a scan small enough for GpuScan's small tiles.
const SMALL_SCAN_COUNT = process.env.CUTTLE_BENCH_QUICK ? 1 << 16 : 1 << 21;
let smallCopy: CopyKernel | undefined;
/** The subgroup scan in tiles of 8192 at every size, as before 2026-11-29 (the small scan row's peer). */
let largeTileScan: ScanShapeBuild | undefined;
let timer: GpuTimer | undefined;
const hostFloats = new Float32Array(COUNT);
const hostWords = new Uint32Array(COUNT);
const hostOut = new Uint32Array(COUNT);
// Sort sizes as issue 9 asks (2^20, 2^24, 2^26 pairs); quick mode sorts 2^16.
const SORT_SIZES = process.env.CUTTLE_BENCH_QUICK ? [1 << 16] : [1 << 20, 1 << 24, 1 << 26];
// Between them, where the count-scan sort switches from 2048- to 4096-key blocks (LARGE_BLOCKS_FROM).
const CROSSOVER_SIZES = process.env.CUTTLE_BENCH_QUICK ? [1 << 15] : [1 << 21, 1 << 22, 1 << 23, 1 << 25];
const SORT_ITERATIONS = process.env.CUTTLE_BENCH_QUICK ? 1 : 10;
let sorter: GpuRadixSort | undefined;
// The same sort forced onto the portable 4-bit kernel: the subgroup kernel's own baseline.
let portableSorter: GpuRadixSort | undefined;
// The one-sweep kernel (algorithm: 'onesweep'): one histogram pass, then one pass per digit.
let onesweepSorter: GpuRadixSort | undefined;
let onesweepKeys: GpuRadixSort | undefined;
/** The default (count-scan) sort of keys without values. */
let keysSorter: GpuRadixSort | undefined;
/** The onesweep kernel with the smaller tile, where the default took 4096 keys per tile. */
let onesweepSmallTiles: GpuRadixSort | undefined;
/** The onesweep passes without the look-back (offsets guessed from the histogram, output NOT sorted): what the look-back costs. */
let noLookback: OnesweepVariant | undefined;
/** The onesweep passes with the look-back before the tile sort (the first version's order). */
let lookBackFirst: OnesweepVariant | undefined;
/** Count-scan with an L2 flush before each scatter (per-digit row only). */
let flushedCountScan: SortVariant | undefined;
/** Count-scan whose scatter guesses its offsets by arithmetic (not sorted): the control for the onesweep pass without its look-back. */
let guessedCountScan: SortVariant | undefined;
/** Count-scan whose scatter writes each tile to its own place in order, or not at all (timing only): what the scattered writes cost. */
const writePatterns = new Map<'sequential' | 'none', SortVariant>();
/** Count-scan builds other than the shipped one (blocks per count workgroup: `countTilesFor`). */
const COUNT_SCAN_BUILDS = [
  { name: 'count-scan, 4096-key blocks (two tile rounds) at every size', block: 4096, tileRounds: 2 },
] as const;
const countScanBuilds = new Map<string, SortVariant>();
/** The scatter with an occupancy probe, plain and with workgroup memory added (bytes). */
const PROBE_PADDING = [0, 1024, 2048, 4096] as const;
const occupancyProbes = new Map<number, OccupancyProbe>();
/** The probe on the large plan's scatter (scatter_rounds), when the sorter has one. */
let largeOccupancyProbe: OccupancyProbe | undefined;
/** What the look-back did over SORT_WALK_SAMPLES sorts of fresh random keys (counted in setup, after checking them). */
const walkStats: { stats: WalkStats; walks: number; passes: number }[] = [];
const SORT_WALK_SAMPLES = 3;
let bitonic: GpuBitonicSort | undefined;
// The bitonic network is for small and medium sizes: measured where it competes.
const BITONIC_SIZES = process.env.CUTTLE_BENCH_QUICK ? [1 << 12] : [1 << 16, 1 << 20];
// The inputs other than random keys, the per-pass rows and the probes are measured at this
// size; CUTTLE_BENCH_SORT_LOG2 (16 to 26) picks another, to see the passes at 2^26.
const SORT_INPUT_SIZE = 1 << sortInputLog2(process.env.CUTTLE_BENCH_SORT_LOG2, process.env.CUTTLE_BENCH_QUICK ? 16 : 24);

function sortInputLog2(given: string | undefined, fallback: number): number {
  if (given === undefined) return fallback;
  const log2 = Number(given);
  if (!Number.isInteger(log2) || log2 < 16 || log2 > 26) throw new Error(`CUTTLE_BENCH_SORT_LOG2 must be an integer from 16 to 26, got '${given}'`);
  return log2;
}
let sortKeys: GPUBuffer | undefined;
let sortValues: GPUBuffer | undefined;
/** Never written after setup: every timed sort starts from a copy of one of these. */
const pristine = new Map<SortInput, PristinePairs>();
/** One pair of timestamps per sort, so the refill copy before each sort is not timed. */
let sortTimer: ColdCacheGpuTimer | undefined;
/** Timestamps around each pass of the one-sweep sort (histogram, then one per digit). */
let passTimer: PerPassTimer | undefined;
/** Timestamps around each pass of the count-scan sort (count, scan, scatter per digit). */
let countScanPassTimer: PerPassTimer | undefined;

type EncodeSort = (encoder: GPUCommandEncoder, keys: GPUBuffer, values: GPUBuffer, count: number, timestamps: PassTimestamps) => void;

/**
 * Pairs per second of `encode` at `count` on fresh `input` keys: before each of the sample's
 * sorts the pristine keys and values are copied into the sort's buffers, outside the sort's
 * timestamps; the time is the mean of the sorts alone.
 */
async function freshPairsPerSecond(count: number, encode: EncodeSort, input: SortInput = 'random'): Promise<number> {
  const from = pristine.get(input)!;
  const ms = await sortTimer!.time((encoder, beginIndex, endIndex) => {
    refill(encoder, from, sortKeys!, sortValues!, count);
    encode(encoder, sortKeys!, sortValues!, count, { querySet: sortTimer!.querySet, beginIndex, endIndex });
  });
  return count / (ms / 1000);
}

type EncodeTimedPasses = (encoder: GPUCommandEncoder, keys: GPUBuffer, values: GPUBuffer, count: number, timestamps: PerPassTimestamps) => void;

/** Mean ms of each pass (a PerPassTimer over the sort's passes) of one sample of fresh random keys. */
function passMs(timer: PerPassTimer, encode: EncodeTimedPasses): Promise<number[]> {
  const from = pristine.get('random')!;
  return timer.time((encoder, _run, timestamps) => {
    refill(encoder, from, sortKeys!, sortValues!, SORT_INPUT_SIZE);
    encode(encoder, sortKeys!, sortValues!, SORT_INPUT_SIZE, timestamps);
  });
}

/**
 * One per-pass sample per round, measured on first use, so the rows and peers that read the
 * same sorts (each called once a round, in alternating order; each keeps its own round count)
 * do not time them again.
 */
class PassSamples {
  readonly #rounds: number[][] = [];
  readonly #measure: () => Promise<number[]>;

  constructor(measure: () => Promise<number[]>) {
    this.#measure = measure;
  }

  async of(round: number): Promise<number[]> {
    while (this.#rounds.length <= round) this.#rounds.push(await this.#measure());
    return this.#rounds[round]!;
  }
}

const onesweepPasses = new PassSamples(() => passMs(passTimer!, (encoder, keys, values, count, timestamps) => { onesweepSorter!.encode(encoder, keys, values, count, timestamps); }));
const countScanPasses = new PassSamples(() => passMs(countScanPassTimer!, (encoder, keys, values, count, timestamps) => { sorter!.encode(encoder, keys, values, count, timestamps); }));

/** GB/s moved by pass `pass` of the one-sweep sort of fresh random keys, round `round`. */
async function onesweepPassTraffic(pass: number, round: number): Promise<number> {
  // The histogram reads every key; a digit pass reads and writes every key and value.
  const bytes = SORT_INPUT_SIZE * (pass === 0 ? 4 : 16);
  return bytes / (await onesweepPasses.of(round))[pass]! / 1e6;
}

/** Mean over the digits of every `stride`-th pass from `first`. */
const everyNth = (ms: number[], first: number, stride: number): number => {
  const picked = ms.filter((_, i) => i >= first && (i - first) % stride === 0);
  return picked.reduce((sum, x) => sum + x, 0) / picked.length;
};

/** A benchmark build's sort, for whole-sort timestamps (EncodeSort) and per-pass ones (EncodeTimedPasses) alike. */
const variantEncode = (variant: SortVariant) => (encoder: GPUCommandEncoder, keys: GPUBuffer, values: GPUBuffer, count: number, timestamps?: PassTimestamps | PerPassTimestamps): void => { variant.encode(encoder, keys, values, count, timestamps); };

/** The count-scan builds (COUNT_SCAN_BUILDS) as peers of a whole-sort row: pairs/s at `count` on `input` keys. */
function countScanBuildPeers(count: number, input: SortInput = 'random'): Record<string, Measure> {
  return Object.fromEntries([...countScanBuilds].map(([name, variant]) => [`${name} (ours)`, () => freshPairsPerSecond(count, variantEncode(variant), input)]));
}

/** Ms per digit: the onesweep ranking pass against count-scan's three passes (one sample each a round) and the onesweep variants. */
function perDigitPassCase(): BenchCase {
  const rounds = { onesweep: 0, count: 0, scan: 0, scatter: 0, first: 0 };
  return {
    name: `radix sort, 2^${Math.log2(SORT_INPUT_SIZE)} pairs of fresh random keys, ms per digit: onesweep ranking pass against the count-scan kernel's passes`,
    unit: 'ms',
    higherIsBetter: false,
    rounds: 3,
    ours: async () => everyNth(await onesweepPasses.of(rounds.onesweep++), 1, 1),
    peers: {
      'count-scan: count pass': async () => everyNth(await countScanPasses.of(rounds.count++), 0, 3),
      'count-scan: scan of the counts': async () => everyNth(await countScanPasses.of(rounds.scan++), 1, 3),
      'count-scan: scatter pass': async () => everyNth(await countScanPasses.of(rounds.scatter++), 2, 3),
      ...(noLookback ? { 'onesweep without its look-back (offsets guessed, not sorted: timing only)': async () => everyNth(await passMs(passTimer!, variantEncode(noLookback!)), 1, 1) } : {}),
      ...(lookBackFirst ? { 'onesweep, look-back before the tile sort': async () => everyNth(await passMs(passTimer!, variantEncode(lookBackFirst!)), 1, 1) } : {}),
      ...(flushedCountScan ? { 'count-scan: scatter pass after an L2 flush (the count pass\'s keys no longer cached)': async () => everyNth(await passMs(countScanPassTimer!, variantEncode(flushedCountScan!)), 2, 3) } : {}),
      ...Object.fromEntries([...countScanBuilds].flatMap(([name, variant]) => [
        [`${name}: count pass`, async () => everyNth(await passMs(countScanPassTimer!, variantEncode(variant)), 0, 3)],
        [`${name}: scan of the counts`, async () => everyNth(await passMs(countScanPassTimer!, variantEncode(variant)), 1, 3)],
        [`${name}: scatter pass`, async () => everyNth(await passMs(countScanPassTimer!, variantEncode(variant)), 2, 3)],
      ])),
      ...(writePatterns.size > 0 ? { 'count-scan: scatter pass, first digit only (fresh keys)': async () => (await countScanPasses.of(rounds.first++))[2]! } : {}),
      ...Object.fromEntries([...writePatterns].map(([pattern, variant]) => [
        `count-scan: scatter pass, first digit only, ${pattern === 'sequential' ? 'each tile written to its own place in order (a copy\'s write pattern; not sorted: timing only)' : 'no writes (not sorted: timing only)'}`,
        async () => (await passMs(countScanPassTimer!, variantEncode(variant)))[2]!,
      ])),
      ...(guessedCountScan ? { 'count-scan: scatter pass with offsets guessed (not sorted: timing only, the write pattern of the onesweep pass without its look-back)': async () => everyNth(await passMs(countScanPassTimer!, variantEncode(guessedCountScan!)), 2, 3) } : {}),
    },
  };
}

/** What the shipped look-back did per digit walk (one walk per digit per tile after the first), counted in setup. */
function walkCases(): BenchCase[] {
  return walkStats.flatMap(({ stats, walks, passes }) => {
    const at = `onesweep look-back, 2^${Math.log2(SORT_INPUT_SIZE)} fresh random keys (${SORT_WALK_SAMPLES} sorts counted)`;
    const row = (what: string, unit: string, value: number, higherIsBetter = false): BenchCase => ({ name: `${at}: ${what}`, unit, higherIsBetter, rounds: 1, ours: () => value, peers: {} });
    return [
      row('predecessor words walked per digit walk (spins included)', 'words', stats.reads / walks),
      row('of them NOT_READY (spins) per digit walk', 'words', stats.notReady / walks),
      row('walks the first word ended (the predecessor\'s inclusive total)', '%', (100 * stats.firstReadEnds) / walks, true),
      row('tiles counted by the fallback per digit pass', 'tiles', stats.fallbacks / passes),
    ];
  });
}

/** Peak scatter workgroups at once over a sort of 2^24 fresh random pairs, per probe build. */
function occupancyCase(): BenchCase {
  const peak = (pad: number, probe = occupancyProbes.get(pad)!) => (): Promise<number> => {
    return probe.peak((encoder) => {
      refill(encoder, pristine.get('random')!, sortKeys!, sortValues!, SORT_INPUT_SIZE);
      probe.variant.encode(encoder, sortKeys!, sortValues!, SORT_INPUT_SIZE);
    });
  };
  return {
    name: `count-scan scatter: peak workgroups running at once (whole GPU) over a sort of 2^${Math.log2(SORT_INPUT_SIZE)} u32 key + u32 value pairs, fresh random keys`,
    unit: 'workgroups',
    higherIsBetter: true,
    rounds: 3,
    ours: peak(0),
    peers: {
      ...Object.fromEntries([...occupancyProbes.keys()].filter((pad) => pad > 0).map((pad) => [`${pad / 1024} KiB more workgroup memory`, peak(pad)])),
      ...(largeOccupancyProbe ? { 'the large plan\'s scatter (4096-key blocks in two tile rounds)': peak(0, largeOccupancyProbe) } : {}),
    },
  };
}

const radix = (which: GpuRadixSort): EncodeSort => (encoder, keys, values, count, timestamps) => { which.encode(encoder, keys, values, count, timestamps); };
/** A keys-only sort as an EncodeSort (the refill's value copy is outside its timestamps). */
const sortKeysOnly = (which: GpuRadixSort): EncodeSort => (encoder, keys, _values, count, timestamps) => { which.encodeKeys(encoder, keys, count, timestamps); };

/**
 * The figure this benchmark used to publish: the same buffer sorted again and again, so every
 * sort after the first gets already-sorted keys. Kept as a peer so the difference stays visible.
 */
async function resortPairsPerSecond(count: number): Promise<number> {
  const from = pristine.get('random')!;
  const encoder = gpu!.device.createCommandEncoder();
  refill(encoder, from, sortKeys!, sortValues!, count);
  gpu!.device.queue.submit([encoder.finish()]);
  const ms = await timer!.time((encoder, i, last) => { sorter!.encode(encoder, sortKeys!, sortValues!, count, writes(i, last)); }, { iterations: SORT_ITERATIONS });
  return count / (ms / 1000);
}

/**
 * CUB on the same GPU, in the same call, where the machine has CUDA. CUTTLE_CUB_BIN names
 * bench/cub_sort.cu compiled there: cub::DeviceRadixSort on u32 pairs and on keys alone, refilled
 * and timed per sort as ours are (the like-for-like peer). CUTTLE_CUB_PEER names bench/cub_sort.py:
 * torch.sort(stable=True), CUB on int32 keys with an int64 permutation (12 bytes a pair against
 * our 8), the peer of the tables before 2026-11-29. Each serves the whole run from one process.
 * Absent elsewhere.
 */
const cubBinary = process.env.CUTTLE_CUB_BIN;
const cub = cubBinary && existsSync(cubBinary) ? new CubPeer([cubBinary], 'cub_sort') : undefined;
const cubScript = process.env.CUTTLE_CUB_PEER;
const torchCub = cubScript && existsSync(cubScript) ? new CubPeer(['python3', cubScript]) : undefined;

function cubPeer(count: number, input: SortInput = 'random'): Record<string, Measure> {
  const kind = input.split(' ')[0]!;
  return {
    ...(cub ? { 'CUB (u32 pairs)': () => cub.pairsPerSecond(count, kind) } : {}),
    ...(torchCub ? { 'CUB through torch.sort (int64 permutation)': () => torchCub.pairsPerSecond(count, kind) } : {}),
  };
}

function cubKeysPeer(count: number): Record<string, Measure> {
  return cub ? { 'CUB (keys only)': () => cub.keysPerSecond(count, 'random') } : {};
}

/** Timestamp writes for iteration `i` of a timed run: begin on the first, end on the last. */
function writes(i: number, last: boolean): PassTimestamps {
  return { querySet: timer!.writes.querySet, ...(i === 0 ? { beginIndex: 0 } : {}), ...(last ? { endIndex: 1 } : {}) };
}

/** GB/s of memory traffic: `bytesMoved` (read + written per run) over the GPU time of one run. */
async function gpuTraffic(bytesMoved: number, record: (encoder: GPUCommandEncoder, timestamps: PassTimestamps) => void): Promise<number> {
  const ms = await timer!.time((encoder, i, last) => { record(encoder, writes(i, last)); }, { iterations: ITERATIONS });
  return bytesMoved / ms / 1e6;
}

// Bytes each kernel must read and write per run: the floor of its memory traffic.
const REDUCE_TRAFFIC = BYTES; // reads the input once
const SCAN_BYTES_PER_ELEMENT = 8; // the chained scan reads each element once and writes it once
const SCAN_TRAFFIC = COUNT * SCAN_BYTES_PER_ELEMENT;
const COPY_TRAFFIC = 2 * BYTES; // reads and writes every byte

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

const copyPeer = (): Promise<number> => gpuTraffic(COPY_TRAFFIC, (encoder, timestamps) => { copy!.encode(encoder, timestamps); });

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
    portableScan = new GpuScan(device, { maxCount: COUNT, slots: ITERATIONS, subgroups: false });
    ticketScan = new GpuScan(device, { maxCount: COUNT, slots: ITERATIONS, lookback: { tileOrder: 'ticket' } });
    copy = new CopyKernel(device, BYTES, { source: words, destination: scratch });
    smallCopy = new CopyKernel(device, SMALL_SCAN_COUNT * 4, { source: words, destination: scratch });
    if (scan.variant === 'subgroups') largeTileScan = new ScanShapeBuild(device, { workgroupSize: 256, vecs: 8 }, SMALL_SCAN_COUNT, ITERATIONS);
    timer = new GpuTimer(device);
    const largestSort = SORT_SIZES[SORT_SIZES.length - 1]!;
    sorter = new GpuRadixSort(device, { maxCount: largestSort, slots: SORT_ITERATIONS });
    portableSorter = new GpuRadixSort(device, { maxCount: largestSort, slots: SORT_ITERATIONS, subgroups: false });
    onesweepSorter = new GpuRadixSort(device, { maxCount: largestSort, slots: SORT_ITERATIONS, algorithm: 'onesweep' });
    onesweepKeys = new GpuRadixSort(device, { maxCount: largestSort, slots: SORT_ITERATIONS, algorithm: 'onesweep', keysOnly: true });
    keysSorter = new GpuRadixSort(device, { maxCount: largestSort, slots: SORT_ITERATIONS, keysOnly: true });
    if (onesweepSorter.plan.kind === 'onesweep' && onesweepSorter.plan.block > 2048) {
      onesweepSmallTiles = new GpuRadixSort(device, { maxCount: largestSort, slots: SORT_ITERATIONS, algorithm: 'onesweep', tileKeys: 2048 });
    }
    if (onesweepSorter.timedPasses > 0) passTimer = new PerPassTimer(device, onesweepSorter.timedPasses, SORT_ITERATIONS);
    if (sorter.timedPasses > 0) countScanPassTimer = new PerPassTimer(device, sorter.timedPasses, SORT_ITERATIONS);
    sortTimer = new ColdCacheGpuTimer(device, { runs: SORT_ITERATIONS, flushBytes: 4 });
    // Keys as SORT_INPUTS describes; the values are the indices, as in a sort-by-key permutation.
    for (const input of SORT_INPUTS) pristine.set(input, uploadPristine(device, keysFor(input, input === 'random' ? largestSort : SORT_INPUT_SIZE)));
    const sortUsage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
    sortKeys = device.createBuffer({ size: largestSort * 4, usage: sortUsage });
    sortValues = device.createBuffer({ size: largestSort * 4, usage: sortUsage });
    bitonic = new GpuBitonicSort(device, { maxCount: BITONIC_SIZES[BITONIC_SIZES.length - 1]!, slots: SORT_ITERATIONS });
    // Warm-up for a second of wall time: compile, page in, and let the GPU leave its idle
    // clocks (an idle H100 sits at 345 MHz SM clock) before anything is timed.
    if (onesweepSorter.plan.kind === 'onesweep' && passTimer) {
      noLookback = onesweepVariant(device, onesweepSorter.plan, SORT_INPUT_SIZE, SORT_ITERATIONS, { profileWithoutLookback: true });
    }
    if (onesweepSorter.plan.kind === 'onesweep') {
      lookBackFirst = onesweepVariant(device, onesweepSorter.plan, largestSort, SORT_ITERATIONS, { lookBackBeforeTileSort: true });
    }
    const sorters = [sorter, portableSorter, onesweepSorter, ...(onesweepSmallTiles ? [onesweepSmallTiles] : [])];
    for (const input of SORT_INPUTS) await verifySorts(sorters, keysFor(input, Math.min(largestSort, 1 << 20)));
    // Count-scan also where it switches to its 4096-key blocks (LARGE_BLOCKS_FROM).
    if (sorter.largePlan) await verifySorts([sorter], keysFor('random', sorter.largeBlocksFrom));
    // The one-sweep kernel also at 2^24 pairs, where its look-back spans thousands of tiles.
    await verifySorts([onesweepSorter, ...(onesweepSmallTiles ? [onesweepSmallTiles] : [])], keysFor('random', SORT_INPUT_SIZE));
    if (sorter.plan.kind === 'subgroups' && countScanPassTimer) {
      flushedCountScan = buildFlushedCountScan(device, sorter.plan, SORT_INPUT_SIZE, SORT_ITERATIONS);
      guessedCountScan = buildGuessedCountScan(device, sorter.plan, SORT_INPUT_SIZE, SORT_ITERATIONS);
      for (const pattern of ['sequential', 'none'] as const) writePatterns.set(pattern, writePatternCountScan(device, sorter.plan, SORT_INPUT_SIZE, SORT_ITERATIONS, pattern));
      await verifySortsOf('count-scan with an L2 flush before each scatter', flushedCountScan, keysFor('random', Math.min(SORT_INPUT_SIZE, 1 << 20)));
      for (const build of COUNT_SCAN_BUILDS) {
        const variant = countScanBuild(device, build, largestSort, SORT_ITERATIONS);
        if (!variant) continue;
        countScanBuilds.set(build.name, variant);
        for (const input of SORT_INPUTS) await verifySortsOf(build.name, variant, keysFor(input, Math.min(largestSort, 1 << 20)));
        await verifySortsOf(build.name, variant, keysFor('random', SORT_INPUT_SIZE));
      }
      const scatterBytes = subgroupRadixLayout(device.adapterInfo.subgroupMinSize ?? 32, device.adapterInfo.subgroupMaxSize ?? 128).storageBytes;
      // Probes need room for four times the probed sort (not built when that passes 2^26 pairs).
      const probeCount = Math.max(largestSort, 4 * SORT_INPUT_SIZE);
      for (const pad of PROBE_PADDING.filter((bytes) => probeCount <= 1 << 26 && scatterBytes + bytes <= device.limits.maxComputeWorkgroupStorageSize)) {
        // Room for four times the probed sort, so that its scans leave the probe's words alone.
        const probe = new OccupancyProbe(device, sorter.plan, probeCount, pad);
        occupancyProbes.set(pad, probe);
        await verifySortsOf(`count-scan with an occupancy probe (${pad} bytes padding)`, probe.variant, keysFor('random', Math.min(SORT_INPUT_SIZE, 1 << 20)));
      }
      if (sorter.largePlan && probeCount <= 1 << 26) {
        largeOccupancyProbe = new OccupancyProbe(device, sorter.largePlan, probeCount, 0);
        await verifySortsOf('count-scan, 4096-key blocks, with an occupancy probe', largeOccupancyProbe.variant, keysFor('random', Math.min(SORT_INPUT_SIZE, 1 << 20)));
      }
    }
    if (lookBackFirst) {
      for (const input of SORT_INPUTS) await verifySortsOf('onesweep, look-back before the tile sort', lookBackFirst, keysFor(input, Math.min(largestSort, 1 << 20)));
      await verifySortsOf('onesweep, look-back before the tile sort', lookBackFirst, keysFor('random', SORT_INPUT_SIZE));
    }
    if (onesweepSorter.plan.kind === 'onesweep') {
      const counting = walkCountingVariant(device, onesweepSorter.plan, SORT_INPUT_SIZE, 1);
      await counting.stats(SORT_INPUT_SIZE);
      for (let sample = 0; sample < SORT_WALK_SAMPLES; sample++) await verifySortsOf('onesweep, counting its look-back', counting.variant, keysFor('random', SORT_INPUT_SIZE));
      const tiles = Math.ceil(SORT_INPUT_SIZE / onesweepSorter.plan.block);
      const passes = SORT_WALK_SAMPLES * 4;
      walkStats.push({ stats: await counting.stats(SORT_INPUT_SIZE), walks: passes * (tiles - 1) * 256, passes });
      counting.variant.destroy();
    }
    await verifyKeySort(onesweepKeys, keysFor('random', Math.min(largestSort, 1 << 20)));
    await verifyKeySort(keysSorter, keysFor('random', Math.min(largestSort, 1 << 20)));
    await verifyScans([scan, portableScan, ticketScan], words, scratch, hostWords);
    await verifyScans([scan], words, scratch, hostWords.subarray(0, SMALL_SCAN_COUNT));
    if (largeTileScan) await verifyScanBuild('the scan in tiles of 8192', largeTileScan, words, scratch, hostWords.subarray(0, SMALL_SCAN_COUNT));
    const warmUntil = performance.now() + (process.env.CUTTLE_BENCH_QUICK ? 0 : 1000);
    do {
      await copyPeer();
      await gpuTraffic(REDUCE_TRAFFIC, (encoder, timestamps) => { reduce!.encode(encoder, floats!, COUNT, timestamps); });
      await gpuTraffic(SCAN_TRAFFIC, (encoder, timestamps) => { scan!.encode(encoder, words!, scratch!, COUNT, timestamps); });
    } while (performance.now() < warmUntil);
  },
  teardown() {
    reduce?.destroy();
    scan?.destroy();
    largeTileScan?.destroy();
    smallCopy?.destroy();
    portableScan?.destroy();
    ticketScan?.destroy();
    sorter?.destroy();
    portableSorter?.destroy();
    onesweepSorter?.destroy();
    onesweepKeys?.destroy();
    keysSorter?.destroy();
    onesweepSmallTiles?.destroy();
    noLookback?.destroy();
    cub?.close();
    torchCub?.close();
    lookBackFirst?.destroy();
    flushedCountScan?.destroy();
    guessedCountScan?.destroy();
    for (const variant of writePatterns.values()) variant.destroy();
    writePatterns.clear();
    for (const variant of countScanBuilds.values()) variant.destroy();
    countScanBuilds.clear();
    for (const probe of occupancyProbes.values()) probe.destroy();
    largeOccupancyProbe?.destroy();
    occupancyProbes.clear();
    bitonic?.destroy();
    sortKeys?.destroy();
    sortValues?.destroy();
    for (const pairs of pristine.values()) pairs.destroy();
    sortTimer?.destroy();
    passTimer?.destroy();
    countScanPassTimer?.destroy();
    timer?.destroy();
    for (const buffer of [floats, words, scratch]) buffer?.destroy();
    gpu?.device.destroy();
  },
  gpu: () => (gpu ? gpu.info.summary : null),
  cases: (): BenchCase[] => [
    {
      name: `reduce: sum of ${COUNT >> 20}M f32`,
      unit: 'GB/s moved',
      higherIsBetter: true,
      ours: () => gpuTraffic(REDUCE_TRAFFIC, (encoder, timestamps) => { reduce!.encode(encoder, floats!, COUNT, timestamps); }),
      peers: {
        'vec4 copy (GPU)': copyPeer,
        'JS loop, 1 core': () => (opsPerSecond(() => sumLoop(hostFloats), { minMs: 200 }) * REDUCE_TRAFFIC) / 1e9,
      },
    },
    {
      name: `scan (${scan?.variant ?? 'subgroups'} variant): exclusive prefix sum of ${COUNT >> 20}M u32`,
      unit: 'GB/s moved',
      higherIsBetter: true,
      ours: () => gpuTraffic(SCAN_TRAFFIC, (encoder, timestamps) => { scan!.encode(encoder, words!, scratch!, COUNT, timestamps); }),
      peers: {
        'vec4 copy (GPU)': copyPeer,
        'portable variant (ours)': () => gpuTraffic(SCAN_TRAFFIC, (encoder, timestamps) => { portableScan!.encode(encoder, words!, scratch!, COUNT, timestamps); }),
        'tiles by ticket (ours)': () => gpuTraffic(SCAN_TRAFFIC, (encoder, timestamps) => { ticketScan!.encode(encoder, words!, scratch!, COUNT, timestamps); }),
        'JS loop, 1 core': () => (opsPerSecond(() => { scanLoop(hostWords, hostOut); }, { minMs: 200 }) * 2 * BYTES) / 1e9,
        ...(cub ? { 'CUB (DeviceScan::ExclusiveSum)': async () => ((await cub.scanElementsPerSecond(COUNT)) * SCAN_BYTES_PER_ELEMENT) / 1e9 } : {}),
      },
    },
    {
      name: `scan (${scan?.variant ?? 'subgroups'} variant): exclusive prefix sum of ${SMALL_SCAN_COUNT >> 20 || SMALL_SCAN_COUNT}${SMALL_SCAN_COUNT >> 20 ? 'M' : ''} u32 (a 2^24-pair sort's count table)`,
      unit: 'GB/s moved',
      higherIsBetter: true,
      ours: () => gpuTraffic(SMALL_SCAN_COUNT * SCAN_BYTES_PER_ELEMENT, (encoder, timestamps) => { scan!.encode(encoder, words!, scratch!, SMALL_SCAN_COUNT, timestamps); }),
      peers: {
        'vec4 copy (GPU)': () => gpuTraffic(SMALL_SCAN_COUNT * SCAN_BYTES_PER_ELEMENT, (encoder, timestamps) => { smallCopy!.encode(encoder, timestamps); }),
        ...(largeTileScan ? { 'tiles of 8192 at every size (ours, before 2026-11-29)': () => gpuTraffic(SMALL_SCAN_COUNT * SCAN_BYTES_PER_ELEMENT, (encoder, timestamps) => { largeTileScan!.encode(encoder, words!, scratch!, SMALL_SCAN_COUNT, timestamps); }) } : {}),
        ...(cub ? { 'CUB (DeviceScan::ExclusiveSum)': async () => ((await cub.scanElementsPerSecond(SMALL_SCAN_COUNT)) * SCAN_BYTES_PER_ELEMENT) / 1e9 } : {}),
      },
    },
    ...SORT_SIZES.map(
      (count): BenchCase => ({
        name: `radix sort (${sorter?.plan.kind ?? 'subgroups'} kernel): 2^${Math.log2(count)} u32 key + u32 value pairs, fresh random keys`,
        unit: 'pairs/s',
        higherIsBetter: true,
        rounds: 3,
        ours: () => freshPairsPerSecond(count, radix(sorter!)),
        peers: {
          ...cubPeer(count),
          'portable 4-bit kernel (ours)': () => freshPairsPerSecond(count, radix(portableSorter!)),
          ...countScanBuildPeers(count),
          're-sorting its own output (ours, the old figure)': () => resortPairsPerSecond(count),
        },
      }),
    ),
    ...SORT_SIZES.map(
      (count): BenchCase => ({
        name: `radix sort (${keysSorter?.plan.kind ?? 'subgroups'} kernel), keys only: 2^${Math.log2(count)} fresh random u32 keys`,
        unit: 'keys/s',
        higherIsBetter: true,
        rounds: 3,
        ours: () => freshPairsPerSecond(count, sortKeysOnly(keysSorter!)),
        peers: {
          ...cubKeysPeer(count),
          'onesweep kernel, keys only (ours)': () => freshPairsPerSecond(count, sortKeysOnly(onesweepKeys!)),
        },
      }),
    ),
    ...CROSSOVER_SIZES.map(
      (count): BenchCase => ({
        name: `radix sort (${sorter?.plan.kind ?? 'subgroups'} kernel), block size crossover: 2^${Math.log2(count)} pairs, fresh random keys`,
        unit: 'pairs/s',
        higherIsBetter: true,
        rounds: 3,
        ours: () => freshPairsPerSecond(count, radix(sorter!)),
        peers: countScanBuildPeers(count),
      }),
    ),
    ...SORT_SIZES.map(
      (count): BenchCase => ({
        name: `radix sort, ${onesweepSorter?.plan.kind ?? 'onesweep'} kernel (${onesweepSorter?.plan.block ?? 4096}-key tiles): 2^${Math.log2(count)} pairs, fresh random keys`,
        unit: 'pairs/s',
        higherIsBetter: true,
        rounds: 3,
        ours: () => freshPairsPerSecond(count, radix(onesweepSorter!)),
        peers: {
          ...cubPeer(count),
          'count-scan kernel (ours)': () => freshPairsPerSecond(count, radix(sorter!)),
          ...(onesweepSmallTiles ? { 'onesweep, 2048-key tiles (ours)': () => freshPairsPerSecond(count, radix(onesweepSmallTiles!)) } : {}),
          ...(lookBackFirst ? { 'onesweep, look-back before the tile sort (ours)': () => freshPairsPerSecond(count, variantEncode(lookBackFirst!)) } : {}),
        },
      }),
    ),
    ...Array.from({ length: onesweepSorter?.timedPasses ?? 0 }, (_, pass): BenchCase => {
      let round = 0;
      return {
        name: `radix sort, onesweep kernel, 2^${Math.log2(SORT_INPUT_SIZE)} pairs: ${pass === 0 ? 'histogram pass (reads the keys)' : `digit pass ${pass} (reads and writes keys and values)`}`,
        unit: 'GB/s moved',
        higherIsBetter: true,
        rounds: 3,
        ours: () => onesweepPassTraffic(pass, round++),
        peers: {
          'vec4 copy (GPU)': copyPeer,

        },
      };
    }),
    ...(countScanPassTimer && passTimer ? [perDigitPassCase()] : []),
    ...(occupancyProbes.size > 0 ? [occupancyCase()] : []),
    ...walkCases(),
    {
      name: `radix sort, ${onesweepKeys?.plan.kind ?? 'onesweep'} kernel, keys only: 2^${Math.log2(SORT_INPUT_SIZE)} fresh random keys`,
      unit: 'keys/s',
      higherIsBetter: true,
      rounds: 3,
      ours: () => freshPairsPerSecond(SORT_INPUT_SIZE, sortKeysOnly(onesweepKeys!)),
      peers: { 'key-value pairs (ours)': () => freshPairsPerSecond(SORT_INPUT_SIZE, radix(onesweepSorter!)) },
    },
    ...SORT_INPUTS.filter((input) => input !== 'random').map(
      (input): BenchCase => ({
        name: `radix sort (${sorter?.plan.kind ?? 'subgroups'} kernel): 2^${Math.log2(SORT_INPUT_SIZE)} pairs, ${input} keys`,
        unit: 'pairs/s',
        higherIsBetter: true,
        rounds: 3,
        ours: () => freshPairsPerSecond(SORT_INPUT_SIZE, radix(sorter!), input),
        peers: {
          ...cubPeer(SORT_INPUT_SIZE, input),
          ...countScanBuildPeers(SORT_INPUT_SIZE, input),
        },
      }),
    ),
    ...BITONIC_SIZES.map(
      (count): BenchCase => ({
        name: `bitonic sort: 2^${Math.log2(count)} pairs`,
        unit: 'pairs/s',
        higherIsBetter: true,
        rounds: 3,
        ours: () => freshPairsPerSecond(count, (encoder, keys, values, n, timestamps) => { bitonic!.encode(encoder, keys, values, n, timestamps); }),
        peers: { 'GpuRadixSort (ours)': () => freshPairsPerSecond(count, radix(sorter!)), ...cubPeer(count) },
      }),
    ),
  ],
  notes: [
    'Before timing, both radix sort kernels (2^20 pairs of every key set) and both scan variants (the full input) are checked against the TypeScript references on the GPU being measured.',
    'GPU time from timestamp queries around 100 back-to-back runs in one submit, after a warm-up; median of 9 rounds.',
    'GB/s moved is memory traffic, bytes read plus bytes written, counting only what each kernel must move:',
    'the reduction reads its input once (input rate = traffic); the scan and the copy read and write each byte once (input rate = traffic / 2).',
    'The ratio against the copy is the share of the bandwidth a plain copy achieves. The second scan row scans the first 2^21 words, the size of a 2^24-pair sort\'s count table, where GpuScan takes tiles of 4096 (SMALL_SCAN_MAX); its peer in tiles of 8192 is the kernel before 2026-11-29, and its copy moves the same bytes. CUB\'s scan is cub::DeviceScan::ExclusiveSum from bench/cub_sort.cu on the same words (i % 7), checked against a host scan and timed over 100 back-to-back scans between CUDA events.',
    'JS loop: the same operation on a Float32Array/Uint32Array on one CPU core of the same machine.',
    'Sorts: fresh keys for every sort. Before each of the 10 sorts of a sample, the keys and index values are copied from pristine buffers that nothing else writes;',
    'each sort is timed alone between its own timestamps, so the copy is not counted (it is not part of a sort a user runs); mean of the 10, median of 3 samples.',
    'Random keys use all 32 bits (four 8-bit passes with subgroups, eight 4-bit passes for the portable kernel); sorted, reversed and few-distinct keys (16 values, the top 4 bits) are sorted at the size in their row.',
    'The onesweep pass rows time each pass of the same sorts of fresh random keys between its own timestamps; GB/s moved counts 4 bytes per pair for the histogram and 16 for a digit pass, so the ratio is the share of the vec4 copy\'s bandwidth each pass reaches. The per-digit row\'s "after an L2 flush" peer runs count-scan with a 256 MiB copy between each digit\'s scan and scatter (outside the scatter\'s timestamps), checked against the reference first. Its "offsets guessed" peer runs count-scan\'s scatter with each tile\'s offsets guessed the way the onesweep pass without its look-back guesses them (not sorted): the control for that row.',
    'The onesweep rows run algorithm: \'onesweep\' (one histogram pass, then per digit one ranking pass that finds its offsets by decoupled look-back), checked against the reference at 2^20 for every key set and on 2^24 random keys before timing.',
    '"Re-sorting its own output" is how this table used to be measured: the same buffer sorted 10 times back to back, so every sort after the first gets sorted keys.',
    'Bitonic sort: fresh random keys the same way, copy-in, padding and copy-out included, against our radix sort and CUB at the same size.',
    'The occupancy row counts how many count-scan scatter workgroups run at once over a whole sort (a build whose first invocation counts its workgroup in and out on two spare status words and keeps the peak; the H100 has 132 SMs), plain and with workgroup memory added: where the steps fall shows what limits the scatter.',
    'The sorts\' peer is CUB\'s device radix sort in the same device call: "CUB (u32 pairs)" and "CUB (keys only)" call cub::DeviceRadixSort from bench/cub_sort.cu on the same keys, copied from pristine buffers before each of 10 sorts and each sort timed alone with CUDA events, as ours;',
    '"CUB through torch.sort" is torch.sort(stable=True) on a CUDA int32 tensor of the same kind of keys, which sorts the keys with an int64 permutation (12 bytes a pair), timed back to back with CUDA events: the peer of these tables before 2026-11-29. Both leave their input alone, so CUB sorts fresh keys every time too.',
  ].join(' '),
});
