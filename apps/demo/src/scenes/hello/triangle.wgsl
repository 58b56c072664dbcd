// A full-brightness orange triangle over the clear colour: the browser smoke test samples its
// centre and a corner to prove a frame was really drawn.
struct Params {
  angle: f32,
}
@group(0) @binding(0) var<uniform> params: Params;

@vertex
fn vs(@builtin(vertex_index) index: u32) -> @builtin(position) vec4<f32> {
  let corner = f32(index) * 2.0943951; // 2π/3
  let r = 0.6;
  let a = corner + params.angle + 1.5707963;
  return vec4<f32>(r * cos(a), r * sin(a), 0.0, 1.0);
}

@fragment
fn fs() -> @location(0) vec4<f32> {
  return vec4<f32>(1.0, 0.5, 0.0, 1.0);
}
