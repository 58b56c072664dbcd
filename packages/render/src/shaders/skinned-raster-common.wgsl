// Skinned meshes rasterized in compute (skinned-raster.wgsl) and drawn from what that left
// (skinned-resolve.wgsl): the view of one dispatch, and reading @cuttle/gpu-skinning's output.
// The includer declares raster_view, raster_vertices, raster_indices and raster_instance_ranges
// (per instance: first output vertex, first index and triangles of the level of detail it draws).

struct RasterView {
  clip_from_world: mat4x4f,
  // The target's pixels, and the words a row of its per-pixel buffers takes.
  size: vec2u,
  row_words: u32,
  // This draw's box among the view's (skinned-raster.wgsl's raster_boxes).
  box_offset: u32,
  // This draw's ids are id_base + 1 + instance * triangles + triangle (0: no surface); triangles
  // is the full mesh's, and an instance's level of detail draws as many or fewer.
  id_base: u32,
  triangles: u32,
  instances: u32,
  // RASTER_* bits below.
  flags: u32,
  // Workgroups a row of the dispatch holds (instances past 65,535 wrap to the next row).
  groups_x: u32,
  // The slope-scaled depth bias of shadow views (0 for the camera), in the hardware's terms.
  bias_constant: f32,
  bias_slope: f32,
}

// The nearer surface has the greater depth (reversed Z).
const RASTER_GREATER: u32 = 1u;
// Triangles wound clockwise on screen are dropped.
const RASTER_CULL_BACK: u32 = 2u;
// The index buffer holds 16-bit indices, two to a word.
const RASTER_INDEX_16: u32 = 4u;

// Words a skinned vertex takes: 4 in the packed format (position, normal as snorm8x4), 12 in f32.
override RASTER_VERTEX_WORDS: u32 = 4u;

fn raster_index(i: u32) -> u32 {
  if ((raster_view.flags & RASTER_INDEX_16) != 0u) {
    return (raster_indices[i >> 1u] >> ((i & 1u) * 16u)) & 0xffffu;
  }
  return raster_indices[i];
}

fn raster_position(v: u32) -> vec3f {
  let at = v * RASTER_VERTEX_WORDS;
  return bitcast<vec3f>(vec3u(raster_vertices[at], raster_vertices[at + 1u], raster_vertices[at + 2u]));
}

fn raster_normal(v: u32) -> vec3f {
  let at = v * RASTER_VERTEX_WORDS;
  if (RASTER_VERTEX_WORDS == 4u) {
    return unpack4x8snorm(raster_vertices[at + 3u]).xyz;
  }
  return bitcast<vec3f>(vec3u(raster_vertices[at + 4u], raster_vertices[at + 5u], raster_vertices[at + 6u]));
}

// The output vertices of triangle `triangle` of the level instance `instance` draws.
fn raster_triangle_vertices(instance: u32, triangle: u32) -> vec3u {
  let range = raster_instance_ranges[instance];
  let at = range.y + triangle * 3u;
  return vec3u(raster_index(at), raster_index(at + 1u), raster_index(at + 2u)) + range.x;
}

// Depths as keys that grow toward the viewer, so one atomicMax keeps the nearest (0: nothing).
// Depths are in [0, 1], whose f32 bits order like the values.
fn raster_key(depth: f32) -> u32 {
  let bits = bitcast<u32>(depth);
  return select(~bits, bits, (raster_view.flags & RASTER_GREATER) != 0u);
}

fn raster_depth(key: u32) -> f32 {
  return bitcast<f32>(select(~key, key, (raster_view.flags & RASTER_GREATER) != 0u));
}

// A clip-space point in the target's pixels (x right, y down) with its NDC depth.
fn raster_screen(clip: vec4f) -> vec3f {
  let ndc = clip.xyz / clip.w;
  return vec3f((ndc.x * 0.5 + 0.5) * f32(raster_view.size.x), (0.5 - ndc.y * 0.5) * f32(raster_view.size.y), ndc.z);
}

// Twice the signed area of the screen triangle abc, positive when it winds counter-clockwise
// seen in NDC (y up): glTF's front faces.
fn raster_area(a: vec2f, b: vec2f, c: vec2f) -> f32 {
  let ab = b - a;
  let ac = c - a;
  return ac.x * ab.y - ab.x * ac.y;
}
