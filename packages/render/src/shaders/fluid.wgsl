// Fluid particles from @cuttle/gpu-fluid as sphere impostors (appended to the forward module).
//
// Depth: each particle is a camera-facing triangle whose fragments outside the circle are
// discarded, with the depth of the sphere's surface written, so the depth (and with it tile
// culling and SSAO) sees round particles. The triangles are drawn in their own pass after the scene's
// prepass, which also writes which particle won each pixel into an r32uint target (0: none).
//
// Colour: one compute pass lights every pixel a particle won, reading the particle back from the
// id and the surface point from the depth. The triangles are rasterized once, not twice: on a GPU
// with little raster hardware for its size (an H100) the second pass over a million quads was
// a quarter of the frame, and the depth test could not drop hidden fragments early because they
// write their own depth.

struct Fluid {
  color: vec4f,
  radius: f32,
  roughness: f32,
  // This fluid's place in the scene: the top bits of the ids it writes.
  index: u32,
  pad0: u32,
  // The inverse of frame.clip_from_world: the compute pass unprojects the depth with it.
  world_from_clip: mat4x4f,
}

// An id is (fluid index << PARTICLE_BITS) | (particle + 1).
const PARTICLE_BITS: u32 = 26u;
const PARTICLE_MASK: u32 = (1u << PARTICLE_BITS) - 1u;

@group(3) @binding(0) var<uniform> fluid: Fluid;
@group(3) @binding(1) var<storage, read> particles: array<vec4f>;
// The compute pass's inputs and output (the colour pass after the opaque one).
@group(3) @binding(2) var prepass_depth: texture_depth_2d;
@group(3) @binding(3) var fluid_ids: texture_2d<u32>;
@group(3) @binding(4) var hdr_out: texture_storage_2d<rgba16float, write>;

struct Particle {
  @builtin(position) position: vec4f,
  @location(0) center: vec3f,
  @location(1) corner: vec2f,
  @location(2) @interpolate(flat) index: u32,
}

// One triangle per particle around the unit circle (the circle is its inscribed one): half the
// vertices and triangles of a quad, and the impostor pass is bound by them, not by pixels.
const TRIANGLE_CORNERS = array<vec2f, 3>(vec2f(0.0, 2.0), vec2f(-1.7320508, -1.0), vec2f(1.7320508, -1.0));

// One non-instanced draw of 3 vertices per particle: GPUs pack vertex shader invocations of one
// instance together, so a million 3-vertex instances would leave most of each wave idle.
@vertex
fn fluid_vertex(@builtin(vertex_index) vertex: u32) -> Particle {
  let center = particles[vertex / 3u].xyz;
  let corner = TRIANGLE_CORNERS[vertex % 3u];
  // Grown a little so the sphere's silhouette stays inside the triangle under perspective.
  let world = center + (frame.camera_right.xyz * corner.x + frame.camera_up.xyz * corner.y) * fluid.radius * 1.2;
  var out: Particle;
  out.position = frame.clip_from_world * vec4f(world, 1.0);
  out.center = center;
  out.corner = corner * 1.2;
  out.index = vertex / 3u;
  return out;
}

struct FluidDepth {
  @location(0) id: u32,
  @builtin(frag_depth) depth: f32,
}

@fragment
fn fluid_depth(particle: Particle) -> FluidDepth {
  let r2 = dot(particle.corner, particle.corner);
  if (r2 > 1.0) {
    discard;
  }
  let normal = sphere_point(particle.center, particle.corner);
  let clip = frame.clip_from_world * vec4f(particle.center + normal * fluid.radius, 1.0);
  return FluidDepth((fluid.index << PARTICLE_BITS) | (particle.index + 1u), clip.z / clip.w);
}

// The sphere point a particle's billboard shows at a spot of it (corner: the billboard plane's own
// coordinates, in radii), as both passes compute it.
fn sphere_point(center: vec3f, corner: vec2f) -> vec3f {
  let to_eye = normalize(frame.camera_position - center);
  let r2 = dot(corner, corner);
  return normalize(frame.camera_right.xyz * corner.x + frame.camera_up.xyz * corner.y + to_eye * sqrt(max(1.0 - r2, 0.0)));
}

// Lights the pixels this fluid won in the prepass. The pixel's ray (through the prepass depth,
// unprojected) meets the particle's billboard where the prepass fragment sat; the plane's coordinates
// there give the same sphere point and normal as the prepass computed, with no loss from the
// depth's precision.
@compute @workgroup_size(8, 8)
fn fluid_shade(@builtin(global_invocation_id) cell: vec3u) {
  let size = textureDimensions(fluid_ids);
  if (cell.x >= size.x || cell.y >= size.y) {
    return;
  }
  let id = textureLoad(fluid_ids, cell.xy, 0).r;
  if (id == 0u || (id >> PARTICLE_BITS) != fluid.index) {
    return;
  }
  let center = particles[(id & PARTICLE_MASK) - 1u].xyz;
  let pixel = vec2f(cell.xy) + 0.5;
  let ndc = vec2f(pixel.x / f32(size.x) * 2.0 - 1.0, 1.0 - pixel.y / f32(size.y) * 2.0);
  let on_ray = fluid.world_from_clip * vec4f(ndc, textureLoad(prepass_depth, cell.xy, 0), 1.0);
  let eye = frame.camera_position;
  let ray = on_ray.xyz / on_ray.w - eye;
  let right = frame.camera_right.xyz;
  let up = frame.camera_up.xyz;
  let facing = cross(right, up);
  let on_plane = eye + ray * (dot(center - eye, facing) / dot(ray, facing)) - center;
  let normal = sphere_point(center, vec2f(dot(on_plane, right), dot(on_plane, up)) / fluid.radius);
  let world = center + normal * fluid.radius;
  let color = light_surface(world, normal, pixel, fluid.color.rgb, 0.0, fluid.roughness, vec3f(0.0), true);
  textureStore(hdr_out, cell.xy, vec4f(color, 1.0));
}
