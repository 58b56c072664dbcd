// Shared by every kernel of @cuttle/gpu-fluid: the parameter block, the SPH pair terms and the
// grid's cell lookup. The host prepends this file to each kernel file.

struct Params {
  bounds_min: vec3f,
  h: f32,
  bounds_max: vec3f,
  h2: f32,
  gravity: vec3f,
  dt: f32,
  grid_dims: vec3u,
  count: u32,
  poly6: f32,        // 315 / (64 pi h^9)
  spiky: f32,        // -45 / (pi h^6)
  k: f32,
  rho0: f32,
  mass: f32,
  viscosity: f32,
  restitution: f32,
  inv_h: f32,
  visc_laplacian: f32, // 45 / (pi h^6)
  table_size: u32,     // entries of the hashed grid's table
}

@group(0) @binding(0) var<uniform> params: Params;

const WORKGROUP_SIZE = 256u;

// Poly6 without its constant: (h^2 - r^2)^3 inside the support, else 0. The particle itself counts.
fn poly6_term(diff: vec3f) -> f32 {
  let r2 = dot(diff, diff);
  if (r2 < params.h2) {
    let w = params.h2 - r2;
    return w * w * w;
  }
  return 0.0;
}

fn pressure_of(density: f32) -> f32 {
  return params.k * (density - params.rho0);
}

// Pressure (Spiky gradient) plus viscosity (Laplacian) contribution of B on A, before A's
// density divides it. r > 0 skips the particle itself and exact duplicates: the post's
// divide-by-zero guard.
fn pair_force(diff: vec3f, pressure_a: f32, rho_a: f32, pressure_b: f32, rho_b: f32, dv: vec3f) -> vec3f {
  let r = sqrt(dot(diff, diff));
  if (r > 0.0 && r < params.h) {
    let s = params.h - r;
    let gradient = ((pressure_a + pressure_b) / (2.0 * rho_a * rho_b)) * params.spiky * s * s / r;
    let laplacian = params.visc_laplacian * s / rho_b;
    return -gradient * diff + params.viscosity * laplacian * dv;
  }
  return vec3f(0.0);
}

// The grid cell holding p; positions outside the bounds clamp to the border cells, which keeps
// every pair closer than h in the same or adjacent cells.
fn cell_coord(p: vec3f) -> vec3i {
  let c = vec3i(floor((p - params.bounds_min) * params.inv_h));
  return clamp(c, vec3i(0), vec3i(params.grid_dims) - vec3i(1));
}

fn cell_flat(c: vec3i) -> u32 {
  let u = vec3u(c);
  return u.x + params.grid_dims.x * (u.y + params.grid_dims.y * u.z);
}

// Offset 0..26 of the 3x3x3 block of cells around a home cell, as a step of -1, 0 or 1 per axis
// (the post walks a table of offsets, not three nested loops).
fn neighbour_step(offset: u32) -> vec3i {
  return vec3i(i32(offset % 3u) - 1, i32((offset / 3u) % 3u) - 1, i32(offset / 9u) - 1);
}

// The hashed grid's cell of p: unbounded, unlike cell_coord.
fn hashed_cell(p: vec3f) -> vec3i {
  return vec3i(floor(p * params.inv_h));
}

// The post's spatial hash: the cell's coordinates times three large primes, xor-ed, modulo the
// table size (in u32 arithmetic, so negative coordinates wrap instead of going negative).
fn cell_hash(c: vec3i) -> u32 {
  let u = bitcast<vec3u>(c);
  return ((u.x * 73856093u) ^ (u.y * 19349663u) ^ (u.z * 83492791u)) % params.table_size;
}
