// The culling pass: one workgroup of CULL_THREADS invocations per tile, each invocation testing
// one entity at a time. `cull_gather` walks every entity; `cull_coarse` (scatter) walks only the
// entities its coarse tile's flat bit array holds. Both call the technique's tile_begin /
// tile_emit / tile_end (cull-flat.wgsl or cull-compaction*.wgsl, appended by the host).

@group(0) @binding(0) var<uniform> frame: Frame;
@group(0) @binding(2) var<storage, read> rects: array<vec2u>;
@group(0) @binding(3) var<storage, read> spheres: array<vec4f>;
@group(0) @binding(4) var<storage, read> shapes: array<Shape>;
@group(0) @binding(5) var<storage, read> planes: array<vec4f>;
@group(0) @binding(7) var<storage, read> tile_info: array<TileInfo>;
@group(0) @binding(11) var<storage, read> coarse_bits: array<u32>;

var<workgroup> candidate_rounds_atomic: atomic<u32>;
var<workgroup> candidate_rounds: u32;

// Sphere against the four side planes of the tile (inside where n.p + d >= 0).
fn sphere_in_planes(center: vec3f, radius: f32, plane: u32) -> bool {
  var inside = true;
  for (var p = 0u; p < 4u; p++) {
    let n = planes[plane + p];
    inside = inside && dot(n.xyz, center) + n.w + radius >= 0.0;
  }
  return inside;
}

// A box's extent along each side plane's normal, against the plane.
fn box_in_planes(center: vec3f, ax: vec3f, ay: vec3f, az: vec3f, plane: u32) -> bool {
  var inside = true;
  for (var p = 0u; p < 4u; p++) {
    let n = planes[plane + p];
    let reach = abs(dot(ax, n.xyz)) + abs(dot(ay, n.xyz)) + abs(dot(az, n.xyz));
    inside = inside && dot(n.xyz, center) + n.w + reach >= 0.0;
  }
  return inside;
}

// Spot light: the cone against the sphere around the tile's AABB (distance to the cone's side).
fn cone_touches_tile(shape: Shape, info: TileInfo) -> bool {
  let tile_radius = length(info.extent);
  let v = info.center - shape.s0.xyz;
  let along = dot(v, shape.s1.xyz);
  let perpendicular = length(cross(v, shape.s1.xyz));
  return length(v) <= shape.s2.x + tile_radius
    && along >= -tile_radius
    && shape.s0.w * perpendicular - shape.s1.w * along <= tile_radius;
}

// Box: the tile's AABB taken into box space (its AABB there) against the cube [-1, 1]^3.
fn box_touches_tile(shape: Shape, info: TileInfo) -> bool {
  let rows = mat3x3f(shape.s0.xyz, shape.s1.xyz, shape.s2.xyz);
  let center = info.center * rows + vec3f(shape.s0.w, shape.s1.w, shape.s2.w);
  let extent = info.extent * mat3x3f(abs(shape.s0.xyz), abs(shape.s1.xyz), abs(shape.s2.xyz));
  return all(abs(center) <= vec3f(1.0) + extent);
}

// Every test of the post, cheapest first: screen rectangle, sphere against the tile's AABB and
// frustum planes (both: each catches what the other misses), the 2.5D mask, then the kind's
// own shape.
fn entity_in_tile(e: u32, tile: vec2u, info: TileInfo, plane: u32) -> bool {
  let rect = rects[e];
  let first = vec2u(rect.x & 0xffffu, rect.x >> 16u);
  let last = vec2u(rect.y & 0xffffu, rect.y >> 16u);
  if (any(tile < first) || any(tile > last)) {
    return false;
  }
  let sphere = spheres[e];
  if (!sphere_touches_aabb(sphere.xyz, sphere.w, info.center, info.extent)) {
    return false;
  }
  let is_box = e < frame.counts.x + frame.counts.y;
  var shape: Shape;
  var z_reach = sphere.w;
  if (is_box) {
    shape = shapes[e];
    z_reach = shape.s3.w;
    if (!box_in_planes(sphere.xyz, shape.s3.xyz, shape.s4.xyz, shape.s5.xyz, plane)) {
      return false;
    }
  } else if (!sphere_in_planes(sphere.xyz, sphere.w, plane)) {
    return false;
  }
  if (frame.depth_mask != 0u) {
    if (!is_box) {
      // The sphere's depth span inside the tile's column: a sphere grazing the tile from the side
      // reaches only sqrt(r^2 - d^2) in z there, d its sideways distance to the tile's AABB.
      let side = max(vec2f(0.0), abs(sphere.xy - info.center.xy) - info.extent.xy);
      z_reach = sqrt(max(sphere.w * sphere.w - dot(side, side), 0.0));
    }
    let scale = mask_scale(info.min_depth, info.max_depth);
    let first_cell = mask_cell(sphere.z - z_reach, info.min_depth, scale);
    let last_cell = mask_cell(sphere.z + z_reach, info.min_depth, scale);
    if ((mask_range(first_cell, last_cell) & info.mask) == 0u) {
      return false;
    }
  }
  if (is_box) {
    return box_touches_tile(shape, info);
  }
  // Lights: only spots (range in s2.x) have a shape beyond their sphere.
  if (shapes[e].s2.x > 0.0) {
    return cone_touches_tile(shapes[e], info);
  }
  return true;
}

@compute @workgroup_size(CULL_THREADS)
fn cull_gather(@builtin(workgroup_id) group: vec3u, @builtin(local_invocation_index) lid: u32) {
  let tile = group.y * frame.tiles.x + group.x;
  let info = tile_info[tile];
  tile_begin(lid);
  workgroupBarrier();
  if (info.pixels != 0u) {
    let count = frame.counts.w;
    for (var base = 0u; base < count; base += CULL_THREADS) {
      let e = base + lid;
      tile_emit(e, e < count && entity_in_tile(e, group.xy, info, tile * 4u));
    }
  }
  workgroupBarrier();
  tile_end(tile, lid);
}

@compute @workgroup_size(CULL_THREADS)
fn cull_coarse(@builtin(workgroup_id) group: vec3u, @builtin(local_invocation_index) lid: u32) {
  let tile = group.y * frame.tiles.x + group.x;
  let info = tile_info[tile];
  tile_begin(lid);
  if (lid == 0u) {
    atomicStore(&candidate_rounds_atomic, 0u);
  }
  workgroupBarrier();
  // Each invocation owns buckets lid, lid + CULL_THREADS, ...: its candidates are their set
  // bits (buckets whose mask bit is clear are empty and not read). The loop runs as many rounds
  // as the busiest invocation needs, so that subgroup and barrier operations inside stay in
  // uniform control flow.
  let coarse = (group.y / COARSE_FACTOR) * frame.coarse.x + group.x / COARSE_FACTOR;
  let base = coarse * (MASK_WORDS + BUCKETS);
  var mine = 0u;
  if (info.pixels != 0u) {
    for (var b = lid; b < BUCKETS; b += CULL_THREADS) {
      if ((coarse_bits[base + (b >> 5u)] & (1u << (b & 31u))) != 0u) {
        mine += countOneBits(coarse_bits[base + MASK_WORDS + b]);
      }
    }
  }
  atomicMax(&candidate_rounds_atomic, mine);
  workgroupBarrier();
  if (lid == 0u) {
    candidate_rounds = atomicLoad(&candidate_rounds_atomic);
  }
  let rounds = workgroupUniformLoad(&candidate_rounds);
  var bucket = lid;
  var bits = 0u;
  if (mine != 0u) {
    bits = coarse_bits[base + MASK_WORDS + bucket];
  }
  for (var round = 0u; round < rounds; round++) {
    var e = 0xffffffffu;
    if (round < mine) {
      while (bits == 0u) {
        bucket += CULL_THREADS;
        bits = coarse_bits[base + MASK_WORDS + bucket];
      }
      e = bucket * 32u + firstTrailingBit(bits);
      bits &= bits - 1u;
    }
    tile_emit(e, e != 0xffffffffu && entity_in_tile(e, group.xy, info, tile * 4u));
  }
  workgroupBarrier();
  tile_end(tile, lid);
}
