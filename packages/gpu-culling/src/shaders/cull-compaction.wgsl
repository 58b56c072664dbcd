// Stream compaction (Andersson): each tile's entity indices appended to a list in workgroup
// memory, at most LIST_CAPACITY of them, then exported after one statistics word
// (decals | probes << 10 | lights << 20 | overflowed << 30). Appends land in atomic order, so
// tiles holding decals or probes (which do not blend additively) are sorted with a bitonic sort
// sized by the next power of two (the "Next power of two in HLSL" trick). Entities past the
// capacity are dropped and counted, never silently. tile_emit comes from
// cull-append-atomic.wgsl or, with subgroups, cull-append-ballot.wgsl.

@group(0) @binding(8) var<storage, read_write> tile_lists: array<u32>;
@group(0) @binding(9) var<storage, read_write> stats: array<atomic<u32>>;

var<workgroup> list: array<u32, SORT_SIZE>;
var<workgroup> list_count: atomic<u32>;
var<workgroup> decal_count: atomic<u32>;
var<workgroup> probe_count: atomic<u32>;
var<workgroup> kept_count: u32;
var<workgroup> sort_size: u32;

fn tile_begin(lid: u32) {
  if (lid == 0u) {
    atomicStore(&list_count, 0u);
    atomicStore(&decal_count, 0u);
    atomicStore(&probe_count, 0u);
  }
}

fn store_entry(slot: u32, e: u32) {
  if (slot < LIST_CAPACITY) {
    list[slot] = e;
    if (e < frame.counts.x) {
      atomicAdd(&decal_count, 1u);
    } else if (e < frame.counts.x + frame.counts.y) {
      atomicAdd(&probe_count, 1u);
    }
  }
}

fn tile_end(tile: u32, lid: u32) {
  if (lid == 0u) {
    let kept = min(atomicLoad(&list_count), LIST_CAPACITY);
    kept_count = kept;
    let boxes = atomicLoad(&decal_count) + atomicLoad(&probe_count);
    sort_size = select(0u, 2u << firstLeadingBit(max(kept, 2u) - 1u), boxes != 0u && kept > 1u);
  }
  let n = workgroupUniformLoad(&sort_size);
  let kept = kept_count;
  if (n != 0u) {
    for (var i = kept + lid; i < n; i += CULL_THREADS) {
      list[i] = 0xffffffffu;
    }
    workgroupBarrier();
    for (var k = 2u; k <= n; k <<= 1u) {
      for (var j = k >> 1u; j > 0u; j >>= 1u) {
        for (var i = lid; i < n; i += CULL_THREADS) {
          let partner = i ^ j;
          if (partner > i) {
            let a = list[i];
            let b = list[partner];
            if ((a > b) == ((i & k) == 0u)) {
              list[i] = b;
              list[partner] = a;
            }
          }
        }
        workgroupBarrier();
      }
    }
  }
  let base = tile * LIST_STRIDE;
  for (var i = lid; i < kept; i += CULL_THREADS) {
    tile_lists[base + 1u + i] = list[i];
  }
  if (lid == 0u) {
    let total = atomicLoad(&list_count);
    let decals = atomicLoad(&decal_count);
    let probes = atomicLoad(&probe_count);
    let overflowed = total > LIST_CAPACITY;
    tile_lists[base] = decals | (probes << 10u) | ((kept - decals - probes) << 20u) | (select(0u, 1u, overflowed) << 30u);
    atomicStore(&stats[STATS_HEADER + tile], kept);
    if (overflowed) {
      atomicAdd(&stats[0], total - LIST_CAPACITY);
      atomicAdd(&stats[1], 1u);
    }
  }
}
