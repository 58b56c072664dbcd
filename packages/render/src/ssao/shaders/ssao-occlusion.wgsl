// Screen-space ambient occlusion: points of a normal-oriented hemisphere around each pixel's
// view-space position are projected into the depth buffer; a point counts as occluded where the
// depth buffer's surface lies in front of it and above the centre's tangent plane (each by more
// than the bias), fading out where that surface is so far in front that it is another object. The hemisphere kernel is turned about the normal by
// one of 16 angles of a 4x4 ordered pattern, which the blur pass averages away.
const MAX_SAMPLES: u32 = 64u;

struct SsaoParams {
  radius: f32,
  bias: f32,
  strength: f32,
  sample_count: u32,
  // xyz: a point of the unit hemisphere around +z (the normal), w unused.
  kernel: array<vec4f, MAX_SAMPLES>,
}

@group(0) @binding(0) var<uniform> camera: SsaoCamera;
@group(0) @binding(1) var<uniform> params: SsaoParams;
@group(0) @binding(2) var depth_texture: texture_depth_2d;
@group(0) @binding(3) var normals: texture_2d<f32>;
@group(0) @binding(4) var ao_out: texture_storage_2d<OUTPUT_FORMAT, write>;

// 4x4 ordered (Bayer) pattern: every 4x4 block holds each of the 16 rotations once.
const ROTATION_ORDER = array<f32, 16>(0.0, 8.0, 2.0, 10.0, 12.0, 4.0, 14.0, 6.0, 3.0, 11.0, 1.0, 9.0, 15.0, 7.0, 13.0, 5.0);
const TAU: f32 = 6.283185307179586;

fn rotation_angle(pixel: vec2i) -> f32 {
  let i = u32(pixel.y & 3) * 4u + u32(pixel.x & 3);
  return (ROTATION_ORDER[i] + 0.5) * (TAU / 16.0);
}

// An orthonormal tangent frame around n without a branchy "pick an up vector" (the
// copysign construction), turned by `angle` about n.
fn tangent_frame(n: vec3f, angle: f32) -> mat3x3f {
  let s = select(-1.0, 1.0, n.z >= 0.0);
  let a = -1.0 / (s + n.z);
  let b = n.x * n.y * a;
  let t = vec3f(1.0 + s * n.x * n.x * a, s * b, -s * n.x);
  let bt = vec3f(b, s + n.y * n.y * a, -n.y);
  let c = cos(angle);
  let sn = sin(angle);
  return mat3x3f(c * t + sn * bt, c * bt - sn * t, n);
}

fn store_ao(pixel: vec2u, ao: f32) {
  textureStore(ao_out, pixel, vec4f(ao, ao, ao, 1.0));
}

@compute @workgroup_size(8, 8)
fn occlusion(@builtin(global_invocation_id) id: vec3u) {
  if (any(id.xy >= camera.size)) {
    return;
  }
  let pixel = vec2i(id.xy);
  let depth = textureLoad(depth_texture, pixel, 0);
  if (depth == camera.far_depth) {
    store_ao(id.xy, 1.0);
    return;
  }
  let centre = view_position(pixel, depth);
  let centre_distance = camera.forward * centre.z;
  let normal = normalize(textureLoad(normals, pixel, 0).xyz);
  let frame = tangent_frame(normal, rotation_angle(pixel));
  let size = vec2f(camera.size);
  var occluded = 0.0;
  for (var i = 0u; i < params.sample_count; i++) {
    let point = centre + frame * params.kernel[i].xyz * params.radius;
    let clip = camera.projection * vec4f(point, 1.0);
    if (clip.w <= 0.0) {
      continue;
    }
    let ndc = clip.xy / clip.w;
    let texel = vec2i(floor(vec2f(ndc.x + 1.0, 1.0 - ndc.y) * 0.5 * size));
    if (!in_image(texel)) {
      continue;
    }
    let scene_depth = textureLoad(depth_texture, texel, 0);
    if (scene_depth == camera.far_depth) {
      continue;
    }
    let scene = view_position(texel, scene_depth);
    let scene_distance = camera.forward * scene.z;
    // In front of the sample, and above the centre's tangent plane: a flat surface's own pixels,
    // which lie in the plane, never occlude it however coarse the depth buffer is there.
    if (scene_distance <= camera.forward * point.z - params.bias && dot(scene - centre, normal) > params.bias) {
      // Full weight within one radius in front of the centre, none beyond two: a surface far in
      // front is another object, not this one's surroundings.
      occluded += clamp(2.0 - (centre_distance - scene_distance) / params.radius, 0.0, 1.0);
    }
  }
  let open = 1.0 - occluded / f32(params.sample_count);
  store_ao(id.xy, pow(max(open, 0.0), params.strength));
}
