// Exclusive prefix sum of u32 (wrapping), reduce-then-scan over blocks of 1024 elements.
//
// scan_blocks: each workgroup scans one block (256 invocations x 4 elements) into `scanned`
//   and writes the block's total to `block_sums`. The host scans `block_sums` the same way,
//   level by level, until one block remains.
// add_offsets: each workgroup adds its block's scanned offset to the block's elements.
//
// Blocks beyond 65535 use a 2D grid: block = workgroup_id.x + workgroup_id.y * blocks_per_row.

struct Params {
  count: u32,
  blocks_per_row: u32,
}

const WORKGROUP_SIZE: u32 = 256u;
const ITEMS: u32 = 4u;
const BLOCK: u32 = 1024u;

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> scan_input: array<u32>;
@group(0) @binding(2) var<storage, read_write> scanned: array<u32>;
@group(0) @binding(3) var<storage, read_write> block_sums: array<u32>;

var<workgroup> tile: array<u32, BLOCK>;
var<workgroup> totals: array<u32, WORKGROUP_SIZE>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn scan_blocks(
  @builtin(workgroup_id) group_id: vec3<u32>,
  @builtin(local_invocation_index) local: u32,
) {
  let block = group_id.x + group_id.y * params.blocks_per_row;
  let base = block * BLOCK;
  if (base >= params.count) {
    return; // a padding workgroup of the 2D grid: uniform for the whole workgroup
  }
  // Coalesced load into workgroup memory, zero past the end.
  for (var k = 0u; k < ITEMS; k++) {
    let i = base + k * WORKGROUP_SIZE + local;
    tile[k * WORKGROUP_SIZE + local] = select(0u, scan_input[min(i, params.count - 1u)], i < params.count);
  }
  workgroupBarrier();
  // Each invocation scans its four consecutive elements serially.
  var running = 0u;
  var mine: array<u32, ITEMS>;
  for (var k = 0u; k < ITEMS; k++) {
    mine[k] = running;
    running += tile[local * ITEMS + k];
  }
  totals[local] = running;
  workgroupBarrier();
  // Inclusive Hillis-Steele scan of the 256 per-invocation totals.
  for (var offset = 1u; offset < WORKGROUP_SIZE; offset <<= 1u) {
    var add = 0u;
    if (local >= offset) {
      add = totals[local - offset];
    }
    workgroupBarrier();
    totals[local] += add;
    workgroupBarrier();
  }
  var before = 0u;
  if (local > 0u) {
    before = totals[local - 1u];
  }
  for (var k = 0u; k < ITEMS; k++) {
    tile[local * ITEMS + k] = before + mine[k];
  }
  workgroupBarrier();
  for (var k = 0u; k < ITEMS; k++) {
    let i = base + k * WORKGROUP_SIZE + local;
    if (i < params.count) {
      scanned[i] = tile[k * WORKGROUP_SIZE + local];
    }
  }
  if (local == WORKGROUP_SIZE - 1u) {
    block_sums[block] = totals[WORKGROUP_SIZE - 1u];
  }
}

@group(0) @binding(4) var<storage, read_write> scan_target: array<u32>;
@group(0) @binding(5) var<storage, read> block_offsets: array<u32>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn add_offsets(
  @builtin(workgroup_id) group_id: vec3<u32>,
  @builtin(local_invocation_index) local: u32,
) {
  let block = group_id.x + group_id.y * params.blocks_per_row;
  let base = block * BLOCK;
  if (base >= params.count) {
    return;
  }
  let offset = block_offsets[block];
  for (var k = 0u; k < ITEMS; k++) {
    let i = base + k * WORKGROUP_SIZE + local;
    if (i < params.count) {
      scan_target[i] += offset;
    }
  }
}
