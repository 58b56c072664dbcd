// Mode 'nbody': every particle against every particle, 256 at a time through workgroup memory
// (the post's tiled N-body). Reads the work copies, which equal the particle data in this mode.

@group(0) @binding(4) var<storage, read> work_positions: array<vec4f>;
@group(0) @binding(5) var<storage, read> work_velocities: array<vec4f>;
@group(0) @binding(7) var<storage, read_write> densities: array<f32>;
@group(0) @binding(8) var<storage, read_write> accelerations: array<vec4f>;

var<workgroup> tile_positions: array<vec4f, WORKGROUP_SIZE>;
var<workgroup> tile_velocities: array<vec4f, WORKGROUP_SIZE>;
var<workgroup> tile_densities: array<f32, WORKGROUP_SIZE>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn density_nbody(@builtin(global_invocation_id) gid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let count = params.count;
  let a = gid.x;
  let pa = work_positions[min(a, count - 1u)].xyz;
  var sum = 0.0;
  // The loop bound comes from the uniform block, so every invocation takes the same trips and
  // the barriers are uniform, as the post warns they must be.
  for (var base = 0u; base < count; base += WORKGROUP_SIZE) {
    let load = base + lid;
    tile_positions[lid] = work_positions[min(load, count - 1u)];
    workgroupBarrier();
    let inTile = min(WORKGROUP_SIZE, count - base);
    for (var j = 0u; j < inTile; j++) {
      sum += poly6_term(pa - tile_positions[j].xyz);
    }
    workgroupBarrier();
  }
  if (a < count) {
    densities[a] = max(params.rho0, params.mass * params.poly6 * sum);
  }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn forces_nbody(@builtin(global_invocation_id) gid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let count = params.count;
  let a = min(gid.x, count - 1u);
  let pa = work_positions[a].xyz;
  let va = work_velocities[a].xyz;
  let rho_a = densities[a];
  let pressure_a = pressure_of(rho_a);
  var force = vec3f(0.0);
  for (var base = 0u; base < count; base += WORKGROUP_SIZE) {
    let load = min(base + lid, count - 1u);
    tile_positions[lid] = work_positions[load];
    tile_velocities[lid] = work_velocities[load];
    tile_densities[lid] = densities[load];
    workgroupBarrier();
    let inTile = min(WORKGROUP_SIZE, count - base);
    for (var j = 0u; j < inTile; j++) {
      let rho_b = tile_densities[j];
      force += pair_force(pa - tile_positions[j].xyz, pressure_a, rho_a, pressure_of(rho_b), rho_b, tile_velocities[j].xyz - va);
    }
    workgroupBarrier();
  }
  if (gid.x < count) {
    accelerations[gid.x] = vec4f(force / rho_a + params.gravity, 0.0);
  }
}
