// Tone mapping: the HDR frame through an ACES filmic curve (Narkowicz's fit), then to the
// output's encoding (gamma 2.2 unless the target is an sRGB format, which encodes itself).
// A full-screen draw, or a compute pass where the target can be a storage texture (the host
// appends tonemap_compute with the target's format): on a GPU with little raster hardware for
// its size (an H100) the draw took 1.4 ms of a 4K frame.

struct Tonemap {
  encode_gamma: u32,
  pad0: u32,
  pad1: u32,
  pad2: u32,
}

@group(0) @binding(0) var hdr: texture_2d<f32>;
@group(0) @binding(1) var<uniform> tonemap: Tonemap;

@vertex
fn tonemap_vertex(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
  return vec4f(p * 2.0 - 1.0, 0.0, 1.0);
}

fn tonemapped(pixel: vec2u) -> vec4f {
  let x = max(textureLoad(hdr, pixel, 0).rgb, vec3f(0.0));
  let mapped = clamp((x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14), vec3f(0.0), vec3f(1.0));
  return vec4f(select(mapped, pow(mapped, vec3f(1.0 / 2.2)), tonemap.encode_gamma != 0u), 1.0);
}

@fragment
fn tonemap_fragment(@builtin(position) position: vec4f) -> @location(0) vec4f {
  return tonemapped(vec2u(position.xy));
}
