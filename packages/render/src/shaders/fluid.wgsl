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
// The prepass depth, read by the colour pass only (bound there as a read-only attachment too).
@group(3) @binding(2) var prepass_depth: texture_depth_2d;

struct Particle {
  @builtin(position) position: vec4f,
  @location(0) center: vec3f,
  @location(1) corner: vec2f,
}

const QUAD_CORNERS = array<vec2f, 6>(vec2f(-1.0, -1.0), vec2f(1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, 1.0));

// One non-instanced draw of 6 vertices per particle: GPUs pack vertex shader invocations of one
// instance together, so a million 6-vertex instances would leave most of each wave idle.
@vertex
fn fluid_vertex(@builtin(vertex_index) vertex: u32) -> Particle {
  let center = particles[vertex / 6u].xyz;
  let corner = QUAD_CORNERS[vertex % 6u];
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
  /** Whether the fragment lies on the sphere's disc (the quad's corners do not). */
  inside: bool,
}

fn sphere_point(particle: Particle) -> SpherePoint {
  let r2 = dot(particle.corner, particle.corner);
  let to_eye = normalize(frame.camera_position - particle.center);
  let normal = normalize(frame.camera_right.xyz * particle.corner.x + frame.camera_up.xyz * particle.corner.y + to_eye * sqrt(max(1.0 - r2, 0.0)));
  let world = particle.center + normal * fluid.radius;
  let clip = frame.clip_from_world * vec4f(world, 1.0);
  return SpherePoint(world, normal, clip.z / clip.w, r2 <= 1.0);
}

@fragment
fn fluid_depth(particle: Particle) -> @builtin(frag_depth) f32 {
  let point = sphere_point(particle);
  if (!point.inside) {
    discard;
  }
  return point.depth;
}

struct FluidOut {
  @location(0) color: vec4f,
  @location(1) motion: vec4f,
  @builtin(frag_depth) depth: f32,
}

@fragment
fn fluid_color(particle: Particle) -> FluidOut {
  let point = sphere_point(particle);
  // Writing frag_depth turns the early depth test off, so every particle hidden behind another
  // reaches this shader before the `equal` test throws it away: with a million overlapping
  // impostors that was hundreds of shades per pixel. Only the fragment the prepass kept is lit.
  // The branch matters as much as the discard: WGSL's discard demotes the invocation to a helper
  // that keeps running, so without it a discarded fragment would still run the light loop.
  let shaded = point.inside && point.depth == textureLoad(prepass_depth, vec2i(particle.position.xy), 0);
  if (!shaded) {
    discard;
  }
  var color = vec3f(0.0);
  if (shaded) {
    color = light_surface(point.world, point.normal, particle.position.xy, fluid.color.rgb, 0.0, fluid.roughness, vec3f(0.0), true);
  }
  return FluidOut(vec4f(color, 1.0), vec4f(0.0), point.depth);
}
