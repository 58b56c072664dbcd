// Exclusive prefix sum of u32 (wrapping) in one pass: a chained scan with decoupled look-back
// (Merrill and Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back", 2016) and a
// fallback that keeps it correct without forward-progress guarantees between workgroups.
//
// Each workgroup takes the next tile of BLOCK elements by ticket (so every earlier tile belongs to
// a workgroup that has already started), scans it locally and publishes its total (AGGREGATE).
// It then looks back over earlier tiles, adding aggregates until it meets one that knows its
// inclusive prefix (INCLUSIVE), publishes its own inclusive prefix and writes its output. The
// input is read once and the output written once: the traffic of a copy.
//
// A tile's status is two atomic words, each (state << 16 | one 16-bit half of the value), so a
// 32-bit value travels with its state in single atomic stores. A reader only trusts a status
// whose two halves show the same state; states only move forward, so that pair is consistent.
// When a predecessor stays NOT_READY for SPIN_LIMIT polls, the workgroup sums that tile's input
// itself and moves on (Smith, Levien and Owens' decoupled fallback, simplified).

struct Params {
  count: u32,
  tiles: u32,
}

const WORKGROUP_SIZE: u32 = 256u;
// vec4 loads per invocation: a tile is 256 x 4 x 4 = 4096 elements.
const VECS: u32 = 4u;
const TILE_VECS: u32 = 1024u;
const BLOCK: u32 = 4096u;
const NOT_READY: u32 = 0u;
const AGGREGATE: u32 = 1u;
const INCLUSIVE: u32 = 2u;
// Polls of a NOT_READY predecessor before falling back to reducing its tile here.
override SPIN_LIMIT: u32 = 256u;
// Tests only: ignore every published status, so every tile reduces all earlier tiles itself.
override ALWAYS_FALL_BACK: bool = false;

@group(0) @binding(0) var<uniform> params: Params;
// The input is bound twice: as vec4 for the full groups of four, as words for the ragged end
// (two read-only bindings of one buffer may alias). A writable binding may not alias, so the
// output's ragged end (1 to 3 words) goes to `tail`, which the host copies into place.
@group(0) @binding(1) var<storage, read> input_words: array<u32>;
@group(0) @binding(2) var<storage, read> input_vecs: array<vec4<u32>>;
@group(0) @binding(3) var<storage, read_write> tail: array<u32, 4>;
@group(0) @binding(4) var<storage, read_write> output_vecs: array<vec4<u32>>;
// [0]: the tile ticket counter; [1 + 2 t], [2 + 2 t]: tile t's status. Cleared before each scan.
@group(0) @binding(5) var<storage, read_write> status: array<atomic<u32>>;
@group(0) @binding(6) var<storage, read_write> total: array<u32>;

var<workgroup> vec_sums: array<u32, TILE_VECS>;
var<workgroup> scan_buffer: array<u32, WORKGROUP_SIZE>;
var<workgroup> ticket: u32;
var<workgroup> look_state: u32;
var<workgroup> tile_prefix: u32;

fn load_vec(v: u32) -> vec4<u32> {
  let first = v * 4u;
  if (first + 4u <= params.count) {
    return input_vecs[v];
  }
  var out = vec4<u32>(0u);
  for (var c = 0u; c < 4u; c++) {
    if (first + c < params.count) {
      out[c] = input_words[first + c];
    }
  }
  return out;
}

fn store_vec(v: u32, value: vec4<u32>) {
  let first = v * 4u;
  if (first + 4u <= params.count) {
    output_vecs[v] = value;
    return;
  }
  for (var c = 0u; c < 4u; c++) {
    if (first + c < params.count) {
      tail[c] = value[c];
    }
  }
}

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

/** The fallback: the sum of tile `tile`'s input, computed by this workgroup. */
fn reduce_tile(local: u32, tile: u32) -> u32 {
  var sum = 0u;
  for (var k = 0u; k < VECS; k++) {
    let v = load_vec(tile * TILE_VECS + k * WORKGROUP_SIZE + local);
    sum += (v.x + v.y) + (v.z + v.w);
  }
  workgroupBarrier(); // scan_buffer may still be read from the previous use
  workgroup_inclusive_scan(local, sum);
  return scan_buffer[WORKGROUP_SIZE - 1u];
}

fn publish(tile: u32, state: u32, value: u32) {
  atomicStore(&status[1u + 2u * tile], (state << 16u) | (value & 0xffffu));
  atomicStore(&status[2u + 2u * tile], (state << 16u) | (value >> 16u));
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn chained_scan(@builtin(local_invocation_index) local: u32) {
  if (local == 0u) {
    ticket = atomicAdd(&status[0], 1u);
  }
  let tile = workgroupUniformLoad(&ticket);
  if (tile >= params.tiles) {
    return; // a padding workgroup of a 2D grid
  }

  // Coalesced vec4 loads; each vec4's sum goes to workgroup memory, where every invocation then
  // takes four consecutive vec4s (16 consecutive elements) for its serial part of the scan.
  let first_vec = tile * TILE_VECS;
  var values = array<vec4<u32>, VECS>();
  for (var k = 0u; k < VECS; k++) {
    let v = load_vec(first_vec + k * WORKGROUP_SIZE + local);
    values[k] = v;
    vec_sums[k * WORKGROUP_SIZE + local] = (v.x + v.y) + (v.z + v.w);
  }
  workgroupBarrier();
  var before_vec = array<u32, VECS>();
  var mine = 0u;
  for (var k = 0u; k < VECS; k++) {
    before_vec[k] = mine;
    mine += vec_sums[local * VECS + k];
  }
  let inclusive = workgroup_inclusive_scan(local, mine);
  let tile_total = scan_buffer[WORKGROUP_SIZE - 1u];
  if (local == 0u) {
    publish(tile, select(AGGREGATE, INCLUSIVE, tile == 0u), tile_total);
  }

  // Look back. Only invocation 0 reads statuses and accumulates; the state it saw is shared
  // so that the whole workgroup takes the same branch (and can run the fallback together).
  var prefix = 0u;
  if (tile > 0u) {
    var look = tile - 1u;
    var spins = 0u;
    loop {
      var seen = 0u;
      if (local == 0u) {
        let low = atomicLoad(&status[1u + 2u * look]);
        let high = atomicLoad(&status[2u + 2u * look]);
        let state = select(NOT_READY, low >> 16u, (low >> 16u) == (high >> 16u) && !ALWAYS_FALL_BACK);
        seen = (low & 0xffffu) | (high << 16u);
        look_state = state;
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
    if (local == 0u) {
      publish(tile, INCLUSIVE, prefix + tile_total);
      tile_prefix = prefix;
    }
  }
  // tile_prefix is only written for tiles after the first; the first tile's prefix is 0.
  var offset = 0u;
  if (tile > 0u) {
    offset = workgroupUniformLoad(&tile_prefix);
  }
  if (tile == params.tiles - 1u && local == 0u) {
    total[0] = offset + tile_total;
  }

  // Exclusive prefix of each of this invocation's vec4s, back through workgroup memory to the
  // invocations that loaded them.
  let before_mine = offset + inclusive - mine;
  for (var k = 0u; k < VECS; k++) {
    vec_sums[local * VECS + k] = before_mine + before_vec[k];
  }
  workgroupBarrier();
  for (var k = 0u; k < VECS; k++) {
    let at = k * WORKGROUP_SIZE + local;
    let v = values[k];
    let start = vec_sums[at];
    store_vec(first_vec + at, vec4<u32>(start, start + v.x, start + v.x + v.y, start + v.x + v.y + v.z));
  }
}
