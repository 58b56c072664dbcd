// Ranking a tile of keys by digit with subgroup ballots, shared by the subgroup scatter
// (radix-sort-subgroups.wgsl) and the one-sweep pass (radix-onesweep.wgsl). After
// subgroup-lanes.wgsl or subgroup-lanes-narrow.wgsl; the including module declares RADIX,
// BLOCK, TILE, SCATTER_SIZE, SCATTER_ITEMS, MAX_SUBGROUPS and the `values_in` / `values_out` bindings.
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
// Counter rows each of a digit pair's two invocations prefixes (one digit an invocation).
const HALF_SUBGROUPS: u32 = (MAX_SUBGROUPS + 1u) / 2u;

var<workgroup> subgroup_counts: array<atomic<u32>, MAX_SUBGROUPS * PAIRS>;
// TILE: BLOCK, or half of it where the sorted block goes through the tile in two rounds.
var<workgroup> tile: array<u32, TILE>;
var<workgroup> digit_start: array<u32, RADIX>;
var<workgroup> global_base: array<u32, RADIX>;
var<workgroup> subgroup_sums: array<u32, MAX_SUBGROUPS>;

/**
 * The rank of this lane's key (of `digit`) among the keys of the same digit that its subgroup
 * ranked before, counting earlier steps through the subgroup's counters at `counters`.
 */
fn rank_in_subgroup(digit: u32, lane: u32, below: LaneMask, counters: u32) -> u32 {
  let peers = match_peers(digit);
  let leader = lowest_lane(peers);
  var earlier = 0u;
  if (lane == leader) {
    earlier = add_to_counter(digit, peers, counters);
  }
  return subgroupShuffle(earlier, leader) + count_lanes(peers & below);
}

/** The lanes of this subgroup whose key has `digit`: eight ballots, one a bit. */
fn match_peers(digit: u32) -> LaneMask {
  var peers = ballot(true);
  for (var bit = 0u; bit < 8u; bit++) {
    let one = ((digit >> bit) & 1u) == 1u;
    let votes = ballot(one);
    peers &= select(~votes, votes, one);
  }
  return peers;
}

/** Adds the `peers` of `digit` to the subgroup's counter at `counters`; returns the count before (the leader's call). */
fn add_to_counter(digit: u32, peers: LaneMask, counters: u32) -> u32 {
  let half = (digit & 1u) * 16u;
  return (atomicAdd(&subgroup_counts[counters + (digit >> 1u)], count_lanes(peers) << half) >> half) & 0xffffu;
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
 * After ranking (and a barrier): each subgroup's counter of a digit becomes where that
 * subgroup's first key of the digit goes in the sorted tile (the digit's start in the tile plus
 * the earlier subgroups' keys of it), `totals` gets this invocation's digits' totals, and the
 * result is where the first of them starts (so no digit_start table is needed). Two digits
 * share a counter word, and both 16-bit halves are added at once (no carry: a half never
 * exceeds BLOCK). With one digit an invocation (RADIX invocations), the two invocations of a
 * pair take half the subgroups' counters each, so each waits on half as many (on an H100 the
 * whole sort ran 1 to 2% faster than with the even invocation doing all of them). Contains a
 * barrier.
 */
fn tile_digit_starts(local: u32, lane: u32, subgroup: u32, subgroups: u32, totals: ptr<function, array<u32, DIGITS_PER_INVOCATION>>) -> u32 {
  if (DIGITS_PER_INVOCATION == 1u) {
    let half = local & 1u;
    let pair = local >> 1u;
    var here = array<u32, HALF_SUBGROUPS>();
    var sum = 0u;
    for (var r = 0u; r < HALF_SUBGROUPS; r++) {
      let s = half * HALF_SUBGROUPS + r;
      if (s < subgroups) {
        here[r] = atomicLoad(&subgroup_counts[s * PAIRS + pair]);
        sum += here[r];
      }
    }
    let other = subgroupShuffle(sum, lane ^ 1u);
    (*totals)[0] = ((sum + other) >> (half * 16u)) & 0xffffu;
    let start = run_start((*totals)[0], lane, subgroup);
    let partner = subgroupShuffle(start, lane ^ 1u);
    // Both digits' starts, each in its half; the even invocation's rows come first.
    var running = select(start | (partner << 16u), partner | (start << 16u), half == 1u) + select(0u, other, half == 1u);
    for (var r = 0u; r < HALF_SUBGROUPS; r++) {
      let s = half * HALF_SUBGROUPS + r;
      if (s < subgroups) {
        atomicStore(&subgroup_counts[s * PAIRS + pair], running);
        running += here[r];
      }
    }
    return start;
  }
  var run_total = 0u;
  for (var j = 0u; j < DIGITS_PER_INVOCATION; j += 2u) {
    let pair = pair_total((local * DIGITS_PER_INVOCATION + j) >> 1u, subgroups);
    (*totals)[j] = pair & 0xffffu;
    (*totals)[j + 1u] = pair >> 16u;
    run_total += (*totals)[j] + (*totals)[j + 1u];
  }
  let start = run_start(run_total, lane, subgroup);
  var even_start = start;
  for (var j = 0u; j < DIGITS_PER_INVOCATION; j += 2u) {
    let odd_start = even_start + (*totals)[j];
    var running = even_start | (odd_start << 16u);
    let pair = (local * DIGITS_PER_INVOCATION + j) >> 1u;
    for (var s = 0u; s < subgroups; s++) {
      let here = atomicLoad(&subgroup_counts[s * PAIRS + pair]);
      atomicStore(&subgroup_counts[s * PAIRS + pair], running);
      running += here;
    }
    even_start = odd_start + (*totals)[j + 1u];
  }
  return start;
}

/** Pair `pair`'s totals over the subgroups' counters (two 16-bit halves). */
fn pair_total(pair: u32, subgroups: u32) -> u32 {
  var sum = 0u;
  for (var s = 0u; s < subgroups; s++) {
    sum += atomicLoad(&subgroup_counts[s * PAIRS + pair]);
  }
  return sum;
}

/** The position in the sorted tile of a key with `digit` and subgroup rank `rank`. */
fn tile_position(digit: u32, rank: u32, counters: u32) -> u32 {
  return digit_start[digit] + counter_position(digit, rank, counters);
}

/** `rank` plus the subgroup's counter of `digit` (the 16-bit half of its pair's word). */
fn counter_position(digit: u32, rank: u32, counters: u32) -> u32 {
  let pair = atomicLoad(&subgroup_counts[counters + (digit >> 1u)]);
  return ((pair >> ((digit & 1u) * 16u)) & 0xffffu) + rank;
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
