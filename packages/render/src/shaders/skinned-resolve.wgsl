// Drawing what skinned-raster.wgsl left (after common.wgsl and skinned-raster-common.wgsl, its
// bindings in group RASTER_GROUP): one rectangle per draw over the pixels its instances cover, so
// the raster hardware only writes where the crowd is (and each pixel is looked at once). The
// shadow maps take the depth alone (skinned_shadow_resolve); the camera's G-buffer takes the
// surface too (skinned-gbuffer.wgsl).

@group(RASTER_GROUP) @binding(0) var<uniform> raster_view: RasterView;
@group(RASTER_GROUP) @binding(1) var<storage, read> raster_vertices: array<u32>;
@group(RASTER_GROUP) @binding(2) var<storage, read> raster_indices: array<u32>;
@group(RASTER_GROUP) @binding(3) var<storage, read> raster_instance_ranges: array<vec4u>;
@group(RASTER_GROUP) @binding(4) var<storage, read> raster_depths: array<u32>;
@group(RASTER_GROUP) @binding(5) var<storage, read> raster_ids: array<u32>;
@group(RASTER_GROUP) @binding(6) var<storage, read> raster_boxes: array<vec4u>;
@group(RASTER_GROUP) @binding(7) var<storage, read> raster_previous: array<f32>;

// Corner `corner` (two triangles, six corners) of the draw's box; an empty box (all zero) gives
// triangles of no area.
@vertex
fn skinned_resolve_vertex(@builtin(vertex_index) corner: u32) -> @builtin(position) vec4f {
  let stored = raster_boxes[raster_view.box_offset];
  let box = select(vec4f(0.0), vec4f(vec2f(~stored.xy), vec2f(stored.zw)), stored.z != 0u);
  let unit = vec2f(f32(corner == 1u || corner == 4u || corner == 5u), f32(corner == 2u || corner == 3u || corner == 5u));
  let pixel = mix(box.xy, box.zw, unit);
  return vec4f(pixel_ndc(pixel, vec2f(raster_view.size)), 0.5, 1.0);
}

// The nearest depth key the raster kept at this fragment's pixel (0: none).
fn resolve_key(position: vec4f) -> u32 {
  return raster_depths[resolve_pixel(position)];
}

fn resolve_pixel(position: vec4f) -> u32 {
  return u32(position.y) * raster_view.row_words + u32(position.x);
}

@fragment
fn skinned_shadow_resolve(@builtin(position) position: vec4f) -> @builtin(frag_depth) f32 {
  let key = resolve_key(position);
  if (key == 0u) {
    discard;
  }
  return raster_depth(key);
}
