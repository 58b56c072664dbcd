// Compaction append without subgroups: one workgroup atomic per entity that passes.

fn tile_emit(e: u32, hit: bool) {
  if (hit) {
    store_entry(atomicAdd(&list_count, 1u), e);
  }
}
