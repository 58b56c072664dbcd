// Bitonic sort of (key, value) u32 pairs, ordered by key then value (a total order, so the
// result is deterministic and padding pairs of all ones never pass a real pair).
//
// The host pads to a power of two n >= 512 and runs:
//   fill_padding         once: pairs count .. n-1 become (0xffffffff, 0xffffffff);
//   local_sort           once: each workgroup sorts its block of 512 in workgroup memory;
//   then for k = 1024, 2048, ..., n:
//     global_step        for j = k/2, k/4, ..., 512: one compare-exchange over all of memory;
//     local_merge        once: strides 256 .. 1 of stage k inside each block of 512.
// Blocks beyond 65535 workgroups use a 2D grid: id = workgroup_id.x + workgroup_id.y * groups_per_row.

struct Params {
  n: u32,
  k: u32,
  j: u32,
  groups_per_row: u32,
  // Pairs the caller sorts; fill_padding sets [count, n) to all ones.
  count: u32,
}

const WORKGROUP_SIZE: u32 = 256u;
const BLOCK: u32 = 512u;

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> keys: array<u32>;
@group(0) @binding(2) var<storage, read_write> values: array<u32>;

var<workgroup> tile_keys: array<u32, BLOCK>;
var<workgroup> tile_values: array<u32, BLOCK>;

fn pair_greater(key_a: u32, value_a: u32, key_b: u32, value_b: u32) -> bool {
  return key_a > key_b || (key_a == key_b && value_a > value_b);
}

/** The lower index of the pair that invocation `t` compares at stride j. */
fn first_of_pair(t: u32, j: u32) -> u32 {
  return 2u * j * (t / j) + (t % j);
}

/** One compare-exchange of stage k, stride j, inside the workgroup tile (`base` = block start). */
fn tile_step(local: u32, base: u32, k: u32, j: u32) {
  let i = first_of_pair(local, j);
  let partner = i + j;
  let ascending = ((base + i) & k) == 0u;
  let ka = tile_keys[i];
  let va = tile_values[i];
  let kb = tile_keys[partner];
  let vb = tile_values[partner];
  if (pair_greater(ka, va, kb, vb) == ascending) {
    tile_keys[i] = kb;
    tile_values[i] = vb;
    tile_keys[partner] = ka;
    tile_values[partner] = va;
  }
}

fn load_tile(local: u32, base: u32) {
  tile_keys[local] = keys[base + local];
  tile_values[local] = values[base + local];
  tile_keys[local + WORKGROUP_SIZE] = keys[base + local + WORKGROUP_SIZE];
  tile_values[local + WORKGROUP_SIZE] = values[base + local + WORKGROUP_SIZE];
  workgroupBarrier();
}

fn store_tile(local: u32, base: u32) {
  workgroupBarrier();
  keys[base + local] = tile_keys[local];
  values[base + local] = tile_values[local];
  keys[base + local + WORKGROUP_SIZE] = tile_keys[local + WORKGROUP_SIZE];
  values[base + local + WORKGROUP_SIZE] = tile_values[local + WORKGROUP_SIZE];
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn local_sort(@builtin(workgroup_id) group_id: vec3<u32>, @builtin(local_invocation_index) local: u32) {
  let block = group_id.x + group_id.y * params.groups_per_row;
  let base = block * BLOCK;
  if (base >= params.n) {
    return; // a padding workgroup of the 2D grid: uniform for the whole workgroup
  }
  load_tile(local, base);
  for (var k = 2u; k <= BLOCK; k <<= 1u) {
    for (var j = k >> 1u; j > 0u; j >>= 1u) {
      tile_step(local, base, k, j);
      workgroupBarrier();
    }
  }
  store_tile(local, base);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn local_merge(@builtin(workgroup_id) group_id: vec3<u32>, @builtin(local_invocation_index) local: u32) {
  let block = group_id.x + group_id.y * params.groups_per_row;
  let base = block * BLOCK;
  if (base >= params.n) {
    return;
  }
  load_tile(local, base);
  for (var j = BLOCK >> 1u; j > 0u; j >>= 1u) {
    tile_step(local, base, params.k, j);
    workgroupBarrier();
  }
  store_tile(local, base);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn global_step(@builtin(workgroup_id) group_id: vec3<u32>, @builtin(local_invocation_index) local: u32) {
  let t = (group_id.x + group_id.y * params.groups_per_row) * WORKGROUP_SIZE + local;
  if (t >= params.n / 2u) {
    return;
  }
  let i = first_of_pair(t, params.j);
  let partner = i + params.j;
  let ascending = (i & params.k) == 0u;
  let ka = keys[i];
  let va = values[i];
  let kb = keys[partner];
  let vb = values[partner];
  if (pair_greater(ka, va, kb, vb) == ascending) {
    keys[i] = kb;
    values[i] = vb;
    keys[partner] = ka;
    values[partner] = va;
  }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn fill_padding(@builtin(workgroup_id) group_id: vec3<u32>, @builtin(local_invocation_index) local: u32) {
  let i = params.count + (group_id.x + group_id.y * params.groups_per_row) * WORKGROUP_SIZE + local;
  if (i < params.n) {
    keys[i] = 0xffffffffu;
    values[i] = 0xffffffffu;
  }
}
