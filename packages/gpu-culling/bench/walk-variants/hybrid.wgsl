// Instrument, measured for issue #39: after-held.wgsl's loop below 8,192 entities, the shipped
// walk (next list entry before any loop) from there, chosen by a uniform.

// Walking a tile of the flat-bits technique, in whichever form the culler wrote it (see
// cull-flat.wgsl): a list form tile is read one index per entity, from where its kind starts
// (the header alone says where, much as a compaction list's statistics word does); a
// bits form tile in two levels, the bucket mask saying which buckets hold entities and
// firstTrailingBit finding them, so empty buckets are never read.
// Scalarized (subgroups), the subgroup walks one tile at a time with uniform loads (the smallest
// tile index among lanes still waiting); lanes of other tiles get CULL_SKIP meanwhile, so each
// lane sees exactly its own tile's entities. In a 16x16 tile most subgroups hold one tile.

const CULL_LIST_FORM: u32 = 0x80000000u;
const CULL_FLAT_HEADER: u32 = 1u;
const CULL_LIST_HEADER: u32 = 1u;

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

// Entities [first, end) of the kind: decals, then probes, then lights.
fn cull_kind_range(kind: u32) -> vec2u {
  let first = select(select(cull_view.decals + cull_view.probes, cull_view.decals, kind == 1u), 0u, kind == 0u);
  let count = select(select(cull_view.lights, cull_view.probes, kind == 1u), cull_view.decals, kind == 0u);
  return vec2u(first, first + count);
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
    // The header counts each kind as a compaction list's statistics word does.
    let decals = header & 0x3ffu;
    let boxes = decals + ((header >> 10u) & 0x3ffu);
    let lights = (header >> 20u) & 0x7ffu;
    let start = select(select(boxes, decals, (*it).kind == 1u), 0u, (*it).kind == 0u);
    let stop = select(select(boxes + lights, boxes, (*it).kind == 1u), decals, (*it).kind == 0u);
    (*it).at = base + CULL_LIST_HEADER + start;
    (*it).stop = base + CULL_LIST_HEADER + stop;
    return;
  }
  (*it).at = 0u;
  (*it).stop = 0u;
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

fn cull_walk(tile: u32, kind: u32) -> CullIterator {
  var it: CullIterator;
  it.tile = tile;
  it.kind = kind;
  it.pending = true;
  cull_start(&it);
  return it;
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

// One loop whose list test comes first, as over compaction lists (a bits form tile has
// at = stop = 0 and fails it); a bits form tile then walks its held buckets.
fn cull_next_sparse(it: ptr<function, CullIterator>) -> u32 {
  loop {
    if ((*it).walking == CULL_END) {
      return CULL_END;
    }
    if ((*it).at < (*it).stop) {
      let e = cull_tiles[(*it).at];
      (*it).at += 1u;
      return select(CULL_SKIP, e, (*it).walking == (*it).tile);
    }
    if (!(*it).list) {
      let e = cull_next_bit(it);
      if (e != CULL_END) {
        return select(CULL_SKIP, e, (*it).walking == (*it).tile);
      }
    }
    if ((*it).walking == (*it).tile) {
      (*it).pending = false;
    }
    cull_start(it);
  }
}

fn cull_next(it: ptr<function, CullIterator>) -> u32 {
  // Few entities: one loop (list test first). Many: the next list entry before any loop.
  if (cull_view.decals + cull_view.probes + cull_view.lights < 8192u) {
    return cull_next_sparse(it);
  }
  if ((*it).at < (*it).stop) {
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

fn cull_decals(tile: u32) -> CullIterator {
  return cull_walk(tile, 0u);
}

fn cull_probes(tile: u32) -> CullIterator {
  return cull_walk(tile, 1u);
}

fn cull_lights(tile: u32) -> CullIterator {
  return cull_walk(tile, 2u);
}
