// The forward+ example's geometry: instanced boxes (centre, colour, half size) expanded from
// vertex_index, drawn three ways: depth only (the prepass culling reads), forward+ shaded with
// the culled tiles (or with every entity, the baseline), and into a G-buffer for tiled deferred.
// Appended to the culling module (group 1).

struct Camera {
  clip_from_world: mat4x4f,
  ambient: vec4f,
}

struct Box {
  center_color: vec4f,
  half_size: vec4f,
}

@group(0) @binding(0) var<uniform> camera: Camera;
@group(0) @binding(1) var<storage, read> boxes: array<Box>;

struct Surface {
  @builtin(position) @invariant position: vec4f,
  @location(0) world: vec3f,
  @location(1) normal: vec3f,
  @location(2) albedo: vec3f,
}

// Face normals and two tangents with u x v = n, so corners run counter-clockwise seen from outside.
const NORMALS = array<vec3f, 6>(vec3f(1.0, 0.0, 0.0), vec3f(-1.0, 0.0, 0.0), vec3f(0.0, 1.0, 0.0), vec3f(0.0, -1.0, 0.0), vec3f(0.0, 0.0, 1.0), vec3f(0.0, 0.0, -1.0));
const TANGENTS_U = array<vec3f, 6>(vec3f(0.0, 1.0, 0.0), vec3f(0.0, 0.0, 1.0), vec3f(0.0, 0.0, 1.0), vec3f(1.0, 0.0, 0.0), vec3f(1.0, 0.0, 0.0), vec3f(0.0, 1.0, 0.0));
const TANGENTS_V = array<vec3f, 6>(vec3f(0.0, 0.0, 1.0), vec3f(0.0, 1.0, 0.0), vec3f(1.0, 0.0, 0.0), vec3f(0.0, 0.0, 1.0), vec3f(0.0, 1.0, 0.0), vec3f(1.0, 0.0, 0.0));
const QUAD = array<vec2f, 6>(vec2f(-1.0, -1.0), vec2f(1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, 1.0));

@vertex
fn box_vertex(@builtin(vertex_index) vertex: u32, @builtin(instance_index) instance: u32) -> Surface {
  let face = vertex / 6u;
  let corner = QUAD[vertex % 6u];
  let box = boxes[instance];
  let local = NORMALS[face] + TANGENTS_U[face] * corner.x + TANGENTS_V[face] * corner.y;
  let world = box.center_color.xyz + local * box.half_size.xyz;
  var out: Surface;
  out.position = camera.clip_from_world * vec4f(world, 1.0);
  out.world = world;
  out.normal = NORMALS[face];
  out.albedo = unpack4x8unorm(bitcast<u32>(box.center_color.w)).rgb;
  return out;
}

fn tone_map(color: vec3f) -> vec4f {
  let mapped = color / (1.0 + color);
  return vec4f(pow(mapped, vec3f(1.0 / 2.2)), 1.0);
}

@fragment
fn forward_plus(surface: Surface) -> @location(0) vec4f {
  return tone_map(cull_shade(surface.position.xy, surface.world, normalize(surface.normal), surface.albedo, camera.ambient.rgb));
}

@fragment
fn forward_everything(surface: Surface) -> @location(0) vec4f {
  return tone_map(cull_shade_everything(surface.world, normalize(surface.normal), surface.albedo, camera.ambient.rgb));
}

struct GBufferOut {
  @location(0) normal: vec4f,
  @location(1) albedo: vec4f,
}

@fragment
fn gbuffer(surface: Surface) -> GBufferOut {
  return GBufferOut(vec4f(normalize(surface.normal), 1.0), vec4f(surface.albedo, 1.0));
}
