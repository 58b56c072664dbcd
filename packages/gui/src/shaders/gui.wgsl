// BitSquid-style GUI batches: one vertex stage for every material, and two fragment stages,
// textured (solid colour is a 1x1 white page) and distance-field text. Output is
// premultiplied alpha (blend: one, one-minus-src-alpha).

struct View {
  size: vec2f,
  pad: vec2f,
};

struct TextStyle {
  outline_color: vec4f,
  glow_color: vec4f,
  shadow_color: vec4f,
  // Distance-field reach on each side of the edge, in texels of the page.
  spread: f32,
  // Outline and glow widths, shadow softness: texels of the page.
  outline_width: f32,
  glow_width: f32,
  shadow_softness: f32,
  // Shadow offset in texels, page size in texels.
  shadow_offset: vec2f,
  page_size: vec2f,
};

@group(0) @binding(0) var<uniform> view: View;
@group(0) @binding(1) var<storage, read> clips: array<vec4f>;
@group(1) @binding(0) var pages: texture_2d_array<f32>;
@group(1) @binding(1) var page_sampler: sampler;
@group(1) @binding(2) var<uniform> style: TextStyle;

struct VertexIn {
  @location(0) position: vec2f,
  @location(1) uv: vec2f,
  @location(2) color: vec4f,
  @location(3) clip_page: u32,
};

struct VertexOut {
  @builtin(position) position: vec4f,
  @location(0) uv: vec2f,
  @location(1) color: vec4f,
  @location(2) @interpolate(flat) clip: vec4f,
  @location(3) @interpolate(flat) page: u32,
};

@vertex
fn vs(v: VertexIn) -> VertexOut {
  var out: VertexOut;
  out.position = vec4f(v.position.x / view.size.x * 2.0 - 1.0, 1.0 - v.position.y / view.size.y * 2.0, 0.0, 1.0);
  out.uv = v.uv;
  out.color = v.color;
  out.clip = clips[v.clip_page & 0xffffu];
  out.page = (v.clip_page >> 16u) & 0xffu;
  return out;
}

fn outside_clip(p: vec2f, clip: vec4f) -> bool {
  return p.x < clip.x || p.y < clip.y || p.x >= clip.z || p.y >= clip.w;
}

fn premultiplied(c: vec4f) -> vec4f {
  return vec4f(c.rgb * c.a, c.a);
}

fn over(top: vec4f, below: vec4f) -> vec4f {
  return top + below * (1.0 - top.a);
}

@fragment
fn fs_textured(v: VertexOut) -> @location(0) vec4f {
  let texel = textureSample(pages, page_sampler, v.uv, v.page);
  if (outside_clip(v.position.xy, v.clip)) {
    discard;
  }
  return premultiplied(texel * v.color);
}

@fragment
fn fs_text(v: VertexOut) -> @location(0) vec4f {
  let field = textureSample(pages, page_sampler, v.uv, v.page).r;
  let shadow_field = textureSample(pages, page_sampler, v.uv - style.shadow_offset / style.page_size, v.page).r;
  // Signed distance in texels, positive inside; fwidth gives texels per screen pixel, so the
  // edge is antialiased over exactly one pixel at any scale.
  let d = (field - 0.5) * 2.0 * style.spread;
  let pixel = max(fwidth(d), 1e-4);
  let fill = clamp(d / pixel + 0.5, 0.0, 1.0);
  let outline = clamp((d + style.outline_width) / pixel + 0.5, 0.0, 1.0);
  let glow_reach = max(style.glow_width, 1e-4);
  let glow_falloff = clamp(1.0 + (d + style.outline_width) / glow_reach, 0.0, 1.0);
  let glow = select(0.0, glow_falloff * glow_falloff, style.glow_width > 0.0);
  let ds = (shadow_field - 0.5) * 2.0 * style.spread + style.outline_width;
  let soft = max(style.shadow_softness, 0.0) + 0.5 * pixel;
  let shadow = smoothstep(-soft, soft, ds);
  if (outside_clip(v.position.xy, v.clip)) {
    discard;
  }
  var c = premultiplied(style.shadow_color) * shadow;
  c = over(premultiplied(style.glow_color) * glow, c);
  c = over(premultiplied(style.outline_color) * outline, c);
  c = over(premultiplied(v.color) * fill, c);
  return c;
}
