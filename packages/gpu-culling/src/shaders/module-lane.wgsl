// Per-lane tile walking (no subgroups): each lane reads its own tile.
fn cull_scalar_bucket(bits: u32) -> u32 {
  return bits;
}

fn cull_first_pending(tile: u32, pending: bool) -> u32 {
  return select(CULL_END, tile, pending);
}
