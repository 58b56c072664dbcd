// The iterators every walk offers, after the walk's CullIterator and cull_start: one per kind,
// started on `tile` (see module-common.wgsl for the loop that reads them with cull_next).

fn cull_walk(tile: u32, kind: u32) -> CullIterator {
  var it: CullIterator;
  it.tile = tile;
  it.kind = kind;
  it.pending = true;
  cull_start(&it);
  return it;
}

fn cull_decals(tile: u32) -> CullIterator {
  return cull_walk(tile, 0u);
}

fn cull_probes(tile: u32) -> CullIterator {
  return cull_walk(tile, 1u);
}

fn cull_lights(tile: u32) -> CullIterator {
  return cull_walk(tile, 2u);
}
