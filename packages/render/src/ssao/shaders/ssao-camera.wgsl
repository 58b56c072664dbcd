// The camera as the SSAO passes see it (packed by camera-uniform.ts).
struct SsaoCamera {
  // h = unproject * (ndc.x, ndc.y, u, 1), u = |depth - far_depth|: written around the far value
  // so that f32 keeps its precision there (1 - d is exact for d >= 0.5).
  unproject: mat4x4f,
  projection: mat4x4f,
  // Normals from view space to the output space (identity, or to world space).
  output_from_view: mat4x4f,
  size: vec2u,
  far_depth: f32,
  // +-1: turns cross(right - centre, up - centre) into a normal that faces the camera.
  winding: f32,
  // Sign of view-space z in front of the camera (-1 for right-handed views).
  forward: f32,
}

fn pixel_ndc(pixel: vec2i) -> vec2f {
  let uv = (vec2f(pixel) + 0.5) / vec2f(camera.size);
  return vec2f(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0);
}

fn view_position(pixel: vec2i, depth: f32) -> vec3f {
  let h = camera.unproject * vec4f(pixel_ndc(pixel), abs(depth - camera.far_depth), 1.0);
  return h.xyz / h.w;
}

fn in_image(pixel: vec2i) -> bool {
  return all(pixel >= vec2i(0)) && all(pixel < vec2i(camera.size));
}
