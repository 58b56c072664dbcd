// Exclusive prefix sum of u32 (wrapping), reduce-then-scan over blocks of 1024 elements.
//
// block_totals: each workgroup sums one block of the level's input into block_sums.
// The host runs it level by level (the totals of one level are the input of the next) until
// one block remains, whose total is the grand total.
// scan_with_offsets: from the top level down, each workgroup scans its block and adds the
// block's offset (the scanned totals of the level above), writing the level's output.
//
// Level 0 reads its input twice and writes its output once: 3 bytes moved per input byte.
// Blocks beyond 65535 use a 2D grid: block = workgroup_id.x + workgroup_id.y * blocks_per_row.

struct Params {
  count: u32,
  blocks_per_row: u32,
  // 0 for the top level, which has no level above it to take offsets from.
  has_offsets: u32,
}

const WORKGROUP_SIZE: u32 = 256u;
const ITEMS: u32 = 4u;
const BLOCK: u32 = 1024u;

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> scan_input: array<u32>;
@group(0) @binding(2) var<storage, read_write> block_sums: array<u32>;
@group(0) @binding(3) var<storage, read_write> scanned: array<u32>;
@group(0) @binding(4) var<storage, read> block_offsets: array<u32>;

var<workgroup> tile: array<u32, BLOCK>;
var<workgroup> totals: array<u32, WORKGROUP_SIZE>;

fn load(i: u32) -> u32 {
  return select(0u, scan_input[min(i, params.count - 1u)], i < params.count);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn block_totals(
  @builtin(workgroup_id) group_id: vec3<u32>,
  @builtin(local_invocation_index) local: u32,
) {
  let block = group_id.x + group_id.y * params.blocks_per_row;
  let base = block * BLOCK;
  if (base >= params.count) {
    return; // a padding workgroup of the 2D grid: uniform for the whole workgroup
  }
  // Four independent coalesced loads, then a tree over the workgroup.
  let a = load(base + local);
  let b = load(base + WORKGROUP_SIZE + local);
  let c = load(base + 2u * WORKGROUP_SIZE + local);
  let d = load(base + 3u * WORKGROUP_SIZE + local);
  totals[local] = (a + b) + (c + d);
  workgroupBarrier();
  for (var half = WORKGROUP_SIZE / 2u; half > 0u; half >>= 1u) {
    if (local < half) {
      totals[local] += totals[local + half];
    }
    workgroupBarrier();
  }
  if (local == 0u) {
    block_sums[block] = totals[0];
  }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn scan_with_offsets(
  @builtin(workgroup_id) group_id: vec3<u32>,
  @builtin(local_invocation_index) local: u32,
) {
  let block = group_id.x + group_id.y * params.blocks_per_row;
  let base = block * BLOCK;
  if (base >= params.count) {
    return;
  }
  // Coalesced load into workgroup memory, zero past the end.
  for (var k = 0u; k < ITEMS; k++) {
    tile[k * WORKGROUP_SIZE + local] = load(base + k * WORKGROUP_SIZE + local);
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
  if (params.has_offsets != 0u) {
    before += block_offsets[block];
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
}
