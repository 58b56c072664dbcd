// What both radix sort kernels share: the pass parameters, the bindings, and count_digits.
// The host puts the kernel's constants (RADIX, BLOCK, COUNT_ITEMS, ...) in front of this file
// and the kernel's scatter (radix-sort.wgsl or radix-sort-subgroups.wgsl) after it.
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
  // The digit's bits: RADIX - 1, or fewer in the last pass when keyBits is not a multiple of
  // the digit width.
  mask: u32,
}

const WORKGROUP_SIZE: u32 = 256u;

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> keys_in: array<u32>;
@group(0) @binding(2) var<storage, read_write> block_counts: array<u32>;
@group(0) @binding(3) var<storage, read> values_in: array<u32>;
@group(0) @binding(4) var<storage, read> block_offsets: array<u32>;
@group(0) @binding(5) var<storage, read_write> keys_out: array<u32>;
@group(0) @binding(6) var<storage, read_write> values_out: array<u32>;

var<workgroup> histogram: array<atomic<u32>, RADIX>;

fn digit_of(key: u32) -> u32 {
  return (key >> params.shift) & params.mask;
}

/** Where `digit`'s keys of `block` start in the output: the scanned count table. */
fn tile_offset(digit: u32, block: u32) -> u32 {
  return block_offsets[digit * params.block_count + block];
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
  for (var k = 0u; k < COUNT_ITEMS; k++) {
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
