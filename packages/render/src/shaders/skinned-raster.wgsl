// Skinned meshes rasterized in compute (appended to skinned-raster-common.wgsl). On a GPU with
// little raster hardware for its size (an H100), a crowd of small triangles costs far more through
// the rasterizer than through its compute units, so a workgroup per instance walks its triangles
// (raster_instances), twice:
// - first each pixel keeps its nearest depth as an atomicMax key, and the draw's box grows over
//   the pixels its instances cover;
// - then (RASTER_IDS) each pixel takes the id of a triangle whose depth won it.
// skinned-resolve.wgsl then draws one rectangle over the box per draw, so the raster hardware
// only writes the pixels the instances cover.
// Coverage samples pixel centres and counts a centre on an edge as inside (two triangles that
// share an edge may both take it: the nearer, or either at equal depth, wins; none leaves a gap).
// Triangles are clipped at the eye plane; depths outside [0, 1] are dropped per pixel.

@group(0) @binding(0) var<uniform> raster_view: RasterView;
@group(0) @binding(1) var<storage, read> raster_vertices: array<u32>;
@group(0) @binding(2) var<storage, read> raster_indices: array<u32>;
@group(0) @binding(3) var<storage, read> raster_instance_ranges: array<vec4u>;
@group(0) @binding(4) var<storage, read_write> raster_depths: array<atomic<u32>>;
@group(0) @binding(5) var<storage, read_write> raster_ids: array<u32>;
// Per draw and view: (~x0, ~y0, x1 + 1, y1 + 1), all grown by atomicMax from 0 (0: no pixel).
@group(0) @binding(6) var<storage, read_write> raster_boxes: array<atomic<u32>>;

override RASTER_IDS: bool = false;

const RASTER_GROUP_SIZE = 256u;
// A triangle whose box holds more pixels than this is drawn by the whole workgroup afterwards
// (a character near the camera), so one invocation does not hold up its 255 neighbours.
const RASTER_BIG_PIXELS = 192u;
const RASTER_BIG_CAPACITY = 128u;
// Clip-space w below which a vertex counts as behind the eye.
const RASTER_EYE_W = 1e-6;

struct ScreenTriangle {
  // Pixels (x, y) and NDC depth, the depth's bias included.
  a: vec3f,
  b: vec3f,
  c: vec3f,
  id: u32,
}

var<workgroup> big_triangles: array<ScreenTriangle, RASTER_BIG_CAPACITY>;
var<workgroup> big_count: atomic<u32>;
var<workgroup> big_total: u32;
var<workgroup> box_low: array<atomic<u32>, 2>;
var<workgroup> box_high: array<atomic<u32>, 2>;

// The pixels whose centres the triangle's box holds, clamped to the target: (x0, y0, x1, y1),
// inclusive; empty when x1 < x0 or y1 < y0.
fn pixel_bounds(t: ScreenTriangle) -> vec4i {
  let limit = vec2f(raster_view.size) + 1.0;
  let low = clamp(min(min(t.a.xy, t.b.xy), t.c.xy), vec2f(-1.0), limit);
  let high = clamp(max(max(t.a.xy, t.b.xy), t.c.xy), vec2f(-1.0), limit);
  let first = max(vec2i(ceil(low - 0.5)), vec2i(0));
  let last = min(vec2i(floor(high - 0.5)), vec2i(raster_view.size) - 1);
  return vec4i(first, last);
}

// Pixels `start`, `start + stride`, ... of the triangle's box (row by row).
fn raster_pixels(t: ScreenTriangle, bounds: vec4i, start: u32, stride: u32) {
  let width = u32(bounds.z - bounds.x + 1);
  let count = width * u32(bounds.w - bounds.y + 1);
  let area = raster_area(t.a.xy, t.b.xy, t.c.xy);
  let inverse = 1.0 / area;
  for (var i = start; i < count; i += stride) {
    let x = bounds.x + i32(i % width);
    let y = bounds.y + i32(i / width);
    let s = vec2f(f32(x), f32(y)) + 0.5;
    // Barycentric weights (each sub-triangle shares abc's winding while s is inside).
    let la = raster_area(s, t.b.xy, t.c.xy) * inverse;
    let lb = raster_area(t.a.xy, s, t.c.xy) * inverse;
    let lc = 1.0 - la - lb;
    if (la < 0.0 || lb < 0.0 || lc < 0.0) {
      continue;
    }
    let depth = la * t.a.z + lb * t.b.z + lc * t.c.z;
    if (depth < 0.0 || depth > 1.0) {
      continue;
    }
    let key = raster_key(depth);
    let pixel = u32(y) * raster_view.row_words + u32(x);
    if (RASTER_IDS) {
      if (atomicLoad(&raster_depths[pixel]) == key) {
        raster_ids[pixel] = t.id;
      }
    } else {
      atomicMax(&raster_depths[pixel], key);
    }
  }
}

// The slope-scaled bias a depth32float shadow map would add (what the hardware pipeline's
// depthBias and depthBiasSlopeScale do), for a triangle in pixels.
fn depth_bias(a: vec3f, b: vec3f, c: vec3f) -> f32 {
  if (raster_view.bias_constant == 0.0 && raster_view.bias_slope == 0.0) {
    return 0.0;
  }
  let ab = b - a;
  let ac = c - a;
  let d = ab.x * ac.y - ac.x * ab.y;
  let slope = max(abs(ab.z * ac.y - ac.z * ab.y), abs(ac.z * ab.x - ab.z * ac.x)) / max(abs(d), 1e-12);
  // One unit of constant bias: 2^(e - 23) for the largest depth's exponent e.
  let largest = max(max(a.z, b.z), max(c.z, 1e-30));
  let unit = exp2(floor(log2(largest)) - 23.0);
  return raster_view.bias_constant * unit + raster_view.bias_slope * slope;
}

// One screen triangle: drawn at once when small, else queued for the workgroup (or drawn at
// once when the queue is full).
fn raster_screen_triangle(a: vec4f, b: vec4f, c: vec4f, id: u32) {
  var sa = raster_screen(a);
  var sb = raster_screen(b);
  var sc = raster_screen(c);
  let area = raster_area(sa.xy, sb.xy, sc.xy);
  if (area == 0.0 || ((raster_view.flags & RASTER_CULL_BACK) != 0u && area < 0.0)) {
    return;
  }
  let bias = depth_bias(sa, sb, sc);
  sa.z += bias;
  sb.z += bias;
  sc.z += bias;
  let t = ScreenTriangle(sa, sb, sc, id);
  let bounds = pixel_bounds(t);
  if (bounds.z < bounds.x || bounds.w < bounds.y) {
    return;
  }
  if (!RASTER_IDS) {
    atomicMin(&box_low[0], u32(bounds.x));
    atomicMin(&box_low[1], u32(bounds.y));
    atomicMax(&box_high[0], u32(bounds.z));
    atomicMax(&box_high[1], u32(bounds.w));
  }
  if (u32(bounds.z - bounds.x + 1) * u32(bounds.w - bounds.y + 1) > RASTER_BIG_PIXELS) {
    let slot = atomicAdd(&big_count, 1u);
    if (slot < RASTER_BIG_CAPACITY) {
      big_triangles[slot] = t;
      return;
    }
  }
  raster_pixels(t, bounds, 0u, 1u);
}

// Where the edge from p (w >= RASTER_EYE_W) to q (w below it) crosses w = RASTER_EYE_W.
fn eye_crossing(p: vec4f, q: vec4f) -> vec4f {
  return mix(p, q, (p.w - RASTER_EYE_W) / (p.w - q.w));
}

// Triangle abc (clip space) clipped at the eye plane: one or two screen triangles, same winding.
fn raster_clip_triangle(a: vec4f, b: vec4f, c: vec4f, id: u32) {
  let inside = vec3<bool>(a.w >= RASTER_EYE_W, b.w >= RASTER_EYE_W, c.w >= RASTER_EYE_W);
  if (all(inside)) {
    raster_screen_triangle(a, b, c, id);
    return;
  }
  if (!any(inside)) {
    return;
  }
  // Rotate so the lone vertex (the one inside, or the one outside) comes first.
  let lone_inside = u32(inside.x) + u32(inside.y) + u32(inside.z) == 1u;
  var p = a;
  var q = b;
  var r = c;
  if (inside.y == lone_inside) {
    p = b;
    q = c;
    r = a;
  } else if (inside.z == lone_inside) {
    p = c;
    q = a;
    r = b;
  }
  if (lone_inside) {
    raster_screen_triangle(p, eye_crossing(p, q), eye_crossing(p, r), id);
  } else {
    let pq = eye_crossing(q, p);
    let pr = eye_crossing(r, p);
    raster_screen_triangle(pq, q, r, id);
    raster_screen_triangle(pq, r, pr, id);
  }
}

@compute @workgroup_size(RASTER_GROUP_SIZE)
fn raster_instances(@builtin(workgroup_id) group: vec3u, @builtin(local_invocation_index) local: u32) {
  let instance = group.x + group.y * raster_view.groups_x;
  if (instance >= raster_view.instances) {
    return;
  }
  if (local == 0u) {
    atomicStore(&big_count, 0u);
    atomicStore(&box_low[0], 0xffffffffu);
    atomicStore(&box_low[1], 0xffffffffu);
    atomicStore(&box_high[0], 0u);
    atomicStore(&box_high[1], 0u);
  }
  workgroupBarrier();
  let clip_from_world = raster_view.clip_from_world;
  let first_id = raster_view.id_base + 1u + instance * raster_view.triangles;
  let triangles = raster_instance_ranges[instance].z;
  for (var triangle = local; triangle < triangles; triangle += RASTER_GROUP_SIZE) {
    let v = raster_triangle_vertices(instance, triangle);
    let a = clip_from_world * vec4f(raster_position(v.x), 1.0);
    let b = clip_from_world * vec4f(raster_position(v.y), 1.0);
    let c = clip_from_world * vec4f(raster_position(v.z), 1.0);
    raster_clip_triangle(a, b, c, first_id + triangle);
  }
  // The large triangles, every invocation taking a share of each one's pixels.
  workgroupBarrier();
  if (local == 0u) {
    big_total = min(atomicLoad(&big_count), RASTER_BIG_CAPACITY);
  }
  let total = workgroupUniformLoad(&big_total);
  for (var k = 0u; k < total; k++) {
    let t = big_triangles[k];
    raster_pixels(t, pixel_bounds(t), local, RASTER_GROUP_SIZE);
  }
  if (!RASTER_IDS && local == 0u && atomicLoad(&box_low[0]) != 0xffffffffu) {
    let at = raster_view.box_offset * 4u;
    atomicMax(&raster_boxes[at], ~atomicLoad(&box_low[0]));
    atomicMax(&raster_boxes[at + 1u], ~atomicLoad(&box_low[1]));
    atomicMax(&raster_boxes[at + 2u], atomicLoad(&box_high[0]) + 1u);
    atomicMax(&raster_boxes[at + 3u], atomicLoad(&box_high[1]) + 1u);
  }
}
