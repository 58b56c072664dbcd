// The compute tone mapping (after tonemap.wgsl; the host puts the target's storage format in
// place of OUTPUT_FORMAT): one invocation per pixel.

@group(0) @binding(2) var output: texture_storage_2d<OUTPUT_FORMAT, write>;

@compute @workgroup_size(8, 8)
fn tonemap_compute(@builtin(global_invocation_id) cell: vec3u) {
  let size = textureDimensions(output);
  if (cell.x < size.x && cell.y < size.y) {
    textureStore(output, cell.xy, tonemapped(cell.xy));
  }
}
