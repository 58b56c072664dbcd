// Benchmarks only: count-scan's subgroup scatter with each tile's offsets guessed by arithmetic
// (where its digits would go if every block held its share) instead of read from the scanned
// count table. Not sorted: timing only. The control for the one-sweep pass built without its
// look-back, which guesses its offsets the same way: what the guessed write pattern costs alone.

@compute @workgroup_size(SCATTER_SIZE)
fn scatter_guessed(
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
  clear_subgroup_counts(local, subgroups);
  workgroupBarrier();
  let block_base = block * BLOCK;
  let first = block_base + subgroup * SCATTER_ITEMS * subgroup_size + lane;
  let below = lanes_below(lane);
  let counters = subgroup * PAIRS;
  var keys = array<u32, SCATTER_ITEMS>();
  var ranks = array<u32, SCATTER_ITEMS>();
  for (var k = 0u; k < SCATTER_ITEMS; k++) {
    let i = first + k * subgroup_size;
    let key = select(0xffffffffu, keys_in[min(i, params.count - 1u)], i < params.count);
    keys[k] = key;
    ranks[k] = rank_in_subgroup(digit_of(key), lane, below, counters);
  }
  workgroupBarrier();
  total_digits(local, subgroups);
  workgroupBarrier();
  var start = first_digit_start(local, lane, subgroup);
  let first_digit = local * DIGITS_PER_INVOCATION;
  let per_digit = params.count / RADIX;
  // Keeps the offset table's binding in the pipeline's layout; the load itself folds away.
  let keep_binding = block_offsets[0] & 0u;
  for (var j = 0u; j < DIGITS_PER_INVOCATION; j++) {
    let digit = first_digit + j;
    let total = digit_start[digit];
    digit_start[digit] = start;
    global_base[digit] = digit * per_digit + u32(f32(per_digit) * f32(block) / f32(params.block_count)) - start + keep_binding;
    start += total;
  }
  workgroupBarrier();
  for (var k = 0u; k < SCATTER_ITEMS; k++) {
    ranks[k] = tile_position(digit_of(keys[k]), ranks[k], counters);
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
  scatter_values(first, subgroup_size, local, params.count, real, &ranks, &digits);
}
