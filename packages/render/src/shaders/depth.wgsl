// Depth-only drawing: the shadow maps' casters, one view
// matrix per pass through a dynamic uniform offset. Masked materials test alpha in a fragment
// stage; opaque ones have none (no fragment work at all).

struct DepthView {
  clip_from_world: mat4x4f,
}

@group(0) @binding(0) var<uniform> depth_view: DepthView;
@group(0) @binding(1) var<storage, read> instances: array<Instance>;
@group(0) @binding(2) var<storage, read> draw_instances: array<u32>;

@group(1) @binding(0) var<uniform> material: Material;
@group(1) @binding(1) var base_texture: texture_2d<f32>;
@group(1) @binding(4) var material_sampler: sampler;

struct DepthSurface {
  @builtin(position) @invariant position: vec4f,
  @location(0) uv: vec2f,
}

@vertex
fn depth_vertex(@location(0) position: vec3f, @location(2) uv: vec2f, @builtin(instance_index) draw: u32) -> DepthSurface {
  let instance = instances[draw_instances[draw]];
  var out: DepthSurface;
  out.position = depth_view.clip_from_world * (instance.world * mesh_position(instance, position));
  out.uv = mesh_uv(instance, uv);
  return out;
}

// Skinned characters: positions already in world space (the palette holds each instance's placement).
@vertex
fn skinned_depth_vertex(@location(0) position: vec3f) -> DepthSurface {
  var out: DepthSurface;
  out.position = depth_view.clip_from_world * vec4f(position, 1.0);
  out.uv = vec2f(0.0);
  return out;
}

@fragment
fn depth_masked(surface: DepthSurface) {
  if (material_base_color(material, base_texture, material_sampler, surface.uv).a < material.alpha_cutoff) {
    discard;
  }
}

// Transparent shadow casters into the colour filter (multiplied into it; see shadows.ts): how
// much light of each colour the surface lets through, and for water the slope of its normal map
// in alpha (added up: caustics).
@group(1) @binding(3) var normal_texture: texture_2d<f32>;

@fragment
fn shadow_filter(surface: DepthSurface) -> @location(0) vec4f {
  let base = material_base_color(material, base_texture, material_sampler, surface.uv);
  let transmitted = mix(vec3f(1.0), base.rgb, base.a);
  var caustic = 0.0;
  if ((material.flags & MATERIAL_CAUSTICS) != 0u) {
    let n = textureSample(normal_texture, material_sampler, surface.uv).rgb * 2.0 - 1.0;
    caustic = 1.0 - clamp(dot(normalize(n), vec3f(0.0, 0.0, 1.0)), 0.0, 1.0);
  }
  return vec4f(transmitted, caustic);
}
