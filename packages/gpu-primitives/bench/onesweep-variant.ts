// Builds of the onesweep passes that GpuRadixSort does not offer, for the benchmark only: the
// pass without its look-back (timing only, output not sorted) and the other order of the tile
// sort and the look-back.
import { OnesweepPasses, type OnesweepOptions } from '../src/onesweep-passes.ts';
import type { RadixPlan } from '../src/radix-plan.ts';
import { laneWordsFor } from '../src/subgroup-lanes.ts';
import { SortVariant } from './sort-variant.ts';

export type OnesweepVariant = SortVariant;

export function onesweepVariant(device: GPUDevice, plan: RadixPlan, maxCount: number, slots: number, variant: Pick<OnesweepOptions, 'profileWithoutLookback' | 'lookBackBeforeTileSort' | 'fallBack'>): OnesweepVariant {
  const minSize = device.adapterInfo.subgroupMinSize ?? 32;
  const laneWords = laneWordsFor(device.adapterInfo.subgroupMaxSize ?? 128);
  const passes = new OnesweepPasses(device, { plan, maxSubgroups: plan.workgroupSize / minSize, laneWords, maxCount, keyBits: 32, descending: false, floatKeys: false, keysOnly: false, slots, gridLimit: device.limits.maxComputeWorkgroupsPerDimension, ...variant });
  return new SortVariant(device, 'cuttle.bench.onesweep-variant', passes, maxCount, slots);
}
