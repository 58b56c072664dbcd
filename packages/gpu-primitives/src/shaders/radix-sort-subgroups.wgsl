// The subgroup scatter of the radix sort (after radix-common.wgsl, in a module that enables
// subgroups): 8 bits per pass. Same contract as the portable scatter in radix-sort.wgsl, with
// three differences that matter for speed:
//
// - 256 digit values, so a 32-bit key takes four passes instead of eight.
// - Ranking by subgroup ballots: eight ballots give every lane the mask of lanes holding the
//   same digit, so a key's rank inside its subgroup is a popcount, and one lane per digit adds
//   the digit's count to its subgroup's counters. No workgroup-wide scan per key.
// - The block is sorted locally in workgroup memory first and then written out in index order
//   of the sorted tile, so neighbouring invocations write neighbouring addresses.
//
// The host prepends RADIX (256), BLOCK (2048 keys), COUNT_ITEMS (= BLOCK / 256, keys per invocation of
// count_digits), SCATTER_SIZE (the scatter's workgroup size: 8 subgroups of the device's
// smallest size, at most 256), SCATTER_ITEMS (= BLOCK / SCATTER_SIZE) and MAX_SUBGROUPS
// (= SCATTER_SIZE / the smallest subgroup size, at most 8), so the per-subgroup counters take
// at most 4 KiB whatever the subgroup size. Subgroup i is taken to be invocations
// [i * size, (i + 1) * size), as on every driver we know.

// Per-subgroup digit counters, 16 bits each, two per u32 (a block holds at most 4096 keys).
const PAIRS: u32 = 128u;
// Digits each scatter invocation totals when the workgroup is smaller than the radix.
const DIGITS_PER_INVOCATION: u32 = RADIX / SCATTER_SIZE;

var<workgroup> subgroup_counts: array<atomic<u32>, MAX_SUBGROUPS * PAIRS>;
var<workgroup> tile: array<u32, BLOCK>;
var<workgroup> digit_start: array<u32, RADIX>;
var<workgroup> global_base: array<u32, RADIX>;
var<workgroup> subgroup_sums: array<u32, MAX_SUBGROUPS>;

@compute @workgroup_size(SCATTER_SIZE)
fn scatter(
  @builtin(workgroup_id) group_id: vec3<u32>,
  @builtin(local_invocation_index) local: u32,
  @builtin(subgroup_size) subgroup_size: u32,
  @builtin(subgroup_invocation_id) lane: u32,
) {
  let block = block_index(group_id);
  if (block >= params.block_count) {
    return;
  }
  let subgroup = local / subgroup_size;
  let subgroups = SCATTER_SIZE / subgroup_size;
  for (var i = local; i < subgroups * PAIRS; i += SCATTER_SIZE) {
    atomicStore(&subgroup_counts[i], 0u);
  }
  workgroupBarrier();

  // Subgroup s owns keys [s * SCATTER_ITEMS * size, (s + 1) * SCATTER_ITEMS * size) of the
  // block and walks them subgroup-wide, one coalesced load per step: index order is
  // (subgroup, step, lane).
  let block_base = block * BLOCK;
  let first = block_base + subgroup * SCATTER_ITEMS * subgroup_size + lane;
  let below = lanes_below(lane);
  let counters = subgroup * PAIRS;
  // Explicitly zeroed: loop-local arrays left to default initialisation kept stale contents on
  // Dawn + lavapipe.
  var keys = array<u32, SCATTER_ITEMS>();
  var ranks = array<u32, SCATTER_ITEMS>();
  for (var k = 0u; k < SCATTER_ITEMS; k++) {
    let i = first + k * subgroup_size;
    // Past-the-end keys become all ones: the last digit, ranked after every real key of the
    // block (they come last in index order), so they land past its last real position.
    let key = select(0xffffffffu, keys_in[min(i, params.count - 1u)], i < params.count);
    keys[k] = key;
    let digit = digit_of(key);
    var peers = subgroupBallot(true);
    for (var bit = 0u; bit < 8u; bit++) {
      let one = ((digit >> bit) & 1u) == 1u;
      let votes = subgroupBallot(one);
      peers &= select(~votes, votes, one);
    }
    let leader = lowest_lane(peers);
    var earlier = 0u;
    if (lane == leader) {
      let half = (digit & 1u) * 16u;
      earlier = (atomicAdd(&subgroup_counts[counters + (digit >> 1u)], count_lanes(peers) << half) >> half) & 0xffffu;
    }
    ranks[k] = subgroupShuffle(earlier, leader) + count_lanes(peers & below);
  }
  workgroupBarrier();

  // Per digit pair: exclusive prefix of the subgroups' counters (both 16-bit halves at once;
  // no carry, a half never exceeds BLOCK), and the block's total per digit.
  for (var pair = local; pair < PAIRS; pair += SCATTER_SIZE) {
    var running = 0u;
    for (var s = 0u; s < subgroups; s++) {
      let at = s * PAIRS + pair;
      let here = atomicLoad(&subgroup_counts[at]);
      atomicStore(&subgroup_counts[at], running);
      running += here;
    }
    digit_start[2u * pair] = running & 0xffffu;
    digit_start[2u * pair + 1u] = running >> 16u;
  }
  workgroupBarrier();
  // Exclusive scan of the 256 digit totals: each invocation sums its run of consecutive
  // digits, subgroup scans and the sums of earlier subgroups place the runs, then each
  // invocation walks its run again.
  let first_digit = local * DIGITS_PER_INVOCATION;
  var run_total = 0u;
  for (var j = 0u; j < DIGITS_PER_INVOCATION; j++) {
    run_total += digit_start[first_digit + j];
  }
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
  for (var j = 0u; j < DIGITS_PER_INVOCATION; j++) {
    let digit = first_digit + j;
    let total = digit_start[digit];
    digit_start[digit] = start;
    // Where the tile's position p of this digit goes: block_offsets[d, block] + p - start (wraps).
    global_base[digit] = block_offsets[digit * params.block_count + block] - start;
    start += total;
  }
  workgroupBarrier();

  // Local positions, then the keys through the tile in sorted order.
  var positions = array<u32, SCATTER_ITEMS>();
  for (var k = 0u; k < SCATTER_ITEMS; k++) {
    let digit = digit_of(keys[k]);
    let pair = atomicLoad(&subgroup_counts[counters + (digit >> 1u)]);
    let before_subgroup = (pair >> ((digit & 1u) * 16u)) & 0xffffu;
    positions[k] = digit_start[digit] + before_subgroup + ranks[k];
    tile[positions[k]] = keys[k];
  }
  workgroupBarrier();
  let real = min(BLOCK, params.count - block_base);
  var digits = array<u32, SCATTER_ITEMS>();
  for (var k = 0u; k < SCATTER_ITEMS; k++) {
    let at = k * SCATTER_SIZE + local;
    let key = tile[at];
    digits[k] = digit_of(key);
    if (at < real) {
      keys_out[global_base[digits[k]] + at] = key;
    }
  }
  workgroupBarrier();
  // The values follow the same permutation.
  for (var k = 0u; k < SCATTER_ITEMS; k++) {
    let i = first + k * subgroup_size;
    if (i < params.count) {
      tile[positions[k]] = values_in[i];
    }
  }
  workgroupBarrier();
  for (var k = 0u; k < SCATTER_ITEMS; k++) {
    let at = k * SCATTER_SIZE + local;
    if (at < real) {
      values_out[global_base[digits[k]] + at] = tile[at];
    }
  }
}
