// Exclusive prefix sum of u32 (wrapping) in one pass: a chained scan with decoupled look-back
// (Merrill and Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back", 2016) and a
// fallback that keeps it correct without forward-progress guarantees between workgroups.
//
// Each workgroup takes a tile of elements, by its place in the dispatch (the default: GPUs start
// workgroups in order, and the fallback covers one that does not) or by ticket (an atomic
// counter, so every earlier tile belongs to a workgroup that has already started; one global
// atomic before the loads: 2% to 1.7x slower across the lent H100s), scans it locally and
// publishes its total (AGGREGATE).
// It then looks back over earlier tiles, adding aggregates until it meets one that knows its
// inclusive prefix (INCLUSIVE), publishes its own inclusive prefix and writes its output. The
// input is read once and the output written once: the traffic of a copy.
//
// A tile's status is two atomic words, each (state << 16 | one 16-bit half of the value), so a
// 32-bit value travels with its state in single atomic stores. A reader only trusts a status
// whose two halves show the same state; states only move forward, so that pair is consistent.
// When a predecessor stays NOT_READY for SPIN_LIMIT polls, the workgroup sums that tile's input
// itself and moves on (Smith, Levien and Owens' decoupled fallback, simplified).
//
// This file holds what both variants share; the host appends scan-portable.wgsl (invocation 0
// looks back one tile at a time, Hillis-Steele workgroup scan) or scan-subgroups.wgsl (a whole
// subgroup looks back over as many tiles as it has lanes, subgroup scans).

struct Params {
  count: u32,
  tiles: u32,
  // Workgroups per row of a 2D grid, for tiles taken in dispatch order.
  tiles_per_row: u32,
}

const WORKGROUP_SIZE: u32 = 256u;
// The host puts VECS (vec4 loads per invocation) and TILE_VECS (= 256 x VECS) in front: a tile
// is 256 x 8 x 4 = 8192 elements (SCAN_BLOCK in scan-plan.ts), or 256 x 4 x 4 = 4096 in subgroup
// scans of up to SMALL_SCAN_MAX elements (scanBlockFor).
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
// [0]: the tile ticket counter; [1 + 2 t], [2 + 2 t]: tile t's status. Zero before each scan
// (cleared by GpuScan.encode, or by its caller: clearsStatus).
// Tiles by ticket (true) or in dispatch order (false, the default).
override TILES_BY_TICKET: bool = false;
@group(0) @binding(5) var<storage, read_write> status: array<atomic<u32>>;
@group(0) @binding(6) var<storage, read_write> total: array<u32>;

var<workgroup> vec_sums: array<u32, TILE_VECS>;
var<workgroup> ticket: u32;
var<workgroup> tile_prefix: u32;

/** This workgroup's tile: by ticket, or its place in the (possibly 2D) dispatch. */
fn take_tile(local: u32, group_id: vec3<u32>) -> u32 {
  if (!TILES_BY_TICKET) {
    return group_id.x + group_id.y * params.tiles_per_row;
  }
  if (local == 0u) {
    ticket = atomicAdd(&status[0], 1u);
  }
  return workgroupUniformLoad(&ticket);
}

/**
 * Coalesced vec4 loads of the tile; each vec4's sum goes to vec_sums, from which every
 * invocation then takes VECS consecutive vec4s for its serial part of the scan.
 */
fn load_tile(first_vec: u32, local: u32) -> array<vec4<u32>, VECS> {
  var values = array<vec4<u32>, VECS>();
  for (var k = 0u; k < VECS; k++) {
    let v = load_vec(first_vec + k * WORKGROUP_SIZE + local);
    values[k] = v;
    vec_sums[k * WORKGROUP_SIZE + local] = (v.x + v.y) + (v.z + v.w);
  }
  workgroupBarrier();
  return values;
}

/** The exclusive prefixes of this invocation's VECS consecutive vec4s (before its first one: 0). */
fn own_prefixes(local: u32) -> array<u32, VECS> {
  var before = array<u32, VECS>();
  var running = 0u;
  for (var k = 0u; k < VECS; k++) {
    before[k] = running;
    running += vec_sums[local * VECS + k];
  }
  return before;
}

/**
 * Writes the tile: `start` is the exclusive prefix of this invocation's first vec4 and
 * `before` its prefixes within its run; they travel back through vec_sums to the invocations
 * that loaded those vec4s.
 */
fn write_tile(first_vec: u32, local: u32, values: array<vec4<u32>, VECS>, start: u32, before: array<u32, VECS>) {
  for (var k = 0u; k < VECS; k++) {
    vec_sums[local * VECS + k] = start + before[k];
  }
  workgroupBarrier();
  for (var k = 0u; k < VECS; k++) {
    let at = k * WORKGROUP_SIZE + local;
    let v = values[k];
    let first = vec_sums[at];
    store_vec(first_vec + at, vec4<u32>(first, first + v.x, first + v.x + v.y, first + v.x + v.y + v.z));
  }
}

/** The sum of the tile's vec4s that invocation `index` of `stride` covers (for the fallback). */
fn partial_tile_sum(tile: u32, index: u32, stride: u32) -> u32 {
  var sum = 0u;
  for (var v = index; v < TILE_VECS; v += stride) {
    let value = load_vec(tile * TILE_VECS + v);
    sum += (value.x + value.y) + (value.z + value.w);
  }
  return sum;
}

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

/** Tile `tile`'s (state, value); NOT_READY while its two halves disagree, or always when testing the fallback. */
fn read_status(tile: u32) -> vec2<u32> {
  let low = atomicLoad(&status[1u + 2u * tile]);
  let high = atomicLoad(&status[2u + 2u * tile]);
  let agreed = (low >> 16u) == (high >> 16u) && !ALWAYS_FALL_BACK;
  return vec2<u32>(select(NOT_READY, low >> 16u, agreed), (low & 0xffffu) | (high << 16u));
}

fn publish(tile: u32, state: u32, value: u32) {
  atomicStore(&status[1u + 2u * tile], (state << 16u) | (value & 0xffffu));
  atomicStore(&status[2u + 2u * tile], (state << 16u) | (value >> 16u));
}

/** Invocation 0, after the look-back: publishes the tile's inclusive prefix and shares its exclusive one. */
fn publish_prefix(tile: u32, prefix: u32, tile_total: u32) {
  publish(tile, INCLUSIVE, prefix + tile_total);
  tile_prefix = prefix;
}

/** The exclusive prefix of this workgroup's tile, for everyone; the last tile also writes the total. */
fn tile_offset(tile: u32, local: u32, tile_total: u32) -> u32 {
  var offset = 0u;
  if (tile > 0u) {
    offset = workgroupUniformLoad(&tile_prefix);
  }
  if (tile == params.tiles - 1u && local == 0u) {
    total[0] = offset + tile_total;
  }
  return offset;
}
