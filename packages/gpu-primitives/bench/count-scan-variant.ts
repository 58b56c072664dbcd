// The count-scan sort with an L2 flush between each digit's count and scatter passes, for the
// benchmark only. Count-scan's scatter reads the keys its count pass has just read; this build
// times the same scatter without that head start, to test whether it explains why the scatter
// takes about two thirds of the one-sweep pass's time for nearly the same ranking and write-out.
import { CountScanPasses } from '../src/count-scan-passes.ts';
import type { RadixPlan } from '../src/radix-plan.ts';
import { laneWordsFor } from '../src/subgroup-lanes.ts';
import guessedWgsl from './count-scan-probe.wgsl?raw';
import { SortVariant } from './sort-variant.ts';

/** Bytes copied to push the keys out of the cache: several times the H100's 50 MB of L2. */
const FLUSH_BYTES = 256 << 20;

/** Count-scan with its scatter's offsets guessed by arithmetic (count-scan-probe.wgsl; not sorted, timing only). */
export function guessedCountScan(device: GPUDevice, plan: RadixPlan, maxCount: number, slots: number): SortVariant {
  const passes = new CountScanPasses(device, {
    plan,
    maxSubgroups: plan.workgroupSize / (device.adapterInfo.subgroupMinSize ?? 32),
    laneWords: laneWordsFor(device.adapterInfo.subgroupMaxSize ?? 128),
    maxCount,
    keyBits: 32,
    passes: 32 / plan.bits,
    slots,
    gridLimit: device.limits.maxComputeWorkgroupsPerDimension,
    maxWorkgroupsPerDimension: undefined,
    probe: { code: guessedWgsl, entryPoint: 'scatter_guessed' },
  });
  return new SortVariant(device, 'cuttle.bench.guessed-count-scan', passes, maxCount, slots);
}

export function flushedCountScan(device: GPUDevice, plan: RadixPlan, maxCount: number, slots: number): SortVariant {
  const flushBytes = Math.min(FLUSH_BYTES, device.limits.maxBufferSize - (device.limits.maxBufferSize % 4));
  const source = device.createBuffer({ label: 'cuttle.bench.flush-source', size: flushBytes, usage: GPUBufferUsage.COPY_SRC });
  const target = device.createBuffer({ label: 'cuttle.bench.flush-target', size: flushBytes, usage: GPUBufferUsage.COPY_DST });
  const passes = new CountScanPasses(device, {
    plan,
    maxSubgroups: plan.workgroupSize / (device.adapterInfo.subgroupMinSize ?? 32),
    laneWords: laneWordsFor(device.adapterInfo.subgroupMaxSize ?? 128),
    maxCount,
    keyBits: 32,
    passes: 32 / plan.bits,
    slots,
    gridLimit: device.limits.maxComputeWorkgroupsPerDimension,
    maxWorkgroupsPerDimension: undefined,
    beforeScatter: (encoder) => { encoder.copyBufferToBuffer(source, 0, target, 0, flushBytes); },
  });
  return new SortVariant(device, 'cuttle.bench.flushed-count-scan', passes, maxCount, slots, [source, target]);
}
