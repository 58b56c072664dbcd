// Flat bit arrays (Drobot): one bit per entity, 32 per bucket, set with atomicOr in workgroup
// memory. Insertion order does not matter, so the result is deterministic and needs no sort.

@group(0) @binding(8) var<storage, read_write> tile_bits: array<u32>;
@group(0) @binding(9) var<storage, read_write> stats: array<atomic<u32>>;

var<workgroup> buckets: array<atomic<u32>, BUCKETS>;
var<workgroup> tile_total: atomic<u32>;

fn tile_begin(lid: u32) {
  for (var b = lid; b < BUCKETS; b += CULL_THREADS) {
    atomicStore(&buckets[b], 0u);
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
  var count = 0u;
  for (var b = lid; b < BUCKETS; b += CULL_THREADS) {
    let word = atomicLoad(&buckets[b]);
    tile_bits[tile * BUCKETS + b] = word;
    count += countOneBits(word);
  }
  if (count != 0u) {
    atomicAdd(&tile_total, count);
  }
  workgroupBarrier();
  if (lid == 0u) {
    atomicStore(&stats[STATS_HEADER + tile], atomicLoad(&tile_total));
  }
}
