// The sparse walk over flat bits (`walk: 'sparse'`, the default up to 8,192 maxEntities): the
// same tiles, entities and order as module-flat.wgsl (the dense walk), in one loop shaped like the
// loop over compaction lists. A list form tile's next entry is its first test, so a pixel whose
// tile holds a light or none pays what it would over compaction lists; a bits form tile fails
// that test at once (its `stop` is 0) and takes one step below it per call: the next set bit from
// a cursor, reading the mask word and the bucket it needs again (both cached) instead of holding
// them. Holding nothing keeps the iterator at 8 fields, and the loop free of a loop inside it.
// Why two walks: on an H200 this loop was 13% faster than the dense walk at 1,024 lights (4K) and
// 5-12% slower from 16,384, where the dense walk's straight-line read before its loop pays (see
// BENCHMARKS.md). Scalarized, the subgroup walks one tile at a time as in the dense walk.

struct CullIterator {
  tile: u32,
  kind: u32,
  pending: bool,
  walking: u32,
  base: u32,
  list: bool,
  // List form: the next word and the end of the kind's entries. Bits form: the next entity
  // index to look at (the cursor), and 0.
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
  (*it).base = base;
  let header = cull_tiles[base];
  (*it).list = (header & CULL_LIST_FORM) != 0u;
  if ((*it).list) {
    let words = cull_list_words(base, header, (*it).kind);
    (*it).at = words.x;
    (*it).stop = words.y;
    return;
  }
  // Bits form: the cursor in `at`; `stop` 0 so that the list test below fails at once.
  (*it).at = cull_kind_range((*it).kind).x;
  (*it).stop = 0u;
}

fn cull_next(it: ptr<function, CullIterator>) -> u32 {
  loop {
    if ((*it).walking == CULL_END) {
      return CULL_END;
    }
    // A list's next entry: the loop over compaction lists, test for test.
    if ((*it).at < (*it).stop) {
      let e = cull_tiles[(*it).at];
      (*it).at += 1u;
      return select(CULL_SKIP, e, (*it).walking == (*it).tile);
    }
    if (!(*it).list) {
      // One step of a bits form tile from the cursor to the kind's end.
      let end = cull_kind_range((*it).kind).y;
      if ((*it).at < end) {
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
        if (x < end) {
          (*it).at = x + 1u;
          return select(CULL_SKIP, x, (*it).walking == (*it).tile);
        }
      }
    }
    if ((*it).walking == (*it).tile) {
      (*it).pending = false;
    }
    cull_start(it);
  }
}
