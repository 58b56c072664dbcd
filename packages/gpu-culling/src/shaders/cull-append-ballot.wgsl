// Compaction append with subgroups (the post's wave-intrinsics version): a ballot counts the
// lanes that append, one lane reserves room for all of them with a single atomic, and each lane
// writes at the reserved base plus its rank among the appending lanes.

fn tile_emit(e: u32, hit: bool) {
  let ballot = countOneBits(subgroupBallot(hit));
  let appending = ballot.x + ballot.y + ballot.z + ballot.w;
  var base = 0u;
  if (subgroupElect() && appending != 0u) {
    base = atomicAdd(&list_count, appending);
  }
  base = subgroupBroadcastFirst(base);
  let rank = subgroupExclusiveAdd(select(0u, 1u, hit));
  if (hit) {
    store_entry(base + rank, e);
  }
}
