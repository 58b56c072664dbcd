// Integration, separate from the force pass because viscosity reads every neighbour's velocity:
// fixed step, velocity then position, then the six planes of the bounds. Writes the particle
// data back in work order, so in 'counting-sort' mode the data stays sorted by cell.

@group(0) @binding(1) var<storage, read_write> positions: array<vec4f>;
@group(0) @binding(2) var<storage, read_write> velocities: array<vec4f>;
@group(0) @binding(3) var<storage, read_write> ids: array<u32>;
@group(0) @binding(4) var<storage, read> work_positions: array<vec4f>;
@group(0) @binding(5) var<storage, read> work_velocities: array<vec4f>;
@group(0) @binding(6) var<storage, read> work_ids: array<u32>;
@group(0) @binding(8) var<storage, read> accelerations: array<vec4f>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn integrate(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (i >= params.count) { return; }
  var v = work_velocities[i].xyz + params.dt * accelerations[i].xyz;
  var p = work_positions[i].xyz + params.dt * v;
  // Planar collisions: clamp into the box and send the normal velocity back inwards, damped.
  let below = p < params.bounds_min;
  let above = p > params.bounds_max;
  v = select(v, abs(v) * params.restitution, below);
  v = select(v, -abs(v) * params.restitution, above);
  p = clamp(p, params.bounds_min, params.bounds_max);
  positions[i] = vec4f(p, 1.0);
  velocities[i] = vec4f(v, 0.0);
  ids[i] = work_ids[i];
}
