// Ballot-mask helpers shared by the subgroup radix kernels (radix-sort-subgroups.wgsl and
// radix-onesweep.wgsl), for subgroups of up to 128 lanes: a mask is all four words of a ballot.
// subgroup-lanes-narrow.wgsl is the same interface on one word, for devices whose subgroups
// have at most 32 lanes (a quarter of the mask arithmetic per ballot).

alias LaneMask = vec4<u32>;

fn ballot(vote: bool) -> LaneMask {
  return subgroupBallot(vote);
}

/** Lanes below `lane` of a subgroup of up to 128 lanes, as a ballot-shaped mask. */
fn lanes_below(lane: u32) -> LaneMask {
  var mask = vec4<u32>(0u);
  for (var word = 0u; word < 4u; word++) {
    let first = word * 32u;
    if (lane >= first + 32u) {
      mask[word] = 0xffffffffu;
    } else if (lane > first) {
      mask[word] = (1u << (lane - first)) - 1u;
    }
  }
  return mask;
}

fn count_lanes(mask: LaneMask) -> u32 {
  let bits = countOneBits(mask);
  return bits.x + bits.y + bits.z + bits.w;
}

fn lowest_lane(mask: LaneMask) -> u32 {
  if (mask.x != 0u) {
    return countTrailingZeros(mask.x);
  }
  if (mask.y != 0u) {
    return 32u + countTrailingZeros(mask.y);
  }
  if (mask.z != 0u) {
    return 64u + countTrailingZeros(mask.z);
  }
  return 96u + countTrailingZeros(mask.w);
}
