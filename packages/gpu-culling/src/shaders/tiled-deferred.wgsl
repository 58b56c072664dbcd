// Tiled-deferred shading: one invocation per pixel in 8x8 workgroups (the post's best size for
// the shading pass, separate from culling's 16x16), reading the G-buffer and the culled tiles.
// Appended to the culling module.

@group(1) @binding(0) var depth_texture: texture_depth_2d;
@group(1) @binding(1) var normal_texture: texture_2d<f32>;
@group(1) @binding(2) var albedo_texture: texture_2d<f32>;
@group(1) @binding(3) var output: texture_storage_2d<rgba16float, write>;
@group(1) @binding(4) var<uniform> ambient: vec4f;

@compute @workgroup_size(8, 8)
fn shade_tiles(@builtin(global_invocation_id) id: vec3u) {
  let size = textureDimensions(output);
  // Every invocation walks (scalarized walks need all lanes); only pixels inside write.
  let pixel = min(id.xy, size - 1u);
  let depth = textureLoad(depth_texture, pixel, 0);
  let center = vec2f(pixel) + 0.5;
  let normal = textureLoad(normal_texture, pixel, 0);
  let albedo = textureLoad(albedo_texture, pixel, 0).rgb;
  // normal.w = 0 marks pixels no surface was drawn to: they stay black.
  let surface = normal.w > 0.0;
  let n = select(vec3f(0.0, 0.0, 1.0), normalize(normal.xyz), surface);
  let color = cull_shade(center, cull_world_position(center, depth), n, albedo, ambient.rgb);
  if (all(id.xy < size)) {
    textureStore(output, id.xy, vec4f(select(vec3f(0.0), color, surface), 1.0));
  }
}
