// Ranking a tile of keys by digit with subgroup ballots, shared by the subgroup scatter
// (radix-sort-subgroups.wgsl) and the one-sweep pass (radix-onesweep.wgsl). After
// subgroup-lanes.wgsl or subgroup-lanes-narrow.wgsl; the including module declares RADIX,
// BLOCK, SCATTER_SIZE, SCATTER_ITEMS, MAX_SUBGROUPS and the `values_in` / `values_out` bindings.
//
// Eight ballots give every lane the mask of lanes holding the same digit, so a key's rank
// inside its subgroup is a popcount, and one lane per digit adds the digit's count to its
// subgroup's counters: no workgroup-wide scan per key. The tile is then sorted in workgroup
// memory and written out in its sorted order, so neighbouring invocations write neighbouring
// addresses. Subgroup i is taken to be invocations [i * size, (i + 1) * size), as on every
// driver we know.

// Per-subgroup digit counters, 16 bits each, two per u32 (a tile holds at most 4096 keys).
const PAIRS: u32 = 128u;
// Digits each invocation totals when the workgroup is smaller than the radix.
const DIGITS_PER_INVOCATION: u32 = RADIX / SCATTER_SIZE;

var<workgroup> subgroup_counts: array<atomic<u32>, MAX_SUBGROUPS * PAIRS>;
var<workgroup> tile: array<u32, BLOCK>;
var<workgroup> digit_start: array<u32, RADIX>;
var<workgroup> global_base: array<u32, RADIX>;
var<workgroup> subgroup_sums: array<u32, MAX_SUBGROUPS>;

/** Zeroes every subgroup's digit counters (the caller puts a barrier after). */
fn clear_subgroup_counts(local: u32, subgroups: u32) {
  for (var i = local; i < subgroups * PAIRS; i += SCATTER_SIZE) {
    atomicStore(&subgroup_counts[i], 0u);
  }
}

/**
 * The rank of this lane's key (of `digit`) among the keys of the same digit that its subgroup
 * ranked before, counting earlier steps through the subgroup's counters at `counters`.
 */
fn rank_in_subgroup(digit: u32, lane: u32, below: LaneMask, counters: u32) -> u32 {
  var peers = ballot(true);
  for (var bit = 0u; bit < 8u; bit++) {
    let one = ((digit >> bit) & 1u) == 1u;
    let votes = ballot(one);
    peers &= select(~votes, votes, one);
  }
  let leader = lowest_lane(peers);
  var earlier = 0u;
  if (lane == leader) {
    let half = (digit & 1u) * 16u;
    earlier = (atomicAdd(&subgroup_counts[counters + (digit >> 1u)], count_lanes(peers) << half) >> half) & 0xffffu;
  }
  return subgroupShuffle(earlier, leader) + count_lanes(peers & below);
}

/**
 * After ranking (and a barrier): per digit pair, the subgroups' counters become their exclusive
 * prefix over the subgroups (both 16-bit halves at once; no carry, a half never exceeds BLOCK),
 * and digit_start[digit] the tile's total of the digit.
 */
fn total_digits(local: u32, subgroups: u32) {
  for (var pair = local; pair < PAIRS; pair += SCATTER_SIZE) {
    let running = prefix_pair(pair, subgroups);
    digit_start[2u * pair] = running & 0xffffu;
    digit_start[2u * pair + 1u] = running >> 16u;
  }
}

/**
 * After total_digits (and a barrier): where in the tile this invocation's first digit starts.
 * Each invocation sums its run of consecutive digits, subgroup scans and the sums of earlier
 * subgroups place the runs. Contains a barrier.
 */
fn first_digit_start(local: u32, lane: u32, subgroup: u32) -> u32 {
  let first_digit = local * DIGITS_PER_INVOCATION;
  var run_total = 0u;
  for (var j = 0u; j < DIGITS_PER_INVOCATION; j++) {
    run_total += digit_start[first_digit + j];
  }
  return run_start(run_total, lane, subgroup);
}

/**
 * Where in the tile an invocation's run of consecutive digits starts, from the run's total:
 * subgroup scans, and the sums of earlier subgroups. Contains a barrier.
 */
fn run_start(run_total: u32, lane: u32, subgroup: u32) -> u32 {
  let within = subgroupExclusiveAdd(run_total);
  let subgroup_total = subgroupAdd(run_total);
  if (lane == 0u) {
    subgroup_sums[subgroup] = subgroup_total;
  }
  workgroupBarrier();
  var start = within;
  for (var s = 0u; s < subgroup; s++) {
    start += subgroup_sums[s];
  }
  return start;
}

/** Pair `pair`'s counters over the subgroups become their exclusive prefix; returns the pair's totals (two 16-bit halves). */
fn prefix_pair(pair: u32, subgroups: u32) -> u32 {
  var running = 0u;
  for (var s = 0u; s < subgroups; s++) {
    let at = s * PAIRS + pair;
    let here = atomicLoad(&subgroup_counts[at]);
    atomicStore(&subgroup_counts[at], running);
    running += here;
  }
  return running;
}

/**
 * total_digits and first_digit_start in one, with one barrier fewer: after ranking (and a
 * barrier), the subgroups' counters become their exclusive prefix over the subgroups, `totals`
 * gets this invocation's digits' totals in the tile, and the result is where the first of them
 * starts. Two digits share a counter word: with one digit an invocation (RADIX invocations),
 * the even invocation of each pair prefixes the pair and hands the odd one its half. Contains a
 * barrier.
 */
fn tile_digit_starts(local: u32, lane: u32, subgroup: u32, subgroups: u32, totals: ptr<function, array<u32, DIGITS_PER_INVOCATION>>) -> u32 {
  if (DIGITS_PER_INVOCATION == 1u) {
    var running = 0u;
    if ((local & 1u) == 0u) {
      running = prefix_pair(local >> 1u, subgroups);
    }
    let pair = subgroupShuffle(running, lane & ~1u);
    (*totals)[0] = (pair >> ((local & 1u) * 16u)) & 0xffffu;
  } else {
    for (var j = 0u; j < DIGITS_PER_INVOCATION; j += 2u) {
      let pair = prefix_pair((local * DIGITS_PER_INVOCATION + j) >> 1u, subgroups);
      (*totals)[j] = pair & 0xffffu;
      (*totals)[j + 1u] = pair >> 16u;
    }
  }
  var run_total = 0u;
  for (var j = 0u; j < DIGITS_PER_INVOCATION; j++) {
    run_total += (*totals)[j];
  }
  return run_start(run_total, lane, subgroup);
}

/** The position in the sorted tile of a key with `digit` and subgroup rank `rank`. */
fn tile_position(digit: u32, rank: u32, counters: u32) -> u32 {
  let pair = atomicLoad(&subgroup_counts[counters + (digit >> 1u)]);
  let before_subgroup = (pair >> ((digit & 1u) * 16u)) & 0xffffu;
  return digit_start[digit] + before_subgroup + rank;
}

/**
 * The values follow the keys' permutation through the tile: value i goes to tile position
 * positions[k], then out to global_base[digit] + position for the first `real` positions.
 * Contains barriers; the keys' write-out must be done with the tile.
 */
fn scatter_values(first: u32, subgroup_size: u32, local: u32, count: u32, real: u32, positions: ptr<function, array<u32, SCATTER_ITEMS>>, out_digits: ptr<function, array<u32, SCATTER_ITEMS>>) {
  workgroupBarrier();
  for (var k = 0u; k < SCATTER_ITEMS; k++) {
    let i = first + k * subgroup_size;
    if (i < count) {
      tile[(*positions)[k]] = values_in[i];
    }
  }
  write_tile_values(local, real, out_digits);
}

/**
 * The values follow the keys' permutation through the tile: the value the invocation loaded
 * with its k-th key goes to tile position positions[k] (padding slots hold anything), then out
 * to global_base[digit] + position for the first `real` positions. Contains barriers; the keys'
 * write-out must be done with the tile.
 */
fn scatter_held_values(local: u32, real: u32, positions: ptr<function, array<u32, SCATTER_ITEMS>>, held: ptr<function, array<u32, SCATTER_ITEMS>>, out_digits: ptr<function, array<u32, SCATTER_ITEMS>>) {
  workgroupBarrier();
  for (var k = 0u; k < SCATTER_ITEMS; k++) {
    tile[(*positions)[k]] = (*held)[k];
  }
  write_tile_values(local, real, out_digits);
}

/** The values in the sorted tile out to global_base[digit] + position. Contains a barrier first. */
fn write_tile_values(local: u32, real: u32, out_digits: ptr<function, array<u32, SCATTER_ITEMS>>) {
  workgroupBarrier();
  for (var k = 0u; k < SCATTER_ITEMS; k++) {
    let at = k * SCATTER_SIZE + local;
    if (at < real) {
      values_out[global_base[(*out_digits)[k]] + at] = tile[at];
    }
  }
}
