// Walking a tile's compaction list: a statistics word (decals | probes << 10 | lights << 20),
// then the indices, decals first in tiles that hold any (sorted), then probes, then lights.
// Scalarized (subgroups), the subgroup walks one tile's list at a time with uniform loads (the
// smallest tile index among lanes still waiting); lanes of other tiles get CULL_SKIP meanwhile,
// so each lane sees exactly its own tile's entities. In a 16x16 tile most subgroups hold one
// tile and never skip.

struct CullIterator {
  tile: u32,
  kind: u32,
  // The tile the subgroup walks now, its position and end in the list.
  walking: u32,
  at: u32,
  end: u32,
  pending: bool,
}

fn cull_list_range(tile: u32, kind: u32) -> vec2u {
  let header = cull_tiles[tile * cull_view.words_per_tile];
  let decals = header & 0x3ffu;
  let probes = (header >> 10u) & 0x3ffu;
  let lights = (header >> 20u) & 0x3ffu;
  let first = 1u + select(select(decals + probes, decals, kind == 1u), 0u, kind == 0u);
  let count = select(select(lights, probes, kind == 1u), decals, kind == 0u);
  return vec2u(first, first + count);
}

fn cull_start(it: ptr<function, CullIterator>) {
  let walking = cull_first_pending((*it).tile, (*it).pending);
  (*it).walking = walking;
  if (walking != CULL_END) {
    let range = cull_list_range(walking, (*it).kind);
    (*it).at = range.x;
    (*it).end = range.y;
  }
}

fn cull_next(it: ptr<function, CullIterator>) -> u32 {
  loop {
    if ((*it).walking == CULL_END) {
      return CULL_END;
    }
    if ((*it).at < (*it).end) {
      let e = cull_tiles[(*it).walking * cull_view.words_per_tile + (*it).at];
      (*it).at += 1u;
      return select(CULL_SKIP, e, (*it).walking == (*it).tile);
    }
    if ((*it).walking == (*it).tile) {
      (*it).pending = false;
    }
    cull_start(it);
  }
}
