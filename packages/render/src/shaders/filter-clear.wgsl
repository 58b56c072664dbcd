// The shadow maps' colour filters set to white (all light through, no caustics) before the
// transparents are multiplied in: a compute pass, since on the H100 clearing a render target
// costs about as much as drawing it.

@group(0) @binding(0) var filters: texture_storage_2d_array<rgba8unorm, write>;

@compute @workgroup_size(8, 8)
fn clear_filters(@builtin(global_invocation_id) cell: vec3u) {
  let size = textureDimensions(filters);
  if (cell.x >= size.x || cell.y >= size.y) {
    return;
  }
  textureStore(filters, cell.xy, cell.z, vec4f(1.0, 1.0, 1.0, 0.0));
}
