// Mode 'counting-sort', building the grid: an atomic count per cell (each particle keeps its
// rank inside its cell), then, after GpuScan turned counts into cell starts, a scatter that
// moves the particle data itself into cell order for coherent neighbour reads.

@group(0) @binding(1) var<storage, read> positions: array<vec4f>;
@group(0) @binding(2) var<storage, read> velocities: array<vec4f>;
@group(0) @binding(3) var<storage, read> ids: array<u32>;
@group(0) @binding(4) var<storage, read_write> work_positions: array<vec4f>;
@group(0) @binding(5) var<storage, read_write> work_velocities: array<vec4f>;
@group(0) @binding(6) var<storage, read_write> work_ids: array<u32>;
// (cell, rank inside the cell) per particle, one binding so the scatter stays within the
// default limit of 8 storage buffers per stage.
@group(0) @binding(9) var<storage, read_write> cell_slots: array<vec2u>;
@group(0) @binding(11) var<storage, read_write> cell_counts: array<atomic<u32>>;
@group(0) @binding(12) var<storage, read> cell_starts: array<u32>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn count_cells(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (i >= params.count) { return; }
  let cell = cell_flat(cell_coord(positions[i].xyz));
  cell_slots[i] = vec2u(cell, atomicAdd(&cell_counts[cell], 1u));
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn scatter(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (i >= params.count) { return; }
  let cell_slot = cell_slots[i];
  let slot = cell_starts[cell_slot.x] + cell_slot.y;
  work_positions[slot] = positions[i];
  work_velocities[slot] = velocities[i];
  work_ids[slot] = ids[i];
}
