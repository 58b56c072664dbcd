// Mode 'counting-sort', evaluating SPH: particle A (in cell order) visits the 27 cells around
// its own; each cell's particles sit contiguously at [start, start + count).

@group(0) @binding(4) var<storage, read> work_positions: array<vec4f>;
@group(0) @binding(5) var<storage, read> work_velocities: array<vec4f>;
@group(0) @binding(7) var<storage, read_write> densities: array<f32>;
@group(0) @binding(8) var<storage, read_write> accelerations: array<vec4f>;
@group(0) @binding(11) var<storage, read> cell_counts: array<u32>;
@group(0) @binding(12) var<storage, read> cell_starts: array<u32>;

// The neighbour cell at offset (dx, dy, dz) from `home`, or -1 past the grid's edge.
fn neighbour_cell(home: vec3i, offset: u32) -> i32 {
  let c = home + neighbour_step(offset);
  if (any(c < vec3i(0)) || any(c >= vec3i(params.grid_dims))) { return -1; }
  return i32(cell_flat(c));
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn density_grid(@builtin(global_invocation_id) gid: vec3u) {
  let a = gid.x;
  if (a >= params.count) { return; }
  let pa = work_positions[a].xyz;
  let home = cell_coord(pa);
  var sum = 0.0;
  // One loop over the 27 offsets rather than three nested ones (the post: a table, not unrolled).
  for (var offset = 0u; offset < 27u; offset++) {
    let cell = neighbour_cell(home, offset);
    if (cell < 0) { continue; }
    let start = cell_starts[cell];
    let end = start + cell_counts[cell];
    for (var b = start; b < end; b++) {
      sum += poly6_term(pa - work_positions[b].xyz);
    }
  }
  densities[a] = max(params.rho0, params.mass * params.poly6 * sum);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn forces_grid(@builtin(global_invocation_id) gid: vec3u) {
  let a = gid.x;
  if (a >= params.count) { return; }
  let pa = work_positions[a].xyz;
  let va = work_velocities[a].xyz;
  let rho_a = densities[a];
  let pressure_a = pressure_of(rho_a);
  let home = cell_coord(pa);
  var force = vec3f(0.0);
  for (var offset = 0u; offset < 27u; offset++) {
    let cell = neighbour_cell(home, offset);
    if (cell < 0) { continue; }
    let start = cell_starts[cell];
    let end = start + cell_counts[cell];
    for (var b = start; b < end; b++) {
      let rho_b = densities[b];
      force += pair_force(pa - work_positions[b].xyz, pressure_a, rho_a, pressure_of(rho_b), rho_b, work_velocities[b].xyz - va);
    }
  }
  accelerations[a] = vec4f(force / rho_a + params.gravity, 0.0);
}
