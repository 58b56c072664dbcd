// The blur that removes the 4x4 rotation pattern: the mean over the 4x4 block around each pixel
// (offsets -2..1, so each rotation appears once), over the pixels that lie near the centre's
// tangent plane only, so that AO does not bleed across silhouettes and creases.
@group(0) @binding(0) var<uniform> camera: SsaoCamera;
@group(0) @binding(1) var<uniform> plane_tolerance: vec4f;
@group(0) @binding(2) var depth_texture: texture_depth_2d;
@group(0) @binding(3) var normals: texture_2d<f32>;
@group(0) @binding(4) var raw_ao: texture_2d<f32>;
@group(0) @binding(5) var ao_out: texture_storage_2d<OUTPUT_FORMAT, write>;

@compute @workgroup_size(8, 8)
fn blur(@builtin(global_invocation_id) id: vec3u) {
  if (any(id.xy >= camera.size)) {
    return;
  }
  let pixel = vec2i(id.xy);
  let depth = textureLoad(depth_texture, pixel, 0);
  var ao = 1.0;
  if (depth != camera.far_depth) {
    let centre = view_position(pixel, depth);
    let normal = textureLoad(normals, pixel, 0).xyz;
    var sum = 0.0;
    var weight = 0.0;
    for (var dy = -2; dy <= 1; dy++) {
      for (var dx = -2; dx <= 1; dx++) {
        let p = pixel + vec2i(dx, dy);
        if (!in_image(p)) {
          continue;
        }
        let d = textureLoad(depth_texture, p, 0);
        if (d == camera.far_depth) {
          continue;
        }
        if (abs(dot(view_position(p, d) - centre, normal)) <= plane_tolerance.x) {
          sum += textureLoad(raw_ao, p, 0).x;
          weight += 1.0;
        }
      }
    }
    ao = sum / weight;
  }
  textureStore(ao_out, id.xy, vec4f(ao, ao, ao, 1.0));
}
