// Sphere impostors: one camera-facing quad per particle, read straight from the simulation's
// storage buffers by instance index, shaded as a sphere and coloured by speed.

struct View {
  center: vec3f,
  scale: f32,      // clip units per world unit
  cos_yaw: f32,
  sin_yaw: f32,
  aspect: f32,     // width / height
  radius: f32,     // clip units
  max_speed: f32,  // speed drawn fully white-blue
}

@group(0) @binding(0) var<uniform> view: View;
@group(0) @binding(1) var<storage, read> positions: array<vec4f>;
@group(0) @binding(2) var<storage, read> velocities: array<vec4f>;

struct Varyings {
  @builtin(position) position: vec4f,
  @location(0) corner: vec2f,
  @location(1) speed: f32,
}

@vertex
fn vs(@builtin(vertex_index) vertex: u32, @builtin(instance_index) instance: u32) -> Varyings {
  let corner = vec2f(f32(vertex & 1u), f32(vertex >> 1u)) * 2.0 - 1.0;
  let p = positions[instance].xyz - view.center;
  // Turn about the vertical axis, then look down -z; depth keeps nearer particles in front.
  let x = view.cos_yaw * p.x + view.sin_yaw * p.z;
  let z = -view.sin_yaw * p.x + view.cos_yaw * p.z;
  let clip = vec2f(x * view.scale / view.aspect, p.y * view.scale) + corner * vec2f(view.radius / view.aspect, view.radius);
  var out: Varyings;
  out.position = vec4f(clip, 0.5 - 0.25 * z * view.scale, 1.0);
  out.corner = corner;
  out.speed = length(velocities[instance].xyz);
  return out;
}

@fragment
fn fs(in: Varyings) -> @location(0) vec4f {
  let r2 = dot(in.corner, in.corner);
  if (r2 > 1.0) { discard; }
  let normal = vec3f(in.corner, sqrt(1.0 - r2));
  let light = 0.35 + 0.65 * max(dot(normal, normalize(vec3f(-0.4, 0.6, 0.7))), 0.0);
  let t = clamp(in.speed / view.max_speed, 0.0, 1.0);
  let color = mix(vec3f(0.08, 0.3, 0.8), vec3f(0.75, 0.92, 1.0), t);
  return vec4f(color * light, 1.0);
}
