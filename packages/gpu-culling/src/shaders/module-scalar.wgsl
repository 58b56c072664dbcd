// Scalarized tile walking: what a lane reads is made the same across its subgroup.
fn cull_scalar_bucket(bits: u32) -> u32 {
  return subgroupBroadcastFirst(subgroupOr(bits));
}

fn cull_first_pending(tile: u32, pending: bool) -> u32 {
  return subgroupMin(select(CULL_END, tile, pending));
}
