// Fluid particles from @cuttle/gpu-fluid as sphere impostors (appended to the forward module).
//
// Depth: a compute splat. Each particle covers the pixels whose ray meets its camera-facing
// billboard inside the circle; at each it computes the depth of the sphere's surface and keeps
// the nearest in a per-pixel key (atomicMax), then a second pass writes the id of the particle
// that matched the kept depth. A draw scissored to the fluids' bounds on screen moves the depths
// into the depth buffer, depth-tested against the scene, so the depth (and with it tile culling
// and SSAO) sees round particles and the scene hides the particles behind it. The H100 has little
// raster hardware for its size: a million rasterized impostors, each fragment writing its own
// depth (so none was dropped early), took 8 ms of a 4K frame.
//
// Colour: one compute pass lights every pixel a particle won, reading the particle back from the
// splat's id where the depth buffer still holds the splat's depth (where the scene is not in front).

struct Fluid {
  color: vec4f,
  radius: f32,
  roughness: f32,
  // This fluid's place in the scene: the top bits of the ids it writes.
  index: u32,
  // Particles drawn this frame.
  count: u32,
}

// An id is (fluid index << PARTICLE_BITS) | (particle + 1).
const PARTICLE_BITS: u32 = 26u;
const PARTICLE_MASK: u32 = (1u << PARTICLE_BITS) - 1u;

@group(3) @binding(0) var<uniform> fluid: Fluid;
@group(3) @binding(1) var<storage, read> particles: array<vec4f>;
// The shading pass's inputs and output (after the lighting pass).
@group(3) @binding(2) var scene_depth: texture_depth_2d;
@group(3) @binding(3) var<storage, read> splat_keys_in: array<u32>;
@group(3) @binding(4) var<storage, read> splat_ids_in: array<u32>;
@group(3) @binding(5) var hdr_out: texture_storage_2d<rgba16float, write>;

// The splat's targets, one word per pixel (row-major), cleared to 0 each frame: the nearest
// depth's key (splat_key) and the id that matched it.
@group(2) @binding(5) var<storage, read_write> splat_keys: array<atomic<u32>>;
@group(2) @binding(6) var<storage, read_write> splat_ids: array<atomic<u32>>;
// This fluid's particles too large on screen for one invocation: [count, particles...].
@group(2) @binding(7) var<storage, read_write> big_particles: array<atomic<u32>>;
// Their indirect dispatch (x, y, z), written by fluid_splat_count alone: a buffer a dispatch
// reads its size from may not be bound for writing in it.
@group(1) @binding(9) var<storage, read_write> big_dispatch: array<u32, 3>;
// The full-screen draw that moves the splat's depth into the depth buffer reads the keys here.
@group(2) @binding(8) var<storage, read> resolve_keys: array<u32>;

// What every pixel of one particle shares: its centre, the unit vector from it to the eye, and
// its billboard's plane (the camera's facing axis and the plane's distance along it from the eye).
struct Billboard {
  center: vec3f,
  to_eye: vec3f,
  facing: vec3f,
  distance: f32,
}

fn billboard(center: vec3f) -> Billboard {
  let facing = cross(frame.camera_right.xyz, frame.camera_up.xyz);
  return Billboard(center, normalize(frame.camera_position - center), facing, dot(center - frame.camera_position, facing));
}

// The sphere point a particle's billboard shows at a spot of it (corner: the billboard plane's own
// coordinates, in radii), as the splat and the shading pass compute it.
fn sphere_point(b: Billboard, corner: vec2f) -> vec3f {
  let r2 = dot(corner, corner);
  return normalize(frame.camera_right.xyz * corner.x + frame.camera_up.xyz * corner.y + b.to_eye * sqrt(max(1.0 - r2, 0.0)));
}

// Lights the pixels this fluid won in the splat. The pixel's ray meets the particle's billboard
// where the splat found it, which gives the same sphere point and normal, with no loss from the
// depth's precision.
@compute @workgroup_size(8, 8)
fn fluid_shade(@builtin(global_invocation_id) cell: vec3u) {
  let size = textureDimensions(scene_depth);
  if (cell.x >= size.x || cell.y >= size.y) {
    return;
  }
  let at = cell.y * size.x + cell.x;
  let id = splat_ids_in[at];
  if (id == 0u || (id >> PARTICLE_BITS) != fluid.index) {
    return;
  }
  // The scene is in front where the depth buffer holds anything but the splat's depth.
  if (splat_key(textureLoad(scene_depth, cell.xy, 0)) != splat_keys_in[at]) {
    return;
  }
  let b = billboard(particles[(id & PARTICLE_MASK) - 1u].xyz);
  let pixel = vec2f(cell.xy) + 0.5;
  let normal = sphere_point(b, billboard_corner(b, pixel));
  let world = b.center + normal * fluid.radius;
  let color = light_surface(world, normal, pixel, fluid.color.rgb, 0.0, fluid.roughness, vec3f(0.0), 1.0, true);
  textureStore(hdr_out, cell.xy, vec4f(color, 1.0));
}

// Where the ray through `pixel` (in pixels, from the top left) meets a particle's billboard, in
// the billboard plane's own coordinates, in radii.
fn billboard_corner(b: Billboard, pixel: vec2f) -> vec2f {
  let ndc = pixel_ndc(pixel, frame.viewport);
  // Any depth names a point on the ray; scaled by w, the direction stays finite even where that
  // point lies at infinity (reversed infinite projections), and the hit does not depend on its scale.
  let on_ray = frame.world_from_clip * vec4f(ndc, 0.5, 1.0);
  let eye = frame.camera_position;
  let ray = on_ray.xyz - eye * on_ray.w;
  let on_plane = eye + ray * (b.distance / dot(ray, b.facing)) - b.center;
  return vec2f(dot(on_plane, frame.camera_right.xyz), dot(on_plane, frame.camera_up.xyz)) / fluid.radius;
}

// A depth as a key that grows towards the camera (atomicMax keeps the nearest); 0 is no particle.
// Depths in [0, 1] order like their bits.
fn splat_key(depth: f32) -> u32 {
  return select(~bitcast<u32>(depth), bitcast<u32>(depth), frame.reversed_z == 1u);
}

fn key_depth(key: u32) -> f32 {
  return bitcast<f32>(select(~key, key, frame.reversed_z == 1u));
}

// The pixels a particle's billboard may cover: [low, high) in pixels, clamped to the viewport;
// empty where any corner of the billboard lies behind the camera plane (such a particle touches
// the camera and is not drawn).
struct Footprint {
  low: vec2u,
  high: vec2u,
}

fn footprint(center: vec3f) -> Footprint {
  var low = vec2f(1e30);
  var high = vec2f(-1e30);
  for (var k = 0u; k < 4u; k++) {
    let corner = vec2f(select(-1.0, 1.0, (k & 1u) == 1u), select(-1.0, 1.0, k >= 2u));
    let world = center + (frame.camera_right.xyz * corner.x + frame.camera_up.xyz * corner.y) * fluid.radius;
    let clip = frame.clip_from_world * vec4f(world, 1.0);
    if (clip.w <= 0.0) {
      return Footprint(vec2u(0u), vec2u(0u));
    }
    let pixel = vec2f(clip.x / clip.w * 0.5 + 0.5, 0.5 - clip.y / clip.w * 0.5) * frame.viewport;
    low = min(low, pixel);
    high = max(high, pixel);
  }
  // Pixel centres sit at +0.5: the first inside low is round(low), the last inside high is round(high) - 1.
  let size = vec2i(frame.viewport);
  let first = clamp(vec2i(round(low)), vec2i(0), size);
  let last = clamp(vec2i(round(high)), vec2i(0), size);
  return Footprint(vec2u(first), vec2u(max(first, last)));
}

// One pixel of a particle: the sphere's depth there into the keys (ids: false), or its id where
// that depth is the one the keys kept (ids: true).
fn splat_pixel(b: Billboard, id: u32, x: u32, y: u32, ids: bool) {
  let corner = billboard_corner(b, vec2f(f32(x), f32(y)) + 0.5);
  if (dot(corner, corner) > 1.0) {
    return;
  }
  let clip = frame.clip_from_world * vec4f(b.center + sphere_point(b, corner) * fluid.radius, 1.0);
  let depth = clip.z / clip.w;
  if (!(depth >= 0.0 && depth <= 1.0)) {
    return;
  }
  let key = splat_key(depth);
  let at = y * u32(frame.viewport.x) + x;
  if (ids) {
    // Ties keep the larger id, so the picture does not depend on the order particles ran in.
    if (atomicLoad(&splat_keys[at]) == key) {
      atomicMax(&splat_ids[at], id);
    }
  } else if (key > atomicLoad(&splat_keys[at])) {
    atomicMax(&splat_keys[at], key);
  }
}

// A footprint of more pixels than this is splatted by a whole workgroup (fluid_splat_big).
const SMALL_FOOTPRINT: u32 = 1024u;
const SPLAT_GROUP: u32 = 64u;

fn particle_id(particle: u32) -> u32 {
  return (fluid.index << PARTICLE_BITS) | (particle + 1u);
}

// One invocation per particle (a 2D grid past 65535 workgroups); large footprints are listed for
// fluid_splat_big by the depth pass and skipped by the id pass.
fn splat_small(group: vec3u, groups: vec3u, local: u32, ids: bool) {
  let particle = (group.y * groups.x + group.x) * SPLAT_GROUP + local;
  if (particle >= fluid.count) {
    return;
  }
  let center = particles[particle].xyz;
  let box = footprint(center);
  let size = box.high - box.low;
  if (size.x * size.y > SMALL_FOOTPRINT) {
    if (!ids) {
      atomicStore(&big_particles[1u + atomicAdd(&big_particles[0], 1u)], particle);
    }
    return;
  }
  let id = particle_id(particle);
  let b = billboard(center);
  for (var y = box.low.y; y < box.high.y; y++) {
    for (var x = box.low.x; x < box.high.x; x++) {
      splat_pixel(b, id, x, y, ids);
    }
  }
}

// Which of the splat's two passes a pipeline runs: the depths (false) or the ids (true).
override SPLAT_IDS: bool = false;

@compute @workgroup_size(SPLAT_GROUP)
fn fluid_splat(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u, @builtin(local_invocation_index) local: u32) {
  splat_small(group, groups, local, SPLAT_IDS);
}

// After the depth pass listed the large particles: the indirect dispatch's size, one workgroup
// per listed particle (rows of at most 65535).
@compute @workgroup_size(1)
fn fluid_splat_count() {
  let count = atomicLoad(&big_particles[0]);
  let x = min(count, 65535u);
  big_dispatch = array<u32, 3>(x, select(0u, (count + x - 1u) / max(x, 1u), count > 0u), 1u);
}

// One workgroup per listed particle, its invocations striding over the footprint.
fn splat_big(group: vec3u, groups: vec3u, local: u32, ids: bool) {
  let slot = group.y * groups.x + group.x;
  if (slot >= atomicLoad(&big_particles[0])) {
    return;
  }
  let particle = atomicLoad(&big_particles[1u + slot]);
  let center = particles[particle].xyz;
  let box = footprint(center);
  let width = box.high.x - box.low.x;
  let pixels = width * (box.high.y - box.low.y);
  let id = particle_id(particle);
  let b = billboard(center);
  for (var p = local; p < pixels; p += SPLAT_GROUP) {
    splat_pixel(b, id, box.low.x + p % width, box.low.y + p / width, ids);
  }
}

@compute @workgroup_size(SPLAT_GROUP)
fn fluid_splat_big(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u, @builtin(local_invocation_index) local: u32) {
  splat_big(group, groups, local, SPLAT_IDS);
}

// The splat's depth into the depth buffer, depth-tested against the scene's: a full-screen
// triangle that keeps the pixels a particle covers.
@vertex
fn fluid_resolve_vertex(@builtin(vertex_index) vertex: u32) -> @builtin(position) vec4f {
  let uv = vec2f(f32((vertex << 1u) & 2u), f32(vertex & 2u));
  return vec4f(uv * 2.0 - 1.0, 0.0, 1.0);
}

struct Resolved {
  @builtin(frag_depth) depth: f32,
  // No motion: the opaque pass wrote the motion of the surface behind the particle.
  @location(0) motion: vec4f,
}

@fragment
fn fluid_resolve(@builtin(position) position: vec4f) -> Resolved {
  let key = resolve_keys[u32(position.y) * u32(frame.viewport.x) + u32(position.x)];
  if (key == 0u) {
    discard;
  }
  return Resolved(key_depth(key), vec4f(0.0));
}
