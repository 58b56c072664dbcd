// Instrument, not a walk to ship: the dense walk (module-flat.wgsl) with the bits form taken
// out, so only list form tiles are walked (a bits form tile reads as empty). walk-variant.ts
// (--lists-only) times it on every frame and compares its image only where the culler wrote no
// tile in bits form. It bounds what reading lists in one loop costs, with no bits code at all.

const CULL_LIST_FORM: u32 = 0x80000000u;
const CULL_LIST_HEADER: u32 = 1u;

struct CullIterator {
  tile: u32,
  kind: u32,
  pending: bool,
  walking: u32,
  at: u32,
  stop: u32,
}

fn cull_start(it: ptr<function, CullIterator>) {
  let walking = cull_first_pending((*it).tile, (*it).pending);
  (*it).walking = walking;
  if (walking == CULL_END) {
    return;
  }
  let base = walking * cull_view.words_per_tile;
  let header = cull_tiles[base];
  let decals = header & 0x3ffu;
  let boxes = decals + ((header >> 10u) & 0x3ffu);
  let lights = (header >> 20u) & 0x7ffu;
  let start = select(select(boxes, decals, (*it).kind == 1u), 0u, (*it).kind == 0u);
  let stop = select(select(boxes + lights, boxes, (*it).kind == 1u), decals, (*it).kind == 0u);
  let list = (header & CULL_LIST_FORM) != 0u;
  (*it).at = base + CULL_LIST_HEADER + start;
  (*it).stop = select(base + CULL_LIST_HEADER + start, base + CULL_LIST_HEADER + stop, list);
}

fn cull_walk(tile: u32, kind: u32) -> CullIterator {
  var it: CullIterator;
  it.tile = tile;
  it.kind = kind;
  it.pending = true;
  cull_start(&it);
  return it;
}

fn cull_next(it: ptr<function, CullIterator>) -> u32 {
  loop {
    if ((*it).walking == CULL_END) {
      return CULL_END;
    }
    if ((*it).at < (*it).stop) {
      let e = cull_tiles[(*it).at];
      (*it).at += 1u;
      return select(CULL_SKIP, e, (*it).walking == (*it).tile);
    }
    if ((*it).walking == (*it).tile) {
      (*it).pending = false;
    }
    cull_start(it);
  }
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
