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
// Two entry points share the ranking. `scatter` sorts a block of 2048 keys through a tile of
// the same size. `scatter_rounds` (GpuRadixSort's large plan, from `largeBlocksFrom` pairs; off by
// default) sorts a block of 4096 keys and writes it out through the same 2048-key tile in two
// rounds: each digit gets runs twice as long to write (on an H100 the scattered writes cost less
// per key; a 2^26-pair sort ran 7% to 8% faster, before `scatter` loaded its keys first) and the
// count table half the columns, for the same workgroup memory.
//
// The host prepends RADIX (256), BLOCK (keys a workgroup sorts), COUNT_ITEMS (= BLOCK / 256,
// keys per invocation of count_digits), SCATTER_SIZE (the scatter's workgroup size: 8 subgroups
// of the device's smallest size, at most 256), SCATTER_ITEMS (= BLOCK / SCATTER_SIZE),
// TILE_ROUNDS (1 or 2), TILE (= BLOCK / TILE_ROUNDS), TILE_ITEMS (= TILE / SCATTER_SIZE),
// MAX_SUBGROUPS (= SCATTER_SIZE / the smallest subgroup size, at most 8, so the per-subgroup
// counters take at most 4 KiB whatever the subgroup size), HAS_VALUES (false: keys only),
// PAD_KEY and digit_of (the key order: ascending or descending, u32 or f32).
//
// What sets its speed on an H100 (measured with the driver's pipeline statistics and an
// occupancy probe in the benchmark): an SM runs as many scatter workgroups as fit 48 KiB of
// workgroup memory, so the kernel's 13 KiB give 3 at once, as long as registers stay at 80 an
// invocation or fewer (`scatter` took 44 before its loads all went out ahead of the ranking,
// `scatter_rounds` 69). `scatter` loads its keys and values before ranking and holds them
// instead of reading memory twice or late; `scatter_rounds` must save registers instead (see
// there). Getting under 12 KiB (4 at once) cost a barrier more and measured slower. The counters
// need no clearing: WebGPU zeroes workgroup memory before a workgroup starts.

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
  let block_base = block * BLOCK;
  let first = first_key(block_base, local, lane, subgroup_size);
  let counters = (local / subgroup_size) * PAIRS;
  // The values are loaded first, then the keys (rank_block), so that all of a block's loads are
  // in flight at once; the values wait in registers until the keys are through the tile. On an
  // H200 a 2^24-pair sort ran 2% faster than with the values loaded after the keys' write-out.
  var values = array<u32, SCATTER_ITEMS>();
  if (HAS_VALUES) {
    for (var k = 0u; k < SCATTER_ITEMS; k++) {
      values[k] = load_value(first + k * subgroup_size);
    }
  }
  var keys = array<u32, SCATTER_ITEMS>();
  var ranks = rank_block(block, first, local, lane, subgroup_size, &keys);

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
  if (HAS_VALUES) {
    scatter_held_values(local, real, &ranks, &values, &digits);
  }
}

/**
 * A block of TILE_ROUNDS (2) tiles: the same ranking, then the sorted block goes out through the
 * tile in rounds, positions [0, TILE) and then [TILE, 2 TILE), keys first, then values. It must
 * save registers (held like `scatter`'s, the keys and values of 16 keys an invocation took 117,
 * and the H100 ran only 2 workgroups an SM; 69 now): the second round reads its keys again
 * (moments after the first read, so from the cache) instead of holding them through the first,
 * and each round loads only its own values.
 */
@compute @workgroup_size(SCATTER_SIZE)
fn scatter_rounds(
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
  let block_base = block * BLOCK;
  let first = first_key(block_base, local, lane, subgroup_size);
  let counters = (local / subgroup_size) * PAIRS;
  var keys = array<u32, SCATTER_ITEMS>();
  var ranks = rank_block(block, first, local, lane, subgroup_size, &keys);
  // Each rank becomes its key's position in the sorted block; the first round's keys go into
  // the tile now.
  for (var k = 0u; k < SCATTER_ITEMS; k++) {
    ranks[k] = counter_position(digit_of(keys[k]), ranks[k], counters);
    if (ranks[k] < TILE) {
      tile[ranks[k]] = keys[k];
    }
  }
  let real = min(BLOCK, params.count - block_base);
  for (var round = 0u; round < TILE_ROUNDS; round++) {
    let low = round * TILE;
    if (round > 0u) {
      workgroupBarrier(); // the last round's keys or values are out of the tile
      for (var k = 0u; k < SCATTER_ITEMS; k++) {
        let slot = ranks[k] - low; // wraps below low
        if (slot < TILE) {
          tile[slot] = load_key(first + k * subgroup_size);
        }
      }
    }
    workgroupBarrier();
    var targets = array<u32, TILE_ITEMS>();
    for (var k = 0u; k < TILE_ITEMS; k++) {
      let at = k * SCATTER_SIZE + local;
      let key = tile[at];
      targets[k] = global_base[digit_of(key)] + low + at;
      if (low + at < real) {
        keys_out[targets[k]] = key;
      }
    }
    if (!HAS_VALUES) {
      continue;
    }
    // This round's values load before the barrier that lets them into the tile.
    var values = array<u32, SCATTER_ITEMS>();
    for (var k = 0u; k < SCATTER_ITEMS; k++) {
      if (ranks[k] - low < TILE) {
        values[k] = load_value(first + k * subgroup_size);
      }
    }
    workgroupBarrier();
    for (var k = 0u; k < SCATTER_ITEMS; k++) {
      let slot = ranks[k] - low;
      if (slot < TILE) {
        tile[slot] = values[k];
      }
    }
    workgroupBarrier();
    for (var k = 0u; k < TILE_ITEMS; k++) {
      let at = k * SCATTER_SIZE + local;
      if (low + at < real) {
        values_out[targets[k]] = tile[at];
      }
    }
  }
}

/**
 * This invocation's first key of the block at `block_base`: subgroup s owns keys
 * [s * SCATTER_ITEMS * size, (s + 1) * SCATTER_ITEMS * size) of the block and walks them
 * subgroup-wide, one coalesced load per step (index order (subgroup, step, lane)).
 */
fn first_key(block_base: u32, local: u32, lane: u32, subgroup_size: u32) -> u32 {
  return block_base + (local / subgroup_size) * SCATTER_ITEMS * subgroup_size + lane;
}

/**
 * Loads this invocation's keys of `block` into `keys` and ranks them; returns each key's rank
 * among the keys of its digit that its subgroup ranked before it. Then sets global_base, where
 * each digit's tile positions go in the output, and turns the subgroup counters into positions
 * (tile_digit_starts). Contains barriers; the workgroup may read global_base and the counters
 * after it.
 */
fn rank_block(block: u32, first: u32, local: u32, lane: u32, subgroup_size: u32, keys: ptr<function, array<u32, SCATTER_ITEMS>>) -> array<u32, SCATTER_ITEMS> {
  let subgroup = local / subgroup_size;
  let below = lanes_below(lane);
  let counters = subgroup * PAIRS;
  // Explicitly zeroed: loop-local arrays left to default initialisation kept stale contents on
  // Dawn + lavapipe.
  var ranks = array<u32, SCATTER_ITEMS>();
  if (TILE_ROUNDS == 1u) {
    // Every key loaded before the first is ranked, so that the loads are in flight together
    // (ranked as they arrive, each load waited behind the ranking's atomics and shuffles). On an
    // H200 whole sorts of 2^24 / 2^26 pairs ran 9% / 10% faster (2^20: 1% slower).
    for (var k = 0u; k < SCATTER_ITEMS; k++) {
      (*keys)[k] = load_key(first + k * subgroup_size);
    }
    for (var k = 0u; k < SCATTER_ITEMS; k++) {
      ranks[k] = rank_in_subgroup(digit_of((*keys)[k]), lane, below, counters);
    }
  } else {
    // scatter_rounds' 16 keys an invocation, ranked as they arrive: loaded all first, they cost
    // registers, and a 2^26-pair sort ran 10% slower on an H200.
    for (var k = 0u; k < SCATTER_ITEMS; k++) {
      (*keys)[k] = load_key(first + k * subgroup_size);
      ranks[k] = rank_in_subgroup(digit_of((*keys)[k]), lane, below, counters);
    }
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
  var start = tile_digit_starts(local, lane, subgroup, SCATTER_SIZE / subgroup_size, &totals);
  for (var j = 0u; j < DIGITS_PER_INVOCATION; j++) {
    // Where the tile's position p of this digit goes: its offset + p - start (wraps).
    global_base[first_digit + j] = offsets[j] - start;
    start += totals[j];
  }
  workgroupBarrier();
  return ranks;
}

// Past-the-end keys become PAD_KEY, whose digit is the last in every pass (all ones for
// ascending u32 keys; the host works it out for descending and f32 keys): ranked after every
// real key of the block (they come last in index order), they land past its last real position.
fn load_key(i: u32) -> u32 {
  return select(PAD_KEY, keys_in[min(i, params.count - 1u)], i < params.count);
}

// Past-the-end slots take the last value: they are sorted into the tile but never written out.
fn load_value(i: u32) -> u32 {
  return values_in[min(i, params.count - 1u)];
}
