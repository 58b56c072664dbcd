// Instrument (issue #39): the radix sort with its ranking or its loads changed, beside the shipped
// sort, on fresh random pairs (or keys, --keys-only), alternating round by round in one process.
// Before timing, every build's keys and values must be the shipped sort's. Builds (--variants):
//
// - `atomic-or`, `atomic-or-in-tile`: rank as CUB's WARP_MATCH_ATOMIC_OR does: each lane ORs its
//   bit into its digit's word of its subgroup in workgroup memory and reads the word back, one
//   workgroup atomic and one load a key instead of eight ballots, the words in workgroup memory
//   of their own (8 KiB more) or in the tile's (free while ranking; every tile access then goes
//   through atomics). It relies on a subgroup running in lockstep between the OR and the load
//   (CUB has __syncwarp there; WGSL has no subgroup barrier), so it is an experiment, not a
//   kernel to ship.
// - `ranked-as-loaded`: `scatter` ranks each key as it is loaded, as it did before 2026-11-29
//   (the shipped kernel loads them all first).
// - `values-late`: `scatter` loads its values after writing its keys out, as before 2026-11-29
//   (the shipped kernel loads them before ranking).
// - `masks-first`: every key's peer mask (its eight ballots) first, then the counter atomics and
//   shuffles, so the ballots of later keys do not wait behind a key's atomic.
// - `shuffles-last`: as masks-first, and the leaders' atomics all go out before the first
//   shuffle reads one's result.
//
// - `onesweep-ranked-as-loaded` (with an @onesweep plan): the one-sweep pass ranks each key as it
//   is loaded, as it did before 2026-11-29 (the shipped pass loads them all first).
//
// After an @, a plan other than the default: @4096 (4096-key blocks from 2^25 pairs, the default
// before 2026-11-29), @onesweep (the one-sweep passes, 4096-key tiles where the device allows) or
// @onesweep2048 (2048-key tiles). onesweep- variants need an @onesweep plan.
//
//   pnpm -s bundle:node packages/gpu-primitives/bench/rank-variant.ts .device/rank-variant.mjs
//   node .device/rank-variant.mjs [--log2 20,24,26] [--rounds 5] [--keys-only] [--variants shipped@4096,...|none]
import { ColdCacheGpuTimer } from '@cuttle/bench';
import { requestNodeGpu } from '@cuttle/test-utils/node-gpu';
import { readBuffer } from '@cuttle/test-utils/gpu-buffers';
import { GpuRadixSort, type GpuRadixSortOptions } from '../src/index.ts';
import { editFunction, replaceOnce } from './wgsl-edit.ts';

function flag(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1]! : fallback;
}
const sizes = flag('--log2', '20,24,26').split(',').map((n) => 1 << Number(n));
const rounds = Number(flag('--rounds', '5'));
const keysOnly = process.argv.includes('--keys-only');
// `--variants none` times the shipped sort alone (e.g. under other CUTTLE_DAWN_FLAGS).
const variantList = flag('--variants', 'ranked-as-loaded,values-late,shipped@4096');
const chosen = variantList === 'none' ? [] : variantList.split(',');

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
    earlier = add_to_counter(digit, peers, counters);
  }
  return subgroupShuffle(earlier, leader) + count_lanes(peers & below);
}
`, 'atomic-or ranking');
  return alias ? out.replaceAll('&match_words[', '&tile[') : out;
}

/** `scatter`'s ranking loop (keys loaded first): each key ranked as it arrives. */
const RANK_HELD_KEYS = `    for (var k = 0u; k < SCATTER_ITEMS; k++) {
      ranks[k] = rank_in_subgroup(digit_of((*keys)[k]), lane, below, counters);
    }`;

/** `scatter`'s ranking of its held keys replaced by `loop` (subgroup-rank.wgsl's match_peers and add_to_counter at hand). */
function rankHeldKeys(loop: string): (source: string) => string {
  return (source) => replaceOnce(source, RANK_HELD_KEYS, loop, 'held-key ranking');
}

const PEERS = `    var peers = array<LaneMask, SCATTER_ITEMS>();
    for (var k = 0u; k < SCATTER_ITEMS; k++) {
      peers[k] = match_peers(digit_of((*keys)[k]));
    }`;

/** `scatter`'s value loads, shipped before the ranking. */
const VALUES_FIRST = `  var values = array<u32, SCATTER_ITEMS>();
  if (HAS_VALUES) {
    for (var k = 0u; k < SCATTER_ITEMS; k++) {
      values[k] = load_value(first + k * subgroup_size);
    }
  }
`;

/** Where the one-sweep pass's load loop ends and its ranking loop begins. */
const ONESWEEP_RANK_LOOP = `  }
  for (var k = 0u; k < SCATTER_ITEMS; k++) {
    places[k] = rank_in_subgroup(`;

const transforms: Record<string, (source: string) => string> = {
  shipped: (source) => source,
  'atomic-or': (source) => atomicOrRanking(source, false),
  'atomic-or-in-tile': (source) => atomicOrRanking(source, true),
  'ranked-as-loaded': (source) => replaceOnce(source, 'if (TILE_ROUNDS == 1u) {', 'if (false) {', 'keys-first branch'),
  'values-late': (source) =>
    editFunction(source, 'scatter', (text) => {
      const out = replaceOnce(text, VALUES_FIRST, '', 'values first');
      return replaceOnce(out, '    scatter_held_values(', `    var values = array<u32, SCATTER_ITEMS>();
    for (var k = 0u; k < SCATTER_ITEMS; k++) {
      values[k] = load_value(first + k * subgroup_size);
    }
    scatter_held_values(`, 'values late');
    }, 'values late'),
  // The two loops become one: each key ranked right after its (and its value's) load.
  'onesweep-ranked-as-loaded': (source) => replaceOnce(source, ONESWEEP_RANK_LOOP, '    places[k] = rank_in_subgroup(', 'one-sweep loops'),
  'masks-first': rankHeldKeys(`${PEERS}
    for (var k = 0u; k < SCATTER_ITEMS; k++) {
      let leader = lowest_lane(peers[k]);
      var earlier = 0u;
      if (lane == leader) {
        earlier = add_to_counter(digit_of((*keys)[k]), peers[k], counters);
      }
      ranks[k] = subgroupShuffle(earlier, leader) + count_lanes(peers[k] & below);
    }`),
  'shuffles-last': rankHeldKeys(`${PEERS}
    for (var k = 0u; k < SCATTER_ITEMS; k++) {
      if (lane == lowest_lane(peers[k])) {
        ranks[k] = add_to_counter(digit_of((*keys)[k]), peers[k], counters);
      }
    }
    for (var k = 0u; k < SCATTER_ITEMS; k++) {
      ranks[k] = subgroupShuffle(ranks[k], lowest_lane(peers[k])) + count_lanes(peers[k] & below);
    }`),
};

const plans: Record<string, Omit<GpuRadixSortOptions, 'maxCount'>> = { '4096': { largeBlocksFrom: 1 << 25 }, onesweep: { algorithm: 'onesweep' }, onesweep2048: { algorithm: 'onesweep', tileKeys: 2048 } };
const builds = chosen.map((name) => {
  const [variant, plan] = name.split('@') as [string, string | undefined];
  if (!transforms[variant]) throw new Error(`unknown variant '${variant}' (known: ${Object.keys(transforms).join(', ')})`);
  const onesweep = plan?.startsWith('onesweep') === true;
  if (variant !== 'shipped' && onesweep !== variant.startsWith('onesweep-')) throw new Error(`'${name}': onesweep- variants go with @onesweep plans, the others with count-scan`);
  const options = plan === undefined ? {} : plans[plan];
  if (!options) throw new Error(`'${name}': plans are ${Object.keys(plans).map((key) => `@${key}`).join(', ')}`);
  return { name, transform: transforms[variant], options: { keysOnly, ...options } };
});

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
  const shipped = new GpuRadixSort(device, { maxCount: count, keysOnly });
  const variants: GpuRadixSort[] = [];
  for (const { name, transform: edit, options } of builds) {
    transform = edit;
    device.pushErrorScope('validation');
    variants.push(new GpuRadixSort(device, { maxCount: count, ...options }));
    const invalid = await device.popErrorScope();
    transform = undefined;
    if (invalid) throw new Error(`the ${name} variant does not build: ${invalid.message}`);
  }
  const refill = (encoder: GPUCommandEncoder): void => {
    encoder.copyBufferToBuffer(pristineKeys, 0, keys, 0, bytes);
    if (!keysOnly) encoder.copyBufferToBuffer(pristineValues, 0, values, 0, bytes);
  };
  const run = (sort: GpuRadixSort, encoder: GPUCommandEncoder, timestamps?: { querySet: GPUQuerySet; beginIndex: number; endIndex: number }): void => {
    if (keysOnly) sort.encodeKeys(encoder, keys, count, timestamps);
    else sort.encode(encoder, keys, values, count, timestamps);
  };
  const sorts = [shipped, ...variants];
  const results: Uint32Array[][] = [];
  for (const sort of sorts) {
    const encoder = device.createCommandEncoder();
    refill(encoder);
    run(sort, encoder);
    device.queue.submit([encoder.finish()]);
    results.push([new Uint32Array(await readBuffer(device, keys)), keysOnly ? new Uint32Array(count) : new Uint32Array(await readBuffer(device, values))]);
  }
  const [k0, v0] = results[0] as [Uint32Array, Uint32Array];
  for (let i = 1; i < count; i++) if (k0[i - 1]! > k0[i]!) throw new Error(`the shipped sort is not sorted at ${i}`);
  for (const [s, [k1, v1]] of results.entries()) {
    for (let i = 0; i < count; i++) if (k0[i] !== k1![i] || v0[i] !== v1![i]) throw new Error(`2^${Math.log2(count)}: ${chosen[s - 1]}'s pairs differ from the shipped sort's at ${i}; not timing it`);
  }
  const samples: number[][] = sorts.map(() => []);
  for (let r = 0; r < rounds; r++) {
    const order = sorts.map((_, i) => i);
    for (const which of r % 2 === 0 ? order : order.reverse()) {
      const sort = sorts[which]!;
      samples[which]!.push(await timer.time((encoder, beginIndex, endIndex) => {
        refill(encoder);
        run(sort, encoder, { querySet: timer.querySet, beginIndex, endIndex });
      }));
    }
  }
  const rate = (ms: number): number => Number((count / (ms / 1000)).toExponential(3));
  const row: Record<string, number> = { log2: Math.log2(count) };
  for (const [i, name] of ['shipped', ...chosen].entries()) {
    const ms = median(samples[i]!);
    row[`${name}Ms`] = Number(ms.toFixed(4));
    row[name] = rate(ms);
  }
  console.log(JSON.stringify({ keysOnly, ...row }));
  for (const buffer of [pristineKeys, pristineValues, keys, values]) buffer.destroy();
  for (const sort of sorts) sort.destroy();
}
console.log(`GPU: ${gpu.info.summary}`);
timer.destroy();
device.destroy();
