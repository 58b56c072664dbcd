// Builds of the onesweep passes that GpuRadixSort does not offer, for the benchmark only: the
// pass without its look-back (timing only, output not sorted), the other order of the tile
// sort and the look-back, and the pass counting what its look-back does.
import { OnesweepPasses, type OnesweepOptions, type WalkStats } from '../src/onesweep-passes.ts';
import type { RadixPlan } from '../src/radix-plan.ts';
import { laneWordsFor } from '../src/subgroup-lanes.ts';
import { SortVariant } from './sort-variant.ts';

export type OnesweepVariant = SortVariant;

function onesweepPasses(device: GPUDevice, plan: RadixPlan, maxCount: number, slots: number, extra: Pick<OnesweepOptions, 'profileWithoutLookback' | 'lookBackBeforeTileSort' | 'fallBack' | 'countWalks'>): OnesweepPasses {
  const minSize = device.adapterInfo.subgroupMinSize ?? 32;
  const laneWords = laneWordsFor(device.adapterInfo.subgroupMaxSize ?? 128);
  return new OnesweepPasses(device, { plan, maxSubgroups: plan.workgroupSize / minSize, laneWords, maxCount, keyBits: 32, descending: false, floatKeys: false, keysOnly: false, slots, gridLimit: device.limits.maxComputeWorkgroupsPerDimension, ...extra });
}

export function onesweepVariant(device: GPUDevice, plan: RadixPlan, maxCount: number, slots: number, variant: Pick<OnesweepOptions, 'profileWithoutLookback' | 'lookBackBeforeTileSort' | 'fallBack'>): OnesweepVariant {
  return new SortVariant(device, 'cuttle.bench.onesweep-variant', onesweepPasses(device, plan, maxCount, slots, variant), maxCount, slots);
}

/** The shipped onesweep passes with the look-back's counters on (a few atomics per tile: not for timing). */
export function walkCountingVariant(device: GPUDevice, plan: RadixPlan, maxCount: number, slots: number): { variant: OnesweepVariant; stats: (count: number) => Promise<WalkStats> } {
  const passes = onesweepPasses(device, plan, maxCount, slots, { countWalks: true });
  return { variant: new SortVariant(device, 'cuttle.bench.onesweep-walks', passes, maxCount, slots), stats: (count) => passes.readWalkStats(count) };
}
