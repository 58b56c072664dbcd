// Walking a tile's flat bit array: buckets in order, firstTrailingBit for the next set bit.
// Scalarized (subgroups), each bucket is OR-ed over the subgroup first (the post's one line), so
// every lane walks the same entities (the union of the subgroup's tiles) with uniform loads.

struct CullIterator {
  base: u32,
  word: u32,
  last_word: u32,
  end: u32,
  bits: u32,
}

fn cull_load_bucket(index: u32) -> u32 {
  return cull_scalar_bucket(cull_tiles[index]);
}

// Entities [first, end) of `tile`.
fn cull_range(tile: u32, first: u32, end: u32) -> CullIterator {
  var it: CullIterator;
  it.base = tile * cull_view.words_per_tile;
  it.end = end;
  it.word = first / 32u;
  it.last_word = (max(end, 1u) - 1u) / 32u;
  if (first >= end) {
    it.word = 1u;
    it.last_word = 0u;
    return it;
  }
  it.bits = cull_load_bucket(it.base + it.word) & (0xffffffffu << (first & 31u));
  return it;
}

fn cull_next(it: ptr<function, CullIterator>) -> u32 {
  loop {
    if ((*it).bits != 0u) {
      let e = (*it).word * 32u + firstTrailingBit((*it).bits);
      (*it).bits &= (*it).bits - 1u;
      return select(CULL_END, e, e < (*it).end);
    }
    if ((*it).word >= (*it).last_word) {
      return CULL_END;
    }
    (*it).word += 1u;
    (*it).bits = cull_load_bucket((*it).base + (*it).word);
  }
}

fn cull_decals(tile: u32) -> CullIterator {
  return cull_range(tile, 0u, cull_view.decals);
}

fn cull_probes(tile: u32) -> CullIterator {
  return cull_range(tile, cull_view.decals, cull_view.decals + cull_view.probes);
}

fn cull_lights(tile: u32) -> CullIterator {
  let first = cull_view.decals + cull_view.probes;
  return cull_range(tile, first, first + cull_view.lights);
}
