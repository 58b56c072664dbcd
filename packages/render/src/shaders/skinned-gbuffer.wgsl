// The camera's G-buffer where skinned-raster.wgsl put a skinned instance (appended to the
// forward module with skinned-resolve.wgsl): each fragment of a draw's rectangle finds the
// triangle that won its pixel, and writes what gbuffer_plain_fragment would have for it.

// Perspective-correct barycentric weights of the pixel at `ndc` in the triangle with clip-space
// corners a, b, c (homogeneous: right for corners behind the eye too), and whether it faces the
// viewer (counter-clockwise in NDC).
struct Barycentric {
  weights: vec3f,
  front: bool,
}

fn clip_barycentric(a: vec4f, b: vec4f, c: vec4f, ndc: vec2f) -> Barycentric {
  let ha = a.xyw;
  let hb = b.xyw;
  let hc = c.xyw;
  let p = vec3f(ndc, 1.0);
  let w = vec3f(dot(cross(hb, hc), p), dot(cross(hc, ha), p), dot(cross(ha, hb), p));
  return Barycentric(w / (w.x + w.y + w.z), dot(ha, cross(hb, hc)) > 0.0);
}

struct ResolvedSkin {
  surface: SurfaceMaterial,
  motion: vec4f,
  depth: f32,
}

fn resolve_skin(position: vec4f) -> ResolvedSkin {
  let at = resolve_pixel(position);
  let key = raster_depths[at];
  // This draw's triangle: 1 + instance * triangles + triangle past the draw's id_base.
  let local = raster_ids[at] - raster_view.id_base - 1u;
  let instance = local / raster_view.triangles;
  // No surface, or another draw's (their rectangles may overlap).
  if (key == 0u || instance >= raster_view.instances) {
    discard;
  }
  let v = raster_triangle_vertices(instance, local % raster_view.triangles);
  let ndc = pixel_ndc(position.xy, frame.viewport);
  let b = clip_barycentric(
    frame.clip_from_world * vec4f(raster_position(v.x), 1.0),
    frame.clip_from_world * vec4f(raster_position(v.y), 1.0),
    frame.clip_from_world * vec4f(raster_position(v.z), 1.0),
    ndc,
  );
  let normal = mat3x3f(raster_normal(v.x), raster_normal(v.y), raster_normal(v.z)) * b.weights;
  let before = mat3x3f(previous_position(v.x), previous_position(v.y), previous_position(v.z)) * b.weights;
  let surface = gbuffer_surface(vec2f(0.0), normal, vec4f(0.0), b.front, false);
  return ResolvedSkin(surface, screen_motion(position, frame.previous_clip_from_world * vec4f(before, 1.0)), raster_depth(key));
}

fn previous_position(v: u32) -> vec3f {
  return vec3f(raster_previous[v * 3u], raster_previous[v * 3u + 1u], raster_previous[v * 3u + 2u]);
}

struct ResolveOut {
  @location(0) surface: vec2u,
  @location(1) motion: vec4f,
  @builtin(frag_depth) depth: f32,
}

struct ResolveGlowOut {
  @location(0) surface: vec2u,
  @location(1) motion: vec4f,
  @location(2) emissive: vec4f,
  @builtin(frag_depth) depth: f32,
}

@fragment
fn skinned_gbuffer_resolve(@builtin(position) position: vec4f) -> ResolveOut {
  let s = resolve_skin(position);
  return ResolveOut(pack_surface(s.surface, true), s.motion, s.depth);
}

@fragment
fn skinned_gbuffer_glow_resolve(@builtin(position) position: vec4f) -> ResolveGlowOut {
  let s = resolve_skin(position);
  return ResolveGlowOut(pack_surface(s.surface, true), s.motion, glow_texel(s.surface), s.depth);
}

// opaqueShading 'forward': the character's pixels lit here, where the prepass kept them.
struct ResolveForwardOut {
  @location(0) color: vec4f,
  @location(1) motion: vec4f,
  @builtin(frag_depth) depth: f32,
}

@fragment
fn skinned_forward_resolve(@builtin(position) position: vec4f) -> ResolveForwardOut {
  let s = resolve_skin(position);
  return ResolveForwardOut(forward_lit(vec4f(position.xy, s.depth, 1.0), s.surface), s.motion, s.depth);
}
