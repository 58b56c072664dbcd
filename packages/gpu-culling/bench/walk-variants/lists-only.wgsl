// Instrument, not a walk to ship: the dense walk (module-flat.wgsl) with the bits form taken
// out, so only list form tiles are walked (a bits form tile reads as empty). walk-variant.ts
// (--lists-only) times it on every frame and compares its image only where the culler wrote no
// tile in bits form. It bounds what reading lists in one loop costs, with no bits code at all.
// Like the walks it stands in for, it uses module-flat-common.wgsl and module-walk.wgsl.

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
  let words = cull_list_words(base, header, (*it).kind);
  (*it).at = words.x;
  (*it).stop = select(words.x, words.y, (header & CULL_LIST_FORM) != 0u);
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
