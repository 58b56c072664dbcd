// Ballot-mask helpers for subgroups of at most 32 lanes: the interface of subgroup-lanes.wgsl
// on the ballot's first word alone, which is all such a subgroup fills.

alias LaneMask = u32;

fn ballot(vote: bool) -> LaneMask {
  return subgroupBallot(vote).x;
}

/** Lanes below `lane` (at most 31). */
fn lanes_below(lane: u32) -> LaneMask {
  return (1u << lane) - 1u;
}

fn count_lanes(mask: LaneMask) -> u32 {
  return countOneBits(mask);
}

fn lowest_lane(mask: LaneMask) -> u32 {
  return countTrailingZeros(mask);
}
