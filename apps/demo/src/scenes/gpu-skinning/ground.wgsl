// A static ground quad (y = 0, +-frame.ground_extent) with a grid, fading into the clear colour.
// In the motion-vector view it shows the camera's motion only: still camera, no motion.
struct GroundOut {
  @builtin(position) clip: vec4<f32>,
  @location(0) world: vec3<f32>,
  @location(1) current: vec4<f32>,
  @location(2) previous: vec4<f32>,
}

const CORNERS = array<vec2<f32>, 6>(vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(1.0, 1.0), vec2(-1.0, -1.0), vec2(1.0, 1.0), vec2(-1.0, 1.0));
const GRID_METRES: f32 = 1.6;

@vertex
fn vs_ground(@builtin(vertex_index) index: u32) -> GroundOut {
  let corner = CORNERS[index] * frame.ground_extent;
  let world = vec3<f32>(corner.x, 0.0, corner.y);
  var out: GroundOut;
  out.clip = frame.view_proj * vec4<f32>(world, 1.0);
  out.world = world;
  out.current = out.clip;
  out.previous = frame.previous_view_proj * vec4<f32>(world, 1.0);
  return out;
}

@fragment
fn fs_ground(in: GroundOut) -> @location(0) vec4<f32> {
  let cells = in.world.xz / GRID_METRES;
  let distance = abs(fract(cells - 0.5) - 0.5) / fwidth(cells);
  if (frame.view == 1u) {
    return motion_colour(in.current, in.previous, 0.25);
  }
  let line = 1.0 - min(min(distance.x, distance.y), 1.0);
  let colour = mix(vec3<f32>(0.1, 0.11, 0.14), vec3<f32>(0.2, 0.22, 0.27), line);
  let fade = smoothstep(frame.ground_extent * 0.5, frame.ground_extent, length(in.world.xz));
  return vec4<f32>(mix(colour, vec3<f32>(0.05, 0.06, 0.09), fade), 1.0);
}
