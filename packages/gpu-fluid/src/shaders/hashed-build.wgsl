// Mode 'hashed-grid', building the grid as in the post: a hashed cell index per particle, a
// key-value sort (GpuRadixSort runs between hash_particles and clear_table), each table entry's
// first sorted position by atomic min, then a gather into sorted order for coherent reads.

@group(0) @binding(1) var<storage, read> positions: array<vec4f>;
@group(0) @binding(2) var<storage, read> velocities: array<vec4f>;
@group(0) @binding(3) var<storage, read> ids: array<u32>;
@group(0) @binding(4) var<storage, read_write> work_positions: array<vec4f>;
@group(0) @binding(5) var<storage, read_write> work_velocities: array<vec4f>;
@group(0) @binding(6) var<storage, read_write> work_ids: array<u32>;
@group(0) @binding(13) var<storage, read_write> sort_keys: array<u32>;
@group(0) @binding(14) var<storage, read_write> sort_values: array<u32>;
@group(0) @binding(15) var<storage, read_write> table: array<atomic<u32>>;

const EMPTY = 0xffffffffu;

@compute @workgroup_size(WORKGROUP_SIZE)
fn hash_particles(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (i >= params.count) { return; }
  sort_keys[i] = cell_hash(hashed_cell(positions[i].xyz));
  sort_values[i] = i;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn clear_table(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  // Grid-stride: one dispatch of at most CLEAR_GROUPS workgroups clears a table of any size.
  let stride = groups.x * WORKGROUP_SIZE;
  for (var i = gid.x; i < params.table_size; i += stride) {
    atomicStore(&table[i], EMPTY);
  }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn cell_offsets(@builtin(global_invocation_id) gid: vec3u) {
  let s = gid.x;
  if (s >= params.count) { return; }
  atomicMin(&table[sort_keys[s]], s);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn gather(@builtin(global_invocation_id) gid: vec3u) {
  let s = gid.x;
  if (s >= params.count) { return; }
  let i = sort_values[s];
  work_positions[s] = positions[i];
  work_velocities[s] = velocities[i];
  work_ids[s] = ids[i];
}
