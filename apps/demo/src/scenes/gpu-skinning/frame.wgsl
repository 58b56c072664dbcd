// The frame uniform the crowd and the ground read, and the motion-vector view's colours:
// red and green are the screen motion since the last frame (x right, y up; 0.5 still, 0 or 1 at
// MOTION_PIXELS or more), blue says what was drawn (1 a skinned character, 0.25 the ground).
// Where nothing is drawn the view clears to (0.5, 0.5, 0): no motion.
struct Frame {
  view_proj: mat4x4<f32>,
  previous_view_proj: mat4x4<f32>,
  viewport: vec2<f32>,
  view: u32,
  ground_extent: f32,
}

@group(0) @binding(0) var<uniform> frame: Frame;

const MOTION_PIXELS: f32 = 8.0;

fn motion_colour(current: vec4<f32>, previous: vec4<f32>, marker: f32) -> vec4<f32> {
  let motion = (current.xy / current.w - previous.xy / previous.w) * 0.5 * frame.viewport;
  return vec4<f32>(0.5 + 0.5 * clamp(motion / MOTION_PIXELS, vec2<f32>(-1.0), vec2<f32>(1.0)), marker, 1.0);
}
