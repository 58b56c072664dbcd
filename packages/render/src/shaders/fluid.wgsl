// Fluid particles from @cuttle/gpu-fluid as sphere impostors (appended to the forward module):
// each particle is a camera-facing quad whose fragments outside the circle are discarded, with
// the depth of the sphere's surface written, so the depth prepass (and with it tile culling and
// SSAO) sees round particles, and the colour pass matches them with depth test `equal`.

struct Fluid {
  color: vec4f,
  radius: f32,
  roughness: f32,
  pad0: f32,
  pad1: f32,
}

@group(3) @binding(0) var<uniform> fluid: Fluid;
@group(3) @binding(1) var<storage, read> particles: array<vec4f>;

struct Particle {
  @builtin(position) position: vec4f,
  @location(0) center: vec3f,
  @location(1) corner: vec2f,
}

const QUAD_CORNERS = array<vec2f, 6>(vec2f(-1.0, -1.0), vec2f(1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, 1.0));

@vertex
fn fluid_vertex(@builtin(vertex_index) vertex: u32, @builtin(instance_index) particle: u32) -> Particle {
  let center = particles[particle].xyz;
  let corner = QUAD_CORNERS[vertex];
  // Grown a little so the sphere's silhouette stays inside the quad under perspective.
  let world = center + (frame.camera_right.xyz * corner.x + frame.camera_up.xyz * corner.y) * fluid.radius * 1.2;
  var out: Particle;
  out.position = frame.clip_from_world * vec4f(world, 1.0);
  out.center = center;
  out.corner = corner * 1.2;
  return out;
}

struct SpherePoint {
  world: vec3f,
  normal: vec3f,
  depth: f32,
}

fn sphere_point(particle: Particle) -> SpherePoint {
  let r2 = dot(particle.corner, particle.corner);
  if (r2 > 1.0) {
    discard;
  }
  let to_eye = normalize(frame.camera_position - particle.center);
  let normal = normalize(frame.camera_right.xyz * particle.corner.x + frame.camera_up.xyz * particle.corner.y + to_eye * sqrt(1.0 - r2));
  let world = particle.center + normal * fluid.radius;
  let clip = frame.clip_from_world * vec4f(world, 1.0);
  return SpherePoint(world, normal, clip.z / clip.w);
}

@fragment
fn fluid_depth(particle: Particle) -> @builtin(frag_depth) f32 {
  return sphere_point(particle).depth;
}

struct FluidOut {
  @location(0) color: vec4f,
  @location(1) motion: vec4f,
  @builtin(frag_depth) depth: f32,
}

@fragment
fn fluid_color(particle: Particle) -> FluidOut {
  let point = sphere_point(particle);
  let color = light_surface(point.world, point.normal, particle.position.xy, fluid.color.rgb, 0.0, fluid.roughness, vec3f(0.0), true);
  return FluidOut(vec4f(color, 1.0), vec4f(0.0), point.depth);
}
