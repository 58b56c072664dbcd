// One mip level drawn from the level above: a fullscreen triangle whose every pixel takes one
// linear sample at its own centre, which lands between four source texels (a 2x2 box for even
// sizes). Colour views in an -srgb format decode on sampling and encode on writing, so colour is
// averaged in linear light; normal maps are renormalized after averaging.

@group(0) @binding(0) var source: texture_2d<f32>;
@group(0) @binding(1) var bilinear: sampler;

struct Varyings {
  @builtin(position) position: vec4f,
  @location(0) uv: vec2f,
}

@vertex
fn vs_fullscreen(@builtin(vertex_index) index: u32) -> Varyings {
  let corner = vec2f(f32((index << 1u) & 2u), f32(index & 2u));
  var out: Varyings;
  out.position = vec4f(corner * 2.0 - 1.0, 0.0, 1.0);
  out.uv = vec2f(corner.x, 1.0 - corner.y);
  return out;
}

@fragment
fn fs_average(in: Varyings) -> @location(0) vec4f {
  return textureSampleLevel(source, bilinear, in.uv, 0.0);
}

@fragment
fn fs_average_normal(in: Varyings) -> @location(0) vec4f {
  let texel = textureSampleLevel(source, bilinear, in.uv, 0.0);
  let n = texel.xyz * 2.0 - 1.0;
  let length2 = dot(n, n);
  // A flat average of opposite normals has no direction: keep it pointing out of the surface.
  let unit = select(vec3f(0.0, 0.0, 1.0), n * inverseSqrt(length2), length2 > 1e-8);
  return vec4f(unit * 0.5 + 0.5, texel.w);
}
