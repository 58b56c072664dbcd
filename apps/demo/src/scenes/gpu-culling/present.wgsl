// Tone-maps the tiled-deferred result (linear rgba16float) onto the canvas.
@group(0) @binding(0) var hdr: texture_2d<f32>;

@vertex
fn present_vertex(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
  return vec4f(p * 2.0 - 1.0, 0.0, 1.0);
}

@fragment
fn present_fragment(@builtin(position) position: vec4f) -> @location(0) vec4f {
  let color = textureLoad(hdr, vec2u(position.xy), 0).rgb;
  return vec4f(pow(color / (1.0 + color), vec3f(1.0 / 2.2)), 1.0);
}
