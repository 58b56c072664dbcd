// Mode 'hashed-grid', evaluating SPH: for each of the 27 cells around particle A, look its hash
// up in the table and walk the sorted keys while they still equal that hash. Two of the 27
// cells may hash to one entry; that entry is walked once, or its particles would count twice.
// Far cells sharing an entry add candidates that the r < h test then rejects.

@group(0) @binding(4) var<storage, read> work_positions: array<vec4f>;
@group(0) @binding(5) var<storage, read> work_velocities: array<vec4f>;
@group(0) @binding(7) var<storage, read_write> densities: array<f32>;
@group(0) @binding(8) var<storage, read_write> accelerations: array<vec4f>;
@group(0) @binding(13) var<storage, read> sort_keys: array<u32>;
@group(0) @binding(15) var<storage, read> table: array<u32>;

const EMPTY = 0xffffffffu;

// The table entry of the cell at `offset` (0..26) around `home`, or EMPTY when it holds no
// particle or an earlier offset already had the same entry. `seen` records the entries so far.
fn neighbour_entry(home: vec3i, offset: u32, seen: ptr<function, array<u32, 27>>) -> u32 {
  let c = home + neighbour_step(offset);
  let entry = cell_hash(c);
  (*seen)[offset] = entry;
  for (var q = 0u; q < offset; q++) {
    if ((*seen)[q] == entry) { return EMPTY; }
  }
  if (table[entry] == EMPTY) { return EMPTY; }
  return entry;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn density_hashed(@builtin(global_invocation_id) gid: vec3u) {
  let a = gid.x;
  if (a >= params.count) { return; }
  let pa = work_positions[a].xyz;
  let home = hashed_cell(pa);
  // Initialised explicitly: see @cuttle/gpu-primitives on Dawn/lavapipe and local arrays.
  var seen = array<u32, 27>();
  var sum = 0.0;
  for (var offset = 0u; offset < 27u; offset++) {
    let entry = neighbour_entry(home, offset, &seen);
    if (entry == EMPTY) { continue; }
    for (var b = table[entry]; b < params.count && sort_keys[b] == entry; b++) {
      sum += poly6_term(pa - work_positions[b].xyz);
    }
  }
  densities[a] = max(params.rho0, params.mass * params.poly6 * sum);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn forces_hashed(@builtin(global_invocation_id) gid: vec3u) {
  let a = gid.x;
  if (a >= params.count) { return; }
  let pa = work_positions[a].xyz;
  let va = work_velocities[a].xyz;
  let rho_a = densities[a];
  let pressure_a = pressure_of(rho_a);
  let home = hashed_cell(pa);
  var seen = array<u32, 27>();
  var force = vec3f(0.0);
  for (var offset = 0u; offset < 27u; offset++) {
    let entry = neighbour_entry(home, offset, &seen);
    if (entry == EMPTY) { continue; }
    for (var b = table[entry]; b < params.count && sort_keys[b] == entry; b++) {
      let rho_b = densities[b];
      force += pair_force(pa - work_positions[b].xyz, pressure_a, rho_a, pressure_of(rho_b), rho_b, work_velocities[b].xyz - va);
    }
  }
  accelerations[a] = vec4f(force / rho_a + params.gravity, 0.0);
}
