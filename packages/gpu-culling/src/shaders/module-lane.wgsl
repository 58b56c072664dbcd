// Per-lane tile walking (no subgroups): each lane walks its own tile only.
fn cull_first_pending(tile: u32, pending: bool) -> u32 {
  return select(CULL_END, tile, pending);
}
