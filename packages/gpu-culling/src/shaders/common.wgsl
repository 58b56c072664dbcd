// Shared by every culling pass. The host prepends the constants TILE_SIZE, BUCKETS (u32 words
// per tile of a flat bit array), COARSE_FACTOR and CULL_THREADS. Cull space is view space with
// +z pointing away from the camera (see camera.ts).

struct Frame {
  cull_from_world: mat4x4f,
  world_from_cull: mat4x4f,
  clip_from_cull: mat4x4f,
  // A depth value d lies at cull-space z = (x u + y) / (z u + w), u = |d - far_depth|.
  depth_coefficients: vec4f,
  viewport: vec2f,
  // The depth the buffer was cleared to: pixels there hold no surface.
  far_depth: f32,
  // 1: the 2.5D depth mask test is on.
  depth_mask: u32,
  tiles: vec2u,
  coarse: vec2u,
  // decals, probes, lights, all entities.
  counts: vec4u,
}

// One entity as uploaded (EntityList): four vec4, read by kind.
struct Entity {
  v0: vec4f,
  v1: vec4f,
  v2: vec4f,
  v3: vec4u,
}

// Spot lights: s0 = (apex, cos), s1 = (direction, sin), s2.x = range.
// Boxes: s0..s2 = rows of box-from-cull, s3..s5 = half-axes in cull space (s3.w: z reach).
struct Shape {
  s0: vec4f,
  s1: vec4f,
  s2: vec4f,
  s3: vec4f,
  s4: vec4f,
  s5: vec4f,
}

// What the depth pass learns about a tile: its AABB in cull space, its depth range, the 2.5D
// mask and how many surface pixels it holds (0: nothing to light, every entity is culled).
struct TileInfo {
  center: vec3f,
  min_depth: f32,
  extent: vec3f,
  max_depth: f32,
  mask: u32,
  pixels: u32,
  pad0: u32,
  pad1: u32,
}

const KIND_DECAL: u32 = 0u;
const KIND_PROBE: u32 = 1u;
const KIND_POINT: u32 = 2u;
const KIND_SPOT: u32 = 3u;
const MASK_CELLS: f32 = 32.0;

// Distance of `center` to the box (center, extent), squared, against radius squared.
fn sphere_touches_aabb(center: vec3f, radius: f32, box_center: vec3f, box_extent: vec3f) -> bool {
  let delta = max(vec3f(0.0), abs(center - box_center) - box_extent);
  return dot(delta, delta) <= radius * radius;
}

// 32 / (max - min): depth to 2.5D slice; 0 for a flat tile (everything in slice 0).
fn mask_scale(min_depth: f32, max_depth: f32) -> f32 {
  return select(0.0, MASK_CELLS / (max_depth - min_depth), max_depth > min_depth);
}

fn mask_cell(depth: f32, min_depth: f32, scale: f32) -> u32 {
  return u32(clamp(floor((depth - min_depth) * scale), 0.0, MASK_CELLS - 1.0));
}

// The post's shift trick: bits first..last set without a loop.
fn mask_range(first: u32, last: u32) -> u32 {
  return (0xffffffffu >> (31u - (last - first))) << first;
}

// The AABB of a tile's frustum between two depths, from the corner lines of its corners
// (x0, y0) and (x1, y1) on the corner grid: every corner at both depths.
fn frustum_aabb(c00: vec4f, c10: vec4f, c01: vec4f, c11: vec4f, lo: f32, hi: f32, info: ptr<function, TileInfo>) {
  var low = vec2f(3.4e38);
  var high = vec2f(-3.4e38);
  for (var k = 0u; k < 2u; k++) {
    let z = select(lo, hi, k == 1u);
    let p0 = c00.xy + c00.zw * z;
    let p1 = c10.xy + c10.zw * z;
    let p2 = c01.xy + c01.zw * z;
    let p3 = c11.xy + c11.zw * z;
    low = min(low, min(min(p0, p1), min(p2, p3)));
    high = max(high, max(max(p0, p1), max(p2, p3)));
  }
  (*info).center = vec3f((low + high) * 0.5, (lo + hi) * 0.5);
  (*info).extent = vec3f((high - low) * 0.5, (hi - lo) * 0.5);
  (*info).min_depth = lo;
  (*info).max_depth = hi;
}
