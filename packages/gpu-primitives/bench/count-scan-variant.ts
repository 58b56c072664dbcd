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
export function countScanPasses(device: GPUDevice, plan: RadixPlan, maxCount: number, slots: number, extra: Pick<CountScanOptions, 'beforeScatter' | 'scatterOffsetSource' | 'countTiles' | 'scanClearsStatus' | 'sourceTransform'>): CountScanPasses {
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
 * clearing its own status (`scanClearsStatus`, as before 2026-11-27 morning), or with
 * 256-invocation scatter workgroups on any subgroup size (`scatterSize`, tests); null where the
 * device's workgroup memory is too small.
 */
export function countScanBuild(device: GPUDevice, build: { block: 2048 | 4096; countTiles?: 1 | 2 | 4 | 8; portable?: boolean; scanClearsStatus?: boolean; scatterSize?: 256 }, maxCount: number, slots: number): SortVariant | null {
  const minSubgroup = device.adapterInfo.subgroupMinSize ?? 32;
  const layout = subgroupRadixLayout(minSubgroup, device.adapterInfo.subgroupMaxSize ?? 128, build.block);
  // A 256-invocation scatter whatever the subgroup size: one digit an invocation, as on 32-wide subgroups.
  const wide = build.scatterSize ? { ...layout.plan, workgroupSize: build.scatterSize, items: build.block / build.scatterSize } : undefined;
  const storage = wide ? ((wide.workgroupSize / minSubgroup) * 129 + build.block + wide.radix) * 4 : layout.storageBytes;
  if (storage > device.limits.maxComputeWorkgroupStorageSize) return null;
  const plan = build.portable ? PORTABLE_RADIX_PLAN : (wide ?? layout.plan);
  return new SortVariant(device, `cuttle.bench.count-scan-${build.block}`, countScanPasses(device, plan, maxCount, slots, { ...(build.countTiles ? { countTiles: build.countTiles } : {}), ...(build.scanClearsStatus ? { scanClearsStatus: true } : {}) }), maxCount, slots);
}
