// Entities-per-tile heatmap over a finished frame, as in the posts' pictures: empty tiles stay
// clear, then blue, green, yellow and red at `max_count` and above.

struct Heat {
  tile_size: u32,
  tiles_x: u32,
  max_count: f32,
  opacity: f32,
}

@group(0) @binding(0) var<uniform> heat: Heat;
@group(0) @binding(1) var<storage, read> counts: array<u32>;

@vertex
fn heat_vertex(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
  return vec4f(p * 2.0 - 1.0, 0.0, 1.0);
}

@fragment
fn heat_fragment(@builtin(position) position: vec4f) -> @location(0) vec4f {
  let tile = vec2u(position.xy) / heat.tile_size;
  let count = counts[STATS_HEADER + tile.y * heat.tiles_x + tile.x];
  if (count == 0u) {
    discard;
  }
  let t = clamp(f32(count) / heat.max_count, 0.0, 1.0);
  let ramp = clamp(vec3f(1.5 - abs(4.0 * t - 3.0), 1.5 - abs(4.0 * t - 2.0), 1.5 - abs(4.0 * t - 1.0)), vec3f(0.0), vec3f(1.0));
  // Tile borders a little darker, so single tiles read.
  let edge = vec2u(position.xy) % heat.tile_size;
  let border = select(1.0, 0.6, any(edge == vec2u(0u)));
  return vec4f(ramp * border, heat.opacity);
}
