// Builds of the count-scan sort for the benchmark only:
// - with an L2 flush between each digit's count and scatter passes. Count-scan's scatter reads
//   the keys its count pass has just read; this build times the same scatter without that head
//   start (it does not explain why the scatter beats the one-sweep pass).
// - with its scatter's offsets guessed by arithmetic instead of read from the scanned count
//   table (not sorted: timing only). The one-sweep pass built without its look-back guesses its
//   offsets the same way; this is its control: what the guessed write pattern costs alone.
// - with another tile size or number of blocks per count workgroup (the count pass before it
//   took several blocks is the 1-block build).
import { CountScanPasses, type CountScanOptions } from '../src/count-scan-passes.ts';
import { PORTABLE_RADIX_PLAN, type RadixPlan, subgroupRadixLayout } from '../src/radix-plan.ts';
import { laneWordsFor } from '../src/subgroup-lanes.ts';
import { SortVariant } from './sort-variant.ts';
import { editFunction, replaceOnce } from './wgsl-edit.ts';

/** Bytes copied to push the keys out of the cache: several times the H100's 50 MB of L2. */
const FLUSH_BYTES = 256 << 20;

/**
 * Where each digit would start if every block held its share of uniform keys. The table is
 * still read (and the value dropped) so that the pipeline keeps the binding the bind groups name.
 */
const GUESSED_OFFSET = `
fn scatter_offset(digit: u32, block: u32) -> u32 {
  let per_digit = params.count / RADIX;
  return digit * per_digit + u32(f32(per_digit) * f32(block) / f32(params.block_count)) + (tile_offset(0u, 0u) & 0u);
}`;

/** Count-scan passes for `plan` on `device`, as GpuRadixSort makes them, with the benchmark's extras. */
export function countScanPasses(device: GPUDevice, plan: RadixPlan, maxCount: number, slots: number, extra: Pick<CountScanOptions, 'beforeScatter' | 'scatterOffsetSource' | 'countTiles' | 'scanClearsStatus' | 'sourceTransform' | 'largePlan' | 'largeFrom' | 'descending' | 'floatKeys' | 'keysOnly'>): CountScanPasses {
  return new CountScanPasses(device, {
    plan,
    maxSubgroups: plan.workgroupSize / (device.adapterInfo.subgroupMinSize ?? 32),
    laneWords: laneWordsFor(device.adapterInfo.subgroupMaxSize ?? 128),
    maxCount,
    keyBits: 32,
    passes: 32 / plan.bits,
    slots,
    gridLimit: device.limits.maxComputeWorkgroupsPerDimension,
    maxWorkgroupsPerDimension: undefined,
    ...extra,
  });
}

export function flushedCountScan(device: GPUDevice, plan: RadixPlan, maxCount: number, slots: number): SortVariant {
  const flushBytes = Math.min(FLUSH_BYTES, device.limits.maxBufferSize - (device.limits.maxBufferSize % 4));
  const source = device.createBuffer({ label: 'cuttle.bench.flush-source', size: flushBytes, usage: GPUBufferUsage.COPY_SRC });
  const target = device.createBuffer({ label: 'cuttle.bench.flush-target', size: flushBytes, usage: GPUBufferUsage.COPY_DST });
  const passes = countScanPasses(device, plan, maxCount, slots, { beforeScatter: (encoder) => { encoder.copyBufferToBuffer(source, 0, target, 0, flushBytes); } });
  return new SortVariant(device, 'cuttle.bench.flushed-count-scan', passes, maxCount, slots, [source, target]);
}

/** Count-scan with its scatter's offsets guessed by arithmetic (not sorted, timing only). */
export function guessedCountScan(device: GPUDevice, plan: RadixPlan, maxCount: number, slots: number): SortVariant {
  return new SortVariant(device, 'cuttle.bench.guessed-count-scan', countScanPasses(device, plan, maxCount, slots, { scatterOffsetSource: GUESSED_OFFSET }), maxCount, slots);
}

/**
 * Count-scan with `block`-key tiles (shipped: 2048) and `countTiles` blocks per count workgroup
 * (shipped: `countTilesFor`), or the portable 4-bit plan (its block: 4096), or with the scan
 * clearing its own status (`scanClearsStatus`, as before 2026-11-27 morning), or with its
 * block written through a tile of half the block in two rounds (`tileRounds`), or with
 * 256-invocation scatter workgroups on any subgroup size (`scatterSize`, tests); null where the
 * device's workgroup memory is too small.
 */
export function countScanBuild(device: GPUDevice, build: { block: 2048 | 4096; countTiles?: 1 | 2 | 4 | 8; portable?: boolean; scanClearsStatus?: boolean; scatterSize?: 256; tileRounds?: 2 }, maxCount: number, slots: number): SortVariant | null {
  const minSubgroup = device.adapterInfo.subgroupMinSize ?? 32;
  const layout = subgroupRadixLayout(minSubgroup, device.adapterInfo.subgroupMaxSize ?? 128, build.block);
  // A 256-invocation scatter whatever the subgroup size: one digit an invocation, as on 32-wide subgroups.
  const wide = build.scatterSize ? { ...layout.plan, workgroupSize: build.scatterSize, items: build.block / build.scatterSize } : undefined;
  const storage = (wide ? ((wide.workgroupSize / minSubgroup) * 129 + build.block + wide.radix) * 4 : layout.storageBytes) - (build.tileRounds ? (build.block / 2) * 4 : 0);
  if (storage > device.limits.maxComputeWorkgroupStorageSize) return null;
  const plan = build.portable ? PORTABLE_RADIX_PLAN : { ...(wide ?? layout.plan), ...(build.tileRounds ? { tileRounds: build.tileRounds } : {}) };
  return new SortVariant(device, `cuttle.bench.count-scan-${build.block}`, countScanPasses(device, plan, maxCount, slots, { ...(build.countTiles ? { countTiles: build.countTiles } : {}), ...(build.scanClearsStatus ? { scanClearsStatus: true } : {}) }), maxCount, slots);
}

const KEYS_OUT = 'keys_out[global_base[digits[k]] + at] = key;';
const VALUES_OUT = 'values_out[global_base[(*out_digits)[k]] + at] = tile[at];';
const BLOCK_BASE = 'let block_base = block * BLOCK;';

/**
 * The subgroup scatter with its writes changed (not sorted: timing only). 'sequential': each
 * tile's sorted keys and values go to the tile's own place, whole lines in order (the write
 * pattern of a copy; the digit bases are still read). 'none': the writes happen only for a key
 * or value no input holds in practice (the compiler keeps the work before them). Time the first
 * digit only: later digits of 'none' read what the last sort left.
 */
export function writePatternSource(source: string, pattern: 'sequential' | 'none'): string {
  const what = 'write-pattern control';
  if (pattern === 'sequential') {
    const out = editFunction(source, 'scatter', (text) => {
      const based = replaceOnce(text, BLOCK_BASE, `${BLOCK_BASE}\n  sequential_base = block_base;`, what);
      return replaceOnce(based, KEYS_OUT, 'keys_out[sequential_base + at + (global_base[digits[k]] & 0u)] = key;', what);
    }, what);
    const values = editFunction(out, 'write_tile_values', (text) => replaceOnce(text, VALUES_OUT, 'values_out[sequential_base + at + (global_base[(*out_digits)[k]] & 0u)] = tile[at];', what), what);
    return `${values}\nvar<private> sequential_base: u32;\n`;
  }
  const out = editFunction(source, 'scatter', (text) => replaceOnce(text, KEYS_OUT, `if (key == (params.count ^ 0x9e3779b9u)) { ${KEYS_OUT} }`, what), what);
  return editFunction(out, 'write_tile_values', (text) => replaceOnce(text, VALUES_OUT, `if (tile[at] == (params.count ^ 0x9e3779b9u)) { ${VALUES_OUT} }`, what), what);
}

/** Count-scan with the scatter's write pattern changed (timing only, not sorted). */
export function writePatternCountScan(device: GPUDevice, plan: RadixPlan, maxCount: number, slots: number, pattern: 'sequential' | 'none'): SortVariant {
  const passes = countScanPasses(device, plan, maxCount, slots, { sourceTransform: (source) => writePatternSource(source, pattern) });
  return new SortVariant(device, `cuttle.bench.${pattern}-writes-count-scan`, passes, maxCount, slots);
}
