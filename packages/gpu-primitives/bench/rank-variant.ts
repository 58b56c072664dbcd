// Instrument (issue #39): the radix sort with its subgroup ranking swapped for another, beside
// the shipped sort, on fresh random pairs, alternating round by round in one process. Before
// timing, both sorts' keys and values must be the same. The variant here ranks as CUB's
// WARP_MATCH_ATOMIC_OR does: each lane ORs its bit into its digit's word of its subgroup in
// workgroup memory and reads the word back, one workgroup atomic and one load a key instead of
// eight ballots. It relies on a subgroup running in lockstep between the OR and the load (CUB
// has __syncwarp there; WGSL has no subgroup barrier), so it is an experiment, not a kernel to ship.
// Two builds: the match words in workgroup memory of their own (8 KiB more), and in the tile's
// words (the tile is free while ranking; every tile access then goes through atomics).
//
//   pnpm -s bundle:node packages/gpu-primitives/bench/rank-variant.ts .device/rank-variant.mjs
//   node .device/rank-variant.mjs [--log2 20,24,26] [--rounds 5]
import { ColdCacheGpuTimer } from '@cuttle/bench';
import { requestNodeGpu } from '@cuttle/test-utils/node-gpu';
import { readBuffer } from '@cuttle/test-utils/gpu-buffers';
import { GpuRadixSort } from '../src/index.ts';
import { editFunction, replaceOnce } from './wgsl-edit.ts';

function flag(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1]! : fallback;
}
const sizes = flag('--log2', '20,24,26').split(',').map((n) => 1 << Number(n));
const rounds = Number(flag('--rounds', '5'));

/** Index of the bracket that closes the one opening at `open`. */
function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '[') depth++;
    else if (text[i] === ']' && --depth === 0) return i;
  }
  throw new Error('unbalanced brackets');
}

/**
 * Every use of the workgroup array `tile` through atomics (`tile[i] = v;` becomes atomicStore,
 * any other `tile[i]` atomicLoad), so that the array can be declared atomic and lend its words to
 * the ranking: no workgroup memory added.
 */
function tileThroughAtomics(source: string): string {
  let out = replaceOnce(source, 'var<workgroup> tile: array<u32, TILE>;', 'var<workgroup> tile: array<atomic<u32>, TILE>;', 'atomic tile');
  let at = 0;
  for (;;) {
    const found = out.indexOf('tile[', at);
    if (found < 0) break;
    if (/[A-Za-z0-9_&]/.test(out[found - 1] ?? '')) {
      at = found + 5;
      continue;
    }
    const close = closing(out, found + 4);
    const index = out.slice(found + 5, close);
    const rest = out.slice(close + 1);
    const store = /^\s*=\s*([^;]+);/.exec(rest);
    const replacement = store ? `atomicStore(&tile[${index}], ${store[1]!.trim()});` : `atomicLoad(&tile[${index}])`;
    out = out.slice(0, found) + replacement + (store ? rest.slice(store[0].length) : rest);
    at = found + replacement.length;
  }
  return out;
}

/** The ranking through per-subgroup match words (32-lane subgroups, one-word lane masks); `alias`: the words are the tile's. */
function atomicOrRanking(source: string, alias: boolean): string {
  if (!source.includes('alias LaneMask = u32;')) throw new Error('the atomic-or ranking is written for one-word lane masks (subgroups of at most 32 lanes)');
  const constant = (name: string): number => Number(new RegExp(`const ${name}: u32 = (\\d+)u;`).exec(source)?.[1] ?? NaN);
  if (alias && !(constant('MAX_SUBGROUPS') * 256 <= constant('TILE'))) throw new Error('the match words do not fit in the tile');
  let out = alias
    ? tileThroughAtomics(source)
    : replaceOnce(source, 'var<workgroup> digit_start:', 'var<workgroup> match_words: array<atomic<u32>, MAX_SUBGROUPS * 256u>;\nvar<workgroup> digit_start:', 'match words');
  if (alias) out = out.replaceAll('&match_words[', '&tile[');
  out = editFunction(out, 'rank_in_subgroup', () => `
fn rank_in_subgroup(digit: u32, lane: u32, below: LaneMask, counters: u32) -> u32 {
  let word = (counters / PAIRS) * 256u + digit;
  atomicOr(&match_words[word], 1u << lane);
  let peers = atomicLoad(&match_words[word]);
  let leader = lowest_lane(peers);
  var earlier = 0u;
  if (lane == leader) {
    atomicStore(&match_words[word], 0u);
    let half = (digit & 1u) * 16u;
    earlier = (atomicAdd(&subgroup_counts[counters + (digit >> 1u)], count_lanes(peers) << half) >> half) & 0xffffu;
  }
  return subgroupShuffle(earlier, leader) + count_lanes(peers & below);
}
`, 'atomic-or ranking');
  return alias ? out.replaceAll('&match_words[', '&tile[') : out;
}

const gpu = await requestNodeGpu();
const device = gpu.device;
let transform: ((source: string) => string) | undefined;
const create = device.createShaderModule.bind(device);
device.createShaderModule = (descriptor: GPUShaderModuleDescriptor): GPUShaderModule => {
  if (transform && descriptor.label?.startsWith('cuttle.radix-sort')) return create({ ...descriptor, code: transform(descriptor.code) });
  return create(descriptor);
};

const timer = new ColdCacheGpuTimer(device, { runs: 10, flushBytes: 256 << 20 });
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
for (const count of sizes) {
  const bytes = count * 4;
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
  const pristineKeys = device.createBuffer({ size: bytes, usage });
  const pristineValues = device.createBuffer({ size: bytes, usage });
  const keys = device.createBuffer({ size: bytes, usage });
  const values = device.createBuffer({ size: bytes, usage });
  const randomKeys = new Uint32Array(count);
  let x = 12345;
  for (let i = 0; i < count; i++) randomKeys[i] = x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
  device.queue.writeBuffer(pristineKeys, 0, randomKeys);
  device.queue.writeBuffer(pristineValues, 0, new Uint32Array(count).map((_, i) => i));
  const shipped = new GpuRadixSort(device, { maxCount: count });
  const variants: GpuRadixSort[] = [];
  for (const alias of [false, true]) {
    transform = (source) => atomicOrRanking(source, alias);
    device.pushErrorScope('validation');
    variants.push(new GpuRadixSort(device, { maxCount: count }));
    const invalid = await device.popErrorScope();
    transform = undefined;
    if (invalid) throw new Error(`the atomic-or variant (alias ${alias}) does not build: ${invalid.message}`);
  }
  const refill = (encoder: GPUCommandEncoder): void => {
    encoder.copyBufferToBuffer(pristineKeys, 0, keys, 0, bytes);
    encoder.copyBufferToBuffer(pristineValues, 0, values, 0, bytes);
  };
  const sorts = [shipped, ...variants];
  const results: Uint32Array[][] = [];
  for (const sort of sorts) {
    const encoder = device.createCommandEncoder();
    refill(encoder);
    sort.encode(encoder, keys, values, count);
    device.queue.submit([encoder.finish()]);
    results.push([new Uint32Array(await readBuffer(device, keys)), new Uint32Array(await readBuffer(device, values))]);
  }
  const [k0, v0] = results[0] as [Uint32Array, Uint32Array];
  for (let i = 1; i < count; i++) if (k0[i - 1]! > k0[i]!) throw new Error(`the shipped sort is not sorted at ${i}`);
  for (const [s, [k1, v1]] of results.entries()) {
    for (let i = 0; i < count; i++) if (k0[i] !== k1![i] || v0[i] !== v1![i]) throw new Error(`2^${Math.log2(count)}: variant ${s}'s pairs differ from the shipped sort's at ${i}; not timing it`);
  }
  const samples: number[][] = sorts.map(() => []);
  for (let r = 0; r < rounds; r++) {
    const order = sorts.map((_, i) => i);
    for (const which of r % 2 === 0 ? order : order.reverse()) {
      const sort = sorts[which]!;
      samples[which]!.push(await timer.time((encoder, beginIndex, endIndex) => {
        refill(encoder);
        sort.encode(encoder, keys, values, count, { querySet: timer.querySet, beginIndex, endIndex });
      }));
    }
  }
  const [a, b, c] = samples.map(median) as [number, number, number];
  const rate = (ms: number): number => Number((count / (ms / 1000)).toExponential(3));
  console.log(JSON.stringify({ log2: Math.log2(count), shippedMs: Number(a.toFixed(4)), atomicOrMs: Number(b.toFixed(4)), atomicOrInTileMs: Number(c.toFixed(4)), shipped: rate(a), atomicOr: rate(b), atomicOrInTile: rate(c) }));
  for (const buffer of [pristineKeys, pristineValues, keys, values]) buffer.destroy();
  for (const sort of sorts) sort.destroy();
}
console.log(`GPU: ${gpu.info.summary}`);
timer.destroy();
device.destroy();
