// What both radix sort kernels share: the pass parameters, the bindings, and count_digits.
// The host puts the kernel's constants (RADIX, BLOCK, COUNT_ITEMS, ...) in front of this file
// and the kernel's scatter (radix-sort.wgsl or radix-sort-subgroups.wgsl) after it.
//
// count_digits: each workgroup counts the digits of 2^count_tiles_log2 neighbouring blocks of
//   keys (at most MAX_COUNT_TILES), each block into its own histogram, and writes them digit-major:
//   block_counts[digit * block_count + block]. An exclusive scan of that table (GpuScan) gives
//   every (digit, block) its first output position, so digit 0 of every block comes before
//   digit 1 of any block, and blocks keep their order inside a digit: stable. Several blocks a
//   workgroup keep more keys in flight per workgroup, and its writes are that many
//   neighbouring words per digit instead of one lone word.
// scatter: each workgroup ranks its keys among the block's keys with the same digit, in index
//   order, and writes key and value to offset[digit, block] + rank. Its first workgroups also
//   zero the scan's tile status words for the next scan, so no clear command runs between
//   passes (on an H100 the four a sort recorded cost 2.7% of a 2^24-pair sort).
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
  // The count pass's grid row, and log2 of the blocks each of its workgroups counts.
  count_groups_per_row: u32,
  count_tiles_log2: u32,
  // The scan's tile status words (GpuScan's statusBuffer) the scatter zeroes; 0 when the scan
  // clears them itself.
  status_words: u32,
}

// The most blocks one count workgroup counts (its histograms' size).
const MAX_COUNT_TILES: u32 = 8u;

const WORKGROUP_SIZE: u32 = 256u;

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> keys_in: array<u32>;
@group(0) @binding(2) var<storage, read_write> block_counts: array<u32>;
@group(0) @binding(3) var<storage, read> values_in: array<u32>;
@group(0) @binding(4) var<storage, read> block_offsets: array<u32>;
@group(0) @binding(5) var<storage, read_write> keys_out: array<u32>;
@group(0) @binding(6) var<storage, read_write> values_out: array<u32>;
@group(0) @binding(7) var<storage, read_write> scan_status: array<atomic<u32>>;

var<workgroup> histogram: array<atomic<u32>, RADIX * MAX_COUNT_TILES>;

// digit_of(key), the key's digit in this pass, comes from the host (digitOfSource in
// count-scan-passes.ts): plain for ascending u32 keys, with float order or inverted digits for
// f32 keys and descending sorts.

/** Where `digit`'s keys of `block` start in the output: the scanned count table. */
fn tile_offset(digit: u32, block: u32) -> u32 {
  return block_offsets[digit * params.block_count + block];
}

/**
 * Zeroes the scan's status words, `size` a workgroup from the first (more each when there are
 * few blocks): the scan that used them ran before this scatter, and the next one runs after it.
 */
fn clear_scan_status(block: u32, local: u32, size: u32) {
  for (var i = block * size + local; i < params.status_words; i += params.block_count * size) {
    atomicStore(&scan_status[i], 0u);
  }
}

/** A workgroup's place in a 2D grid of `per_row` workgroups a row. */
fn grid_index(group_id: vec3<u32>, per_row: u32) -> u32 {
  return group_id.x + group_id.y * per_row;
}

fn block_index(group_id: vec3<u32>) -> u32 {
  return grid_index(group_id, params.blocks_per_row);
}

/** This invocation's digits of `block` (RADIX past the last key, counted nowhere). */
fn block_digits(block: u32, local: u32) -> array<u32, COUNT_ITEMS> {
  var digits = array<u32, COUNT_ITEMS>();
  let base = block * BLOCK;
  for (var k = 0u; k < COUNT_ITEMS; k++) {
    let i = base + k * WORKGROUP_SIZE + local;
    digits[k] = select(RADIX, digit_of(keys_in[min(i, params.count - 1u)]), i < params.count);
  }
  return digits;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn count_digits(
  @builtin(workgroup_id) group_id: vec3<u32>,
  @builtin(local_invocation_index) local: u32,
) {
  let tiles = 1u << params.count_tiles_log2;
  let first_block = grid_index(group_id, params.count_groups_per_row) * tiles;
  if (first_block >= params.block_count) {
    return; // a padding workgroup of the 2D grid: uniform for the whole workgroup
  }
  // The histograms start at zero: WebGPU zeroes workgroup memory before a workgroup runs.
  for (var tile = 0u; tile < tiles; tile++) {
    // A block's keys are all loaded before any is counted, so their loads overlap. (Loading the
    // next block's keys while counting this one's measured no faster on an H100.)
    let digits = block_digits(first_block + tile, local);
    for (var k = 0u; k < COUNT_ITEMS; k++) {
      if (digits[k] < RADIX) {
        atomicAdd(&histogram[tile * RADIX + digits[k]], 1u);
      }
    }
  }
  workgroupBarrier();
  // Invocation i writes digit i / tiles of block i % tiles: neighbours, neighbouring words.
  for (var i = local; i < RADIX * tiles; i += WORKGROUP_SIZE) {
    let digit = i >> params.count_tiles_log2;
    let tile = i & (tiles - 1u);
    let block = first_block + tile;
    if (block < params.block_count) {
      block_counts[digit * params.block_count + block] = atomicLoad(&histogram[tile * RADIX + digit]);
    }
  }
}
