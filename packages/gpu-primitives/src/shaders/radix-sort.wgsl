// The portable scatter of the radix sort (after radix-common.wgsl): 4 bits per pass, each key
// ranked with a workgroup-wide scan of packed digit counters. The host prepends RADIX (16),
// ITEMS (keys per invocation), BLOCK (= 256 * ITEMS) and COUNT_ITEMS (= ITEMS) from
// radix-plan.ts, so the TypeScript reference and the kernel share one block size.

// 16 digit counters of 16 bits, two per u32: a block holds at most 4096 keys, so no lane overflows.
const LANES: u32 = 8u;

var<workgroup> lanes: array<array<u32, LANES>, WORKGROUP_SIZE>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn scatter(
  @builtin(workgroup_id) group_id: vec3<u32>,
  @builtin(local_invocation_index) local: u32,
) {
  let block = block_index(group_id);
  clear_scan_status(block, local, WORKGROUP_SIZE);
  if (block >= params.block_count) {
    return;
  }
  // This invocation owns ITEMS consecutive keys; count their digits into packed lanes.
  let first = block * BLOCK + local * ITEMS;
  var keys: array<u32, ITEMS>;
  var digits: array<u32, ITEMS>;
  var mine = array<u32, LANES>();
  for (var k = 0u; k < ITEMS; k++) {
    let i = first + k;
    let valid = i < params.count;
    keys[k] = select(0u, keys_in[min(i, params.count - 1u)], valid);
    // Past-the-end keys get digit RADIX: counted nowhere, written nowhere.
    digits[k] = select(RADIX, digit_of(keys[k]), valid);
    if (valid) {
      mine[digits[k] >> 1u] += 1u << ((digits[k] & 1u) * 16u);
    }
  }
  // Inclusive Hillis-Steele scan of the packed counters over the workgroup, lane by lane
  // (element-wise access to workgroup memory; whole-array copies miscompile on some drivers).
  for (var lane = 0u; lane < LANES; lane++) {
    lanes[local][lane] = mine[lane];
  }
  workgroupBarrier();
  for (var offset = 1u; offset < WORKGROUP_SIZE; offset <<= 1u) {
    // Explicitly zeroed: a loop-local array left to default initialisation kept the previous
    // iteration's contents on Dawn + lavapipe.
    var add = array<u32, LANES>();
    if (local >= offset) {
      for (var lane = 0u; lane < LANES; lane++) {
        add[lane] = lanes[local - offset][lane];
      }
    }
    workgroupBarrier();
    for (var lane = 0u; lane < LANES; lane++) {
      lanes[local][lane] += add[lane];
    }
    workgroupBarrier();
  }
  // Counters of the invocations before this one (exclusive), then rank each key.
  var before = array<u32, LANES>();
  for (var lane = 0u; lane < LANES; lane++) {
    before[lane] = lanes[local][lane] - mine[lane];
  }
  var seen = array<u32, LANES>();
  for (var k = 0u; k < ITEMS; k++) {
    let digit = digits[k];
    if (digit < RADIX) {
      let lane = digit >> 1u;
      let bit = (digit & 1u) * 16u;
      let rank = ((before[lane] >> bit) & 0xffffu) + ((seen[lane] >> bit) & 0xffffu);
      seen[lane] += 1u << bit;
      let target_index = tile_offset(digit, block) + rank;
      keys_out[target_index] = keys[k];
      if (HAS_VALUES) {
        values_out[target_index] = values_in[first + k];
      }
    }
  }
}
