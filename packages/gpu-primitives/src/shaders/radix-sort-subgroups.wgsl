// The subgroup scatter of the radix sort (after radix-common.wgsl, subgroup-lanes.wgsl or its
// narrow twin, and subgroup-rank.wgsl, in a module that enables subgroups): 8 bits per pass.
// Same contract as the portable scatter in radix-sort.wgsl, with three differences that
// matter for speed:
//
// - 256 digit values, so a 32-bit key takes four passes instead of eight.
// - Ranking by subgroup ballots (subgroup-rank.wgsl): no workgroup-wide scan per key.
// - The block is sorted locally in workgroup memory first and then written out in index order
//   of the sorted tile, so neighbouring invocations write neighbouring addresses.
//
// The host prepends RADIX (256), BLOCK (2048 keys), COUNT_ITEMS (= BLOCK / 256, keys per invocation of
// count_digits), SCATTER_SIZE (the scatter's workgroup size: 8 subgroups of the device's
// smallest size, at most 256), SCATTER_ITEMS (= BLOCK / SCATTER_SIZE) and MAX_SUBGROUPS
// (= SCATTER_SIZE / the smallest subgroup size, at most 8), so the per-subgroup counters take
// at most 4 KiB whatever the subgroup size.
//
// What sets its speed on an H100 (measured with the driver's pipeline statistics and an
// occupancy probe in the benchmark): an SM runs as many scatter workgroups as fit 48 KiB of
// workgroup memory, so the kernel's 13 KiB give 3 at once; registers (44 an invocation) would
// allow 5. Registers are therefore free up to about 80 an invocation, and the kernel holds the
// keys and loads the values early instead of reading memory twice or late. Getting under 12 KiB
// (4 at once) cost a barrier more and measured slower. The counters need no clearing: WebGPU
// zeroes workgroup memory before a workgroup starts.

@compute @workgroup_size(SCATTER_SIZE)
fn scatter(
  @builtin(workgroup_id) group_id: vec3<u32>,
  @builtin(local_invocation_index) local: u32,
  @builtin(subgroup_size) subgroup_size: u32,
  @builtin(subgroup_invocation_id) lane: u32,
) {
  let block = block_index(group_id);
  clear_scan_status(block, local, SCATTER_SIZE);
  if (block >= params.block_count) {
    return;
  }
  let subgroup = local / subgroup_size;
  let subgroups = SCATTER_SIZE / subgroup_size;

  // Subgroup s owns keys [s * SCATTER_ITEMS * size, (s + 1) * SCATTER_ITEMS * size) of the
  // block and walks them subgroup-wide, one coalesced load per step: index order is
  // (subgroup, step, lane).
  let block_base = block * BLOCK;
  let first = block_base + subgroup * SCATTER_ITEMS * subgroup_size + lane;
  let below = lanes_below(lane);
  let counters = subgroup * PAIRS;
  // Explicitly zeroed: loop-local arrays left to default initialisation kept stale contents on
  // Dawn + lavapipe.
  var ranks = array<u32, SCATTER_ITEMS>();
  var keys = array<u32, SCATTER_ITEMS>();
  for (var k = 0u; k < SCATTER_ITEMS; k++) {
    keys[k] = load_key(first + k * subgroup_size);
    ranks[k] = rank_in_subgroup(digit_of(keys[k]), lane, below, counters);
  }
  workgroupBarrier();
  // This invocation's digits' offsets, loaded now so that their latency passes during the
  // digit totals and the barrier after them (read before the ranking instead, they cost the
  // pass 9%: one more register held across it). scatter_offset is tile_offset (the scanned
  // count table) unless a benchmark swaps it.
  let first_digit = local * DIGITS_PER_INVOCATION;
  var offsets = array<u32, DIGITS_PER_INVOCATION>();
  for (var j = 0u; j < DIGITS_PER_INVOCATION; j++) {
    offsets[j] = scatter_offset(first_digit + j, block);
  }
  var totals = array<u32, DIGITS_PER_INVOCATION>();
  var start = tile_digit_starts(local, lane, subgroup, subgroups, &totals);
  for (var j = 0u; j < DIGITS_PER_INVOCATION; j++) {
    // Where the tile's position p of this digit goes: its offset + p - start (wraps).
    global_base[first_digit + j] = offsets[j] - start;
    start += totals[j];
  }
  workgroupBarrier();

  // Local positions (a subgroup's counter of a digit now holds where its first key of that
  // digit goes), then the keys through the tile in sorted order. Each rank becomes its key's
  // position in the tile (one register array fewer).
  for (var k = 0u; k < SCATTER_ITEMS; k++) {
    ranks[k] = counter_position(digit_of(keys[k]), ranks[k], counters);
    tile[ranks[k]] = keys[k];
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
  // The values are loaded before the barrier that lets them into the tile, so their latency
  // passes while the other subgroups finish writing keys.
  var values = array<u32, SCATTER_ITEMS>();
  for (var k = 0u; k < SCATTER_ITEMS; k++) {
    values[k] = load_value(first + k * subgroup_size);
  }
  scatter_held_values(local, real, &ranks, &values, &digits);
}

// Past-the-end keys become all ones: the last digit, ranked after every real key of the block
// (they come last in index order), so they land past its last real position.
fn load_key(i: u32) -> u32 {
  return select(0xffffffffu, keys_in[min(i, params.count - 1u)], i < params.count);
}

// Past-the-end slots take the last value: they are sorted into the tile but never written out.
fn load_value(i: u32) -> u32 {
  return values_in[min(i, params.count - 1u)];
}
