// Flat bit arrays (Drobot): one bit per entity, 32 per bucket, set with atomicOr in workgroup
// memory. Insertion order does not matter, so the result is deterministic and needs no sort.
// Each tile is written as MASK_WORDS words of a bucket mask (one bit per non-empty bucket, the
// second-level bitmask the post mentions), then BUCKETS buckets. Only non-empty buckets are
// written; a reader looks at a bucket only where its mask bit is set, so with tens of thousands
// of entities a tile costs a few hundred bytes of writes instead of kilobytes, and shading skips
// the empty buckets without reading them.

@group(0) @binding(8) var<storage, read_write> tile_bits: array<u32>;
@group(0) @binding(9) var<storage, read_write> stats: array<atomic<u32>>;

var<workgroup> buckets: array<atomic<u32>, BUCKETS>;
var<workgroup> bucket_mask: array<atomic<u32>, MASK_WORDS>;
var<workgroup> tile_total: atomic<u32>;

fn tile_begin(lid: u32) {
  for (var b = lid; b < BUCKETS; b += CULL_THREADS) {
    atomicStore(&buckets[b], 0u);
  }
  for (var m = lid; m < MASK_WORDS; m += CULL_THREADS) {
    atomicStore(&bucket_mask[m], 0u);
  }
  if (lid == 0u) {
    atomicStore(&tile_total, 0u);
  }
}

fn tile_emit(e: u32, hit: bool) {
  if (hit) {
    atomicOr(&buckets[e >> 5u], 1u << (e & 31u));
  }
}

fn tile_end(tile: u32, lid: u32) {
  let base = tile * (MASK_WORDS + BUCKETS);
  var count = 0u;
  for (var b = lid; b < BUCKETS; b += CULL_THREADS) {
    let word = atomicLoad(&buckets[b]);
    if (word != 0u) {
      tile_bits[base + MASK_WORDS + b] = word;
      atomicOr(&bucket_mask[b >> 5u], 1u << (b & 31u));
      count += countOneBits(word);
    }
  }
  if (count != 0u) {
    atomicAdd(&tile_total, count);
  }
  workgroupBarrier();
  for (var m = lid; m < MASK_WORDS; m += CULL_THREADS) {
    tile_bits[base + m] = atomicLoad(&bucket_mask[m]);
  }
  if (lid == 0u) {
    atomicStore(&stats[STATS_HEADER + tile], atomicLoad(&tile_total));
  }
}
