// Draws the skinned crowd from the compute pass's output with a plain vertex shader: position +
// normal (snorm8x4) and the previous position the same pass wrote. view 0 shades, view 1 shows
// motion vectors (frame.wgsl, prepended, says how).
struct Out {
  @builtin(position) clip: vec4<f32>,
  @location(0) normal: vec3<f32>,
  @location(1) current: vec4<f32>,
  @location(2) previous: vec4<f32>,
  @location(3) tint: f32,
}

@vertex
fn vs(@location(0) position: vec3<f32>, @location(1) normal: vec4<f32>, @location(3) previous: vec3<f32>, @builtin(instance_index) character: u32) -> Out {
  var out: Out;
  out.clip = frame.view_proj * vec4<f32>(position, 1.0);
  out.normal = normal.xyz;
  out.current = out.clip;
  out.previous = frame.previous_view_proj * vec4<f32>(previous, 1.0);
  out.tint = f32(character % 7u) / 6.0;
  return out;
}

@fragment
fn fs(in: Out) -> @location(0) vec4<f32> {
  if (frame.view == 1u) {
    return motion_colour(in.current, in.previous, 1.0);
  }
  let light = max(dot(normalize(in.normal), normalize(vec3<f32>(0.4, 1.0, 0.3))), 0.0);
  let base = mix(vec3<f32>(0.85, 0.55, 0.3), vec3<f32>(0.35, 0.6, 0.9), in.tint);
  return vec4<f32>(base * (0.25 + 0.75 * light), 1.0);
}
