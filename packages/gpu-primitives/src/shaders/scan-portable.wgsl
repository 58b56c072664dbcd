// The portable variant of the chained scan (appended to scan-common.wgsl): invocation 0 looks
// back one tile per poll; the workgroup scan is Hillis-Steele in workgroup memory.

var<workgroup> scan_buffer: array<u32, WORKGROUP_SIZE>;
var<workgroup> look_state: u32;

/** Inclusive Hillis-Steele scan over the workgroup; scan_buffer[255] holds the total after it. */
fn workgroup_inclusive_scan(local: u32, value: u32) -> u32 {
  scan_buffer[local] = value;
  workgroupBarrier();
  for (var offset = 1u; offset < WORKGROUP_SIZE; offset <<= 1u) {
    var add = 0u;
    if (local >= offset) {
      add = scan_buffer[local - offset];
    }
    workgroupBarrier();
    scan_buffer[local] += add;
    workgroupBarrier();
  }
  return scan_buffer[local];
}

/** The fallback: the sum of tile `tile`'s input, computed by the whole workgroup. */
fn reduce_tile(local: u32, tile: u32) -> u32 {
  let sum = partial_tile_sum(tile, local, WORKGROUP_SIZE);
  workgroupBarrier(); // scan_buffer may still be read from its previous use
  workgroup_inclusive_scan(local, sum);
  return scan_buffer[WORKGROUP_SIZE - 1u];
}

/**
 * The exclusive prefix of tile `tile` (> 0), valid in invocation 0. Invocation 0 reads the
 * statuses; the state it saw is shared so that the whole workgroup takes the same branch (and
 * can run the fallback together).
 */
fn look_back(local: u32, tile: u32) -> u32 {
  var prefix = 0u;
  var look = tile - 1u;
  var spins = 0u;
  loop {
    var seen = 0u;
    if (local == 0u) {
      let status = read_status(look);
      look_state = status.x;
      seen = status.y;
    }
    let state = workgroupUniformLoad(&look_state);
    workgroupBarrier(); // everyone has read look_state before invocation 0 writes it again
    if (state == INCLUSIVE) {
      prefix += seen;
      break;
    }
    if (state == AGGREGATE) {
      prefix += seen;
      look -= 1u;
      spins = 0u;
      continue;
    }
    spins += 1u;
    if (spins >= SPIN_LIMIT) {
      prefix += reduce_tile(local, look);
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
fn chained_scan(@builtin(local_invocation_index) local: u32, @builtin(workgroup_id) group_id: vec3<u32>) {
  let tile = take_tile(local, group_id);
  if (tile >= params.tiles) {
    return; // a padding workgroup of a 2D grid
  }
  let first_vec = tile * TILE_VECS;
  let values = load_tile(first_vec, local);
  let before = own_prefixes(local);
  let mine = before[VECS - 1u] + vec_sums[local * VECS + VECS - 1u];
  let inclusive = workgroup_inclusive_scan(local, mine);
  let tile_total = scan_buffer[WORKGROUP_SIZE - 1u];
  if (local == 0u) {
    publish(tile, select(AGGREGATE, INCLUSIVE, tile == 0u), tile_total);
  }
  if (tile > 0u) {
    let prefix = look_back(local, tile);
    if (local == 0u) {
      publish_prefix(tile, prefix, tile_total);
    }
  }
  let offset = tile_offset(tile, local, tile_total);
  write_tile(first_vec, local, values, offset + inclusive - mine, before);
}
