import wideLanesWgsl from './shaders/subgroup-lanes.wgsl?raw';
import narrowLanesWgsl from './shaders/subgroup-lanes-narrow.wgsl?raw';

/** Words of a ballot mask the radix kernels work on: 1 where subgroups have at most 32 lanes, else 4. */
export type LaneWords = 1 | 4;

export function laneWordsFor(maxSubgroupSize: number): LaneWords {
  return maxSubgroupSize <= 32 ? 1 : 4;
}

/** The ballot-mask helpers (LaneMask, ballot, lanes_below, count_lanes, lowest_lane) for masks of `words` words. */
export function subgroupLanesSource(words: LaneWords): string {
  return words === 1 ? narrowLanesWgsl : wideLanesWgsl;
}
