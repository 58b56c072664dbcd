// Depth pass reductions straight into workgroup atomics (devices without subgroups).

fn reduce_range(lo: f32, hi: f32, pixels: u32) {
  if (pixels != 0u) {
    atomicMin(&min_key, order_key(lo));
    atomicMax(&max_key, order_key(hi));
    atomicAdd(&tile_pixels, pixels);
  }
}

fn reduce_mask(mask: u32) {
  if (mask != 0u) {
    atomicOr(&tile_mask, mask);
  }
}
