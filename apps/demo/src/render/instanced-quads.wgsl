struct View {
  aspect: f32,
}
@group(0) @binding(0) var<uniform> view: View;

struct VertexOut {
  @builtin(position) position: vec4<f32>,
  @location(0) color: vec4<f32>,
}

@vertex
fn vs(
  @builtin(vertex_index) corner: u32,
  @location(0) center: vec2<f32>,
  @location(1) color: vec4<f32>,
  @location(2) size: f32,
) -> VertexOut {
  let offset = vec2<f32>(f32(corner & 1u) - 0.5, f32(corner >> 1u) - 0.5) * size;
  var out: VertexOut;
  out.position = vec4<f32>(center.x + offset.x / view.aspect, center.y + offset.y, 0.0, 1.0);
  out.color = color;
  return out;
}

@fragment
fn fs(in: VertexOut) -> @location(0) vec4<f32> {
  return in.color;
}
