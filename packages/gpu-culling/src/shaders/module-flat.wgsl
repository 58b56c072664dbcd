// Walking a tile's flat bit array in two levels: the bucket mask says which buckets hold
// entities, firstTrailingBit finds them and then the entities in each, so empty buckets are
// never read (buckets with a clear mask bit are not even written by the culling).
// Scalarized (subgroups), each mask word and bucket is OR-ed over the subgroup first (the post's
// one line), so every lane walks the same entities (the union of the subgroup's tiles) with
// uniform loads; a lane adds its own bucket only where its own mask bit is set.

struct CullIterator {
  base: u32,
  first: u32,
  end: u32,
  // The mask word being walked, the last one of the range, this lane's own copy and the bits left.
  mask_word: u32,
  mask_last: u32,
  own_mask: u32,
  mask_bits: u32,
  bucket: u32,
  bits: u32,
}

fn cull_mask_at(it: ptr<function, CullIterator>) {
  (*it).own_mask = cull_tiles[(*it).base + (*it).mask_word];
  (*it).mask_bits = cull_scalar_bucket((*it).own_mask);
}

// Entities [first, end) of `tile`.
fn cull_range(tile: u32, first: u32, end: u32) -> CullIterator {
  var it: CullIterator;
  it.base = tile * cull_view.words_per_tile;
  it.first = first;
  it.end = end;
  if (first >= end) {
    it.mask_word = 1u;
    it.mask_last = 0u;
    return it;
  }
  it.mask_word = (first / 32u) / 32u;
  it.mask_last = ((end - 1u) / 32u) / 32u;
  cull_mask_at(&it);
  it.mask_bits &= 0xffffffffu << ((first / 32u) & 31u);
  return it;
}

fn cull_next(it: ptr<function, CullIterator>) -> u32 {
  loop {
    if ((*it).bits != 0u) {
      let e = (*it).bucket * 32u + firstTrailingBit((*it).bits);
      (*it).bits &= (*it).bits - 1u;
      return select(CULL_END, e, e < (*it).end);
    }
    if ((*it).mask_bits == 0u) {
      if ((*it).mask_word >= (*it).mask_last) {
        return CULL_END;
      }
      (*it).mask_word += 1u;
      cull_mask_at(it);
      continue;
    }
    let bit = firstTrailingBit((*it).mask_bits);
    (*it).mask_bits &= (*it).mask_bits - 1u;
    (*it).bucket = (*it).mask_word * 32u + bit;
    if ((*it).bucket * 32u >= (*it).end) {
      return CULL_END;
    }
    let own = select(0u, cull_tiles[(*it).base + cull_view.mask_words + (*it).bucket], ((*it).own_mask & (1u << bit)) != 0u);
    (*it).bits = cull_scalar_bucket(own);
    if ((*it).bucket == (*it).first / 32u) {
      (*it).bits &= 0xffffffffu << ((*it).first & 31u);
    }
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
