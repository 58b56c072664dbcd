// Walking a tile of the flat-bits technique, in whichever form the culler wrote it (see
// cull-flat.wgsl): a list form tile is read one index per entity, from where its kind starts
// (the header alone says where, much as a compaction list's statistics word does); a
// bits form tile in two levels, the bucket mask saying which buckets hold entities and
// firstTrailingBit finding them, so empty buckets are never read.
// Scalarized (subgroups), the subgroup walks one tile at a time with uniform loads (the smallest
// tile index among lanes still waiting); lanes of other tiles get CULL_SKIP meanwhile, so each
// lane sees exactly its own tile's entities. In a 16x16 tile most subgroups hold one tile.

struct CullIterator {
  tile: u32,
  kind: u32,
  pending: bool,
  // The tile the subgroup walks now (this lane's own without subgroups), and its first word.
  walking: u32,
  base: u32,
  list: bool,
  // List form: the next word and the end of the kind's entries.
  at: u32,
  stop: u32,
  // Bits form: the entity range of the kind, the mask word being walked, the last one of the
  // range, its bits left, the bucket being walked and its bits left.
  first: u32,
  end: u32,
  mask_word: u32,
  mask_last: u32,
  mask_bits: u32,
  bucket: u32,
  bits: u32,
}

fn cull_mask_at(it: ptr<function, CullIterator>) {
  (*it).mask_bits = cull_tiles[(*it).base + CULL_FLAT_HEADER + (*it).mask_word];
}

fn cull_start(it: ptr<function, CullIterator>) {
  let walking = cull_first_pending((*it).tile, (*it).pending);
  (*it).walking = walking;
  if (walking == CULL_END) {
    return;
  }
  let base = walking * cull_view.words_per_tile;
  (*it).base = base;
  let header = cull_tiles[base];
  (*it).list = (header & CULL_LIST_FORM) != 0u;
  if ((*it).list) {
    let words = cull_list_words(base, header, (*it).kind);
    (*it).at = words.x;
    (*it).stop = words.y;
    return;
  }
  let range = cull_kind_range((*it).kind);
  (*it).first = range.x;
  (*it).end = range.y;
  (*it).bits = 0u;
  if (range.x >= range.y) {
    (*it).mask_word = 1u;
    (*it).mask_last = 0u;
    (*it).mask_bits = 0u;
    return;
  }
  (*it).mask_word = (range.x / 32u) / 32u;
  (*it).mask_last = ((range.y - 1u) / 32u) / 32u;
  cull_mask_at(it);
  (*it).mask_bits &= 0xffffffffu << ((range.x / 32u) & 31u);
}

// The next entity of the walked tile in bits form, or CULL_END when it has no more.
fn cull_next_bit(it: ptr<function, CullIterator>) -> u32 {
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
    (*it).bits = cull_tiles[(*it).base + CULL_FLAT_HEADER + cull_view.mask_words + (*it).bucket];
    if ((*it).bucket == (*it).first / 32u) {
      (*it).bits &= 0xffffffffu << ((*it).first & 31u);
    }
  }
}

fn cull_next(it: ptr<function, CullIterator>) -> u32 {
  // The common case first, straight-line: a list form tile with entries left.
  if ((*it).list && (*it).at < (*it).stop) {
    let e = cull_tiles[(*it).at];
    (*it).at += 1u;
    return select(CULL_SKIP, e, (*it).walking == (*it).tile);
  }
  return cull_next_slow(it);
}

fn cull_next_slow(it: ptr<function, CullIterator>) -> u32 {
  loop {
    if ((*it).walking == CULL_END) {
      return CULL_END;
    }
    var e = CULL_END;
    if ((*it).list) {
      if ((*it).at < (*it).stop) {
        e = cull_tiles[(*it).at];
        (*it).at += 1u;
      }
    } else {
      e = cull_next_bit(it);
    }
    if (e != CULL_END) {
      return select(CULL_SKIP, e, (*it).walking == (*it).tile);
    }
    // This tile is done: on to the subgroup's next one, if any.
    if ((*it).walking == (*it).tile) {
      (*it).pending = false;
    }
    cull_start(it);
  }
}
