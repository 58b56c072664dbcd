// One pass of a stable LSD radix sort of u32 keys with u32 values, 4 bits per pass.
//
// count_digits: each workgroup counts the digits of its block of keys and writes them
//   digit-major: block_counts[digit * block_count + block]. An exclusive scan of that table
//   (GpuScan) gives every (digit, block) its first output position, so digit 0 of every block
//   comes before digit 1 of any block, and blocks keep their order inside a digit: stable.
// scatter: each workgroup ranks its keys among the block's keys with the same digit, in index
//   order, and writes key and value to offset[digit, block] + rank.
//
// Blocks beyond 65535 use a 2D grid: block = workgroup_id.x + workgroup_id.y * blocks_per_row.

struct Params {
  count: u32,
  block_count: u32,
  blocks_per_row: u32,
  shift: u32,
}

// ITEMS (keys per invocation) and BLOCK (= 256 * ITEMS) are prepended by the host from
// radix-plan.ts, so the TypeScript reference and the kernel share one block size.
const WORKGROUP_SIZE: u32 = 256u;
const RADIX: u32 = 16u;
// 16 digit counters of 16 bits, two per u32: a block holds at most 4096 keys, so no lane overflows.
const LANES: u32 = 8u;

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> keys_in: array<u32>;
@group(0) @binding(2) var<storage, read_write> block_counts: array<u32>;
@group(0) @binding(3) var<storage, read> values_in: array<u32>;
@group(0) @binding(4) var<storage, read> block_offsets: array<u32>;
@group(0) @binding(5) var<storage, read_write> keys_out: array<u32>;
@group(0) @binding(6) var<storage, read_write> values_out: array<u32>;

var<workgroup> histogram: array<atomic<u32>, RADIX>;
var<workgroup> lanes: array<array<u32, LANES>, WORKGROUP_SIZE>;

fn digit_of(key: u32) -> u32 {
  return (key >> params.shift) & (RADIX - 1u);
}

fn block_index(group_id: vec3<u32>) -> u32 {
  return group_id.x + group_id.y * params.blocks_per_row;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn count_digits(
  @builtin(workgroup_id) group_id: vec3<u32>,
  @builtin(local_invocation_index) local: u32,
) {
  let block = block_index(group_id);
  if (block >= params.block_count) {
    return; // a padding workgroup of the 2D grid: uniform for the whole workgroup
  }
  if (local < RADIX) {
    atomicStore(&histogram[local], 0u);
  }
  workgroupBarrier();
  let base = block * BLOCK;
  for (var k = 0u; k < ITEMS; k++) {
    let i = base + k * WORKGROUP_SIZE + local;
    if (i < params.count) {
      atomicAdd(&histogram[digit_of(keys_in[i])], 1u);
    }
  }
  workgroupBarrier();
  if (local < RADIX) {
    block_counts[local * params.block_count + block] = atomicLoad(&histogram[local]);
  }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn scatter(
  @builtin(workgroup_id) group_id: vec3<u32>,
  @builtin(local_invocation_index) local: u32,
) {
  let block = block_index(group_id);
  if (block >= params.block_count) {
    return;
  }
  // This invocation owns four consecutive keys; count their digits into packed lanes.
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
      let target_index = block_offsets[digit * params.block_count + block] + rank;
      keys_out[target_index] = keys[k];
      values_out[target_index] = values_in[first + k];
    }
  }
}
