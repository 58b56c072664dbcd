// Instrument, measured for issue #39: module-flat.wgsl with an 8-field iterator. A bits form
// tile is walked from a cursor (the next entity index to consider) to the kind's end, in the
// same two fields a list uses; each step reads the mask word and the bucket it needs again
// (cached) instead of holding them. One loop, one step an iteration. Same entities, same order.

const CULL_LIST_FORM: u32 = 0x80000000u;
const CULL_FLAT_HEADER: u32 = 1u;
const CULL_LIST_HEADER: u32 = 1u;

struct CullIterator {
  tile: u32,
  kind: u32,
  pending: bool,
  walking: u32,
  base: u32,
  list: bool,
  // List form: the next word and the end of the kind's entries. Bits form: the next entity
  // index to consider and the end of the kind's range.
  at: u32,
  stop: u32,
}

// Entities [first, end) of the kind: decals, then probes, then lights.
fn cull_kind_range(kind: u32) -> vec2u {
  let first = select(select(cull_view.decals + cull_view.probes, cull_view.decals, kind == 1u), 0u, kind == 0u);
  let count = select(select(cull_view.lights, cull_view.probes, kind == 1u), cull_view.decals, kind == 0u);
  return vec2u(first, first + count);
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
    let decals = header & 0x3ffu;
    let boxes = decals + ((header >> 10u) & 0x3ffu);
    let lights = (header >> 20u) & 0x7ffu;
    let start = select(select(boxes, decals, (*it).kind == 1u), 0u, (*it).kind == 0u);
    let stop = select(select(boxes + lights, boxes, (*it).kind == 1u), decals, (*it).kind == 0u);
    (*it).at = base + CULL_LIST_HEADER + start;
    (*it).stop = base + CULL_LIST_HEADER + stop;
    return;
  }
  let range = cull_kind_range((*it).kind);
  (*it).at = range.x;
  (*it).stop = range.y;
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
    if ((*it).at < (*it).stop) {
      if ((*it).list) {
        e = cull_tiles[(*it).at];
        (*it).at += 1u;
      } else {
        let bucket = (*it).at / 32u;
        let word = bucket / 32u;
        let mask = cull_tiles[(*it).base + CULL_FLAT_HEADER + word] & (0xffffffffu << (bucket & 31u));
        if (mask == 0u) {
          (*it).at = (word + 1u) * 1024u;
          continue;
        }
        let found = word * 32u + firstTrailingBit(mask);
        let skip = select(0u, (*it).at & 31u, found == bucket);
        let bits = cull_tiles[(*it).base + CULL_FLAT_HEADER + cull_view.mask_words + found] & (0xffffffffu << skip);
        if (bits == 0u) {
          (*it).at = (found + 1u) * 32u;
          continue;
        }
        let x = found * 32u + firstTrailingBit(bits);
        (*it).at = x + 1u;
        if (x < (*it).stop) {
          e = x;
        } else {
          (*it).at = (*it).stop;
        }
      }
    }
    if (e != CULL_END) {
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

// Instrument addition (issue #39): the words of the walked tile that list this kind's entities,
// when the lane walks its own list form tile; they are taken from the iterator, so cull_next
// then walks only what is left (a bits form tile's entities; nothing after a list).
fn cull_list_words(it: ptr<function, CullIterator>) -> vec2u {
  if ((*it).list && (*it).walking == (*it).tile) {
    let words = vec2u((*it).at, (*it).stop);
    (*it).at = (*it).stop;
    return words;
  }
  return vec2u(0u, 0u);
}
