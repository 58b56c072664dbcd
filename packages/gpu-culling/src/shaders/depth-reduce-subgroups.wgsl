// Depth pass reductions over the subgroup first: one workgroup atomic per subgroup, not per
// invocation (the post's wave-intrinsics idea applied to the depth bounds and the 2.5D mask).

fn reduce_range(lo: f32, hi: f32, pixels: u32) {
  let low = subgroupMin(lo);
  let high = subgroupMax(hi);
  let count = subgroupAdd(pixels);
  if (subgroupElect() && count != 0u) {
    atomicMin(&min_key, order_key(low));
    atomicMax(&max_key, order_key(high));
    atomicAdd(&tile_pixels, count);
  }
}

fn reduce_mask(mask: u32) {
  let merged = subgroupOr(mask);
  if (subgroupElect() && merged != 0u) {
    atomicOr(&tile_mask, merged);
  }
}
