// Flat bit arrays (Drobot): one bit per entity, 32 per bucket, set with atomicOr in workgroup
// memory. Insertion order does not matter, so the result is deterministic and needs no sort.
//
// A tile is written in one of two forms, chosen per tile by its entity count:
// - list form, where the list fits in the tile's words and the tile has at most 1023 decals,
//   1023 probes and 2047 lights (TILE_LISTS): a header (LIST_FORM | decals | probes << 10 |
//   lights << 20, a compaction list's statistics word with one more bit for lights), then the
//   entity indices in ascending order.
//   Shading then reads one word per entity, as over a compaction list, and nothing is dropped.
// - bits form otherwise: a zero header, MASK_WORDS words of bucket mask (one bit per non-empty
//   bucket, the post's second-level bitmask), then BUCKETS buckets, only the non-empty ones
//   written; a reader looks at a bucket only where its mask bit is set.
// Both forms walk the same entities in the same ascending order, so shading over either adds
// lights in the same order and gives the same bits.

@group(0) @binding(8) var<storage, read_write> tile_bits: array<u32>;
@group(0) @binding(9) var<storage, read_write> stats: array<atomic<u32>>;

var<workgroup> buckets: array<atomic<u32>, BUCKETS>;
var<workgroup> bucket_mask: array<atomic<u32>, MASK_WORDS>;
var<workgroup> tile_decals: atomic<u32>;
var<workgroup> tile_probes: atomic<u32>;
// Entities in each invocation's run of buckets, scanned into where its part of the list starts.
var<workgroup> list_scan: array<u32, CULL_THREADS>;

const TILE_WORDS: u32 = FLAT_HEADER + MASK_WORDS + BUCKETS;
// Most decals or probes (10 bits each) and lights (11 bits) a list form header can count.
const BOXES_MOST: u32 = 1023u;
const LIGHTS_MOST: u32 = 2047u;
// Each invocation owns a contiguous run of buckets, so the list comes out in ascending order.
const RUN: u32 = (BUCKETS + CULL_THREADS - 1u) / CULL_THREADS;

fn tile_begin(lid: u32) {
  for (var b = lid; b < BUCKETS; b += CULL_THREADS) {
    atomicStore(&buckets[b], 0u);
  }
  for (var m = lid; m < MASK_WORDS; m += CULL_THREADS) {
    atomicStore(&bucket_mask[m], 0u);
  }
  if (lid == 0u) {
    atomicStore(&tile_decals, 0u);
    atomicStore(&tile_probes, 0u);
  }
}

fn tile_emit(e: u32, hit: bool) {
  if (hit) {
    atomicOr(&buckets[e >> 5u], 1u << (e & 31u));
  }
}

// The set bits of bucket `b` that stand for entities below `limit`.
fn bits_below(word: u32, b: u32, limit: u32) -> u32 {
  let first = b * 32u;
  if (limit <= first) {
    return 0u;
  }
  if (limit - first >= 32u) {
    return countOneBits(word);
  }
  return countOneBits(word & ((1u << (limit - first)) - 1u));
}

fn tile_end(tile: u32, lid: u32) {
  let base = tile * TILE_WORDS;
  let run_first = min(lid * RUN, BUCKETS);
  let run_end = min(run_first + RUN, BUCKETS);
  let decals_end = frame.counts.x;
  let probes_end = frame.counts.x + frame.counts.y;
  var mine = 0u;
  var decals = 0u;
  var below_lights = 0u;
  for (var b = run_first; b < run_end; b++) {
    let word = atomicLoad(&buckets[b]);
    if (word != 0u) {
      atomicOr(&bucket_mask[b >> 5u], 1u << (b & 31u));
      mine += countOneBits(word);
      decals += bits_below(word, b, decals_end);
      below_lights += bits_below(word, b, probes_end);
    }
  }
  if (decals != 0u) {
    atomicAdd(&tile_decals, decals);
  }
  if (below_lights != decals) {
    atomicAdd(&tile_probes, below_lights - decals);
  }
  list_scan[lid] = mine;
  workgroupBarrier();
  // Inclusive scan of the runs' counts (Hillis-Steele: log2(CULL_THREADS) steps).
  for (var step = 1u; step < CULL_THREADS; step <<= 1u) {
    let add = select(0u, list_scan[max(lid, step) - step], lid >= step);
    workgroupBarrier();
    list_scan[lid] += add;
    workgroupBarrier();
  }
  let total = list_scan[CULL_THREADS - 1u];
  let decals_here = atomicLoad(&tile_decals);
  let probes_here = atomicLoad(&tile_probes);
  let lights_here = total - decals_here - probes_here;
  if (TILE_LISTS && total + LIST_HEADER <= TILE_WORDS && max(decals_here, probes_here) <= BOXES_MOST && lights_here <= LIGHTS_MOST) {
    var at = base + LIST_HEADER + list_scan[lid] - mine;
    for (var b = run_first; b < run_end; b++) {
      var word = atomicLoad(&buckets[b]);
      while (word != 0u) {
        tile_bits[at] = b * 32u + firstTrailingBit(word);
        at += 1u;
        word &= word - 1u;
      }
    }
    if (lid == 0u) {
      tile_bits[base] = LIST_FORM | decals_here | (probes_here << 10u) | (lights_here << 20u);
    }
  } else {
    for (var b = lid; b < BUCKETS; b += CULL_THREADS) {
      let word = atomicLoad(&buckets[b]);
      if (word != 0u) {
        tile_bits[base + FLAT_HEADER + MASK_WORDS + b] = word;
      }
    }
    for (var m = lid; m < MASK_WORDS; m += CULL_THREADS) {
      tile_bits[base + FLAT_HEADER + m] = atomicLoad(&bucket_mask[m]);
    }
    if (lid == 0u) {
      tile_bits[base] = 0u;
    }
  }
  if (lid == 0u) {
    atomicStore(&stats[STATS_HEADER + tile], total);
  }
}
