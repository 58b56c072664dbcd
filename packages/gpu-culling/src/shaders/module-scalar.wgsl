// Scalarized tile walking: the subgroup walks the smallest tile among its lanes still waiting,
// so every load of the walk is the same across the subgroup.
fn cull_first_pending(tile: u32, pending: bool) -> u32 {
  return subgroupMin(select(CULL_END, tile, pending));
}
