// Ballot-mask helpers shared by the subgroup radix kernels (radix-sort-subgroups.wgsl and
// radix-onesweep.wgsl): ballots are vec4<u32> masks of up to 128 lanes.

/** Lanes below `lane` of a subgroup of up to 128 lanes, as a ballot-shaped mask. */
fn lanes_below(lane: u32) -> vec4<u32> {
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

fn count_lanes(mask: vec4<u32>) -> u32 {
  let bits = countOneBits(mask);
  return bits.x + bits.y + bits.z + bits.w;
}

fn lowest_lane(mask: vec4<u32>) -> u32 {
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
