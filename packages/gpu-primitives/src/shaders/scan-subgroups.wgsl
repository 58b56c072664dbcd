// The subgroup variant of the chained scan (appended to scan-common.wgsl, after `enable
// subgroups`): the subgroup holding invocation 0 looks back over one tile per lane per poll,
// and the workgroup scan is a subgroup scan plus the totals of the subgroups before.
// Subgroup i is taken to be invocations [i * size, (i + 1) * size), as on every driver we know.

var<workgroup> subgroup_totals: array<u32, 64>;

/** Inclusive scan over the workgroup: x = this invocation's result, y = the workgroup total. */
fn workgroup_inclusive_scan(local: u32, value: u32, size: u32) -> vec2<u32> {
  let within = subgroupInclusiveAdd(value);
  let subgroup = local / size;
  if (local % size == size - 1u) {
    subgroup_totals[subgroup] = within;
  }
  workgroupBarrier();
  var before = 0u;
  var sum = 0u;
  for (var s = 0u; s < WORKGROUP_SIZE / size; s++) {
    let t = subgroup_totals[s];
    before += select(0u, t, s < subgroup);
    sum += t;
  }
  return vec2<u32>(before + within, sum);
}

fn lowest_lane_or(mask: vec4<u32>, none: u32) -> u32 {
  for (var word = 0u; word < 4u; word++) {
    if (mask[word] != 0u) {
      return word * 32u + countTrailingZeros(mask[word]);
    }
  }
  return none;
}

/**
 * The exclusive prefix of tile `tile` (> 0), run by one subgroup. Lane i reads tile look - i;
 * everything nearer than the nearest INCLUSIVE tile must be AGGREGATE to finish. Otherwise the
 * aggregates before the nearest NOT_READY tile are taken and the window moves past them.
 */
fn look_back(tile: u32, lane: u32, size: u32) -> u32 {
  var prefix = 0u;
  var look = tile - 1u;
  var spins = 0u;
  loop {
    // Lanes past tile 0 read nothing and count as INCLUSIVE with value 0.
    var status = vec2<u32>(INCLUSIVE, 0u);
    if (lane <= look) {
      status = read_status(look - lane);
    }
    let nearest_inclusive = lowest_lane_or(subgroupBallot(status.x == INCLUSIVE), 128u);
    let nearest_not_ready = lowest_lane_or(subgroupBallot(status.x == NOT_READY), 128u);
    if (nearest_inclusive < nearest_not_ready) {
      prefix += subgroupAdd(select(0u, status.y, lane <= nearest_inclusive));
      break;
    }
    if (nearest_not_ready > 0u) {
      // Every lane before it is AGGREGATE (when nothing is NOT_READY, all lanes are).
      let taken = min(nearest_not_ready, size);
      prefix += subgroupAdd(select(0u, status.y, lane < taken));
      look -= taken;
      spins = 0u;
      continue;
    }
    spins += 1u;
    if (spins >= SPIN_LIMIT) {
      prefix += subgroupAdd(partial_tile_sum(look, lane, size));
      if (look == 0u) {
        break; // every earlier tile is summed
      }
      look -= 1u;
      spins = 0u;
    }
  }
  return prefix;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn chained_scan(
  @builtin(local_invocation_index) local: u32,
  @builtin(workgroup_id) group_id: vec3<u32>,
  @builtin(subgroup_invocation_id) lane: u32,
  @builtin(subgroup_size) size: u32,
) {
  let tile = take_tile(local, group_id);
  if (tile >= params.tiles) {
    return; // a padding workgroup of a 2D grid
  }
  let first_vec = tile * TILE_VECS;
  let values = load_tile(first_vec, local);
  let before = own_prefixes(local);
  let mine = before[VECS - 1u] + vec_sums[local * VECS + VECS - 1u];
  let scanned = workgroup_inclusive_scan(local, mine, size);
  let tile_total = scanned.y;
  if (local == 0u) {
    publish(tile, select(AGGREGATE, INCLUSIVE, tile == 0u), tile_total);
  }
  if (tile > 0u && local < size) {
    let prefix = look_back(tile, lane, size);
    if (local == 0u) {
      publish_prefix(tile, prefix, tile_total);
    }
  }
  let offset = tile_offset(tile, local, tile_total);
  write_tile(first_vec, local, values, offset + scanned.x - mine, before);
}
