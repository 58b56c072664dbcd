// A one-sweep LSD radix sort (Adinets and Merrill, "Onesweep", 2022): 8-bit digits, one
// histogram pass for every digit position, then one pass per digit that ranks its tile's keys
// and finds where each digit of the tile goes with decoupled look-back, instead of a count
// pass, a scan of the count table and a scatter pass. Per digit a pass reads each key and value
// once and writes them once: the traffic of a copy.
//
// histogram_all: every workgroup counts the digits of every pass for a stretch of keys in
//   workgroup memory and adds them to digit_offsets[pass * RADIX + digit].
// scan_offsets: one workgroup per pass turns its 256 counts into exclusive starts in place.
// onesweep: each workgroup takes a tile by ticket (so every earlier tile belongs to a workgroup
//   that has started), ranks its keys per digit with subgroup ballots (as the scatter of
//   radix-sort-subgroups.wgsl does), publishes its per-digit counts, sorts the keys into the
//   tile in workgroup memory, looks back over earlier tiles for each digit's running total,
//   publishes its inclusive totals, and writes keys and values out in the sorted tile's order,
//   so neighbouring invocations write neighbouring words.
//
// A (tile, digit) status is one atomic word: state in the top two bits, a 30-bit count below
// (sorts are limited to 2^30 - 1 pairs). When a predecessor stays NOT_READY for SPIN_LIMIT
// polls, the workgroup counts that tile's digits itself and moves on, so the sort stays correct
// where workgroups are not guaranteed to make progress together.
//
// The host prepends `enable subgroups;`, RADIX (256), BLOCK (2048 or 4096), SCATTER_SIZE,
// SCATTER_ITEMS (BLOCK / SCATTER_SIZE), MAX_SUBGROUPS and HISTOGRAM_ITEMS, then the ballot-mask
// helpers (subgroup-lanes.wgsl, or subgroup-lanes-narrow.wgsl for subgroups of at most 32
// lanes); it appends subgroup-rank.wgsl (the tile ranking this pass shares with the scatter).

struct Params {
  count: u32,
  tiles: u32,
  // This pass's digit: key >> shift & mask.
  shift: u32,
  mask: u32,
  // Passes of the whole sort, and key bits (the last pass may have fewer than 8).
  passes: u32,
  key_bits: u32,
  // Which pass this is (its row of digit_offsets), and 1 when digits are inverted (descending).
  pass_index: u32,
  descending: u32,
  // 1 when the keys are f32 bit patterns: flipped into an unsigned order as the first pass (and
  // the histogram) reads them, and back as the last pass writes them.
  float_keys: u32,
  pad0: u32,
  pad1: u32,
  pad2: u32,
}

const NOT_READY: u32 = 0u;
const AGGREGATE: u32 = 1u;
const INCLUSIVE: u32 = 2u;
const COUNT_MASK: u32 = 0x3fffffffu;
// Polls of a NOT_READY predecessor before counting its tile here.
override SPIN_LIMIT: u32 = 256u;
// Tests only. 1: ignore every published status, so every tile counts all earlier tiles itself.
// 2: ignore a third of them, in a pattern over tiles and digits, and publish no inclusive
// totals from odd tiles, so the digits of one tile stall at different predecessors.
override FALL_BACK: u32 = 0u;
// Benchmarks only, to time what the look-back costs: skip it and guess each digit's offset from
// the histogram (the output is NOT sorted).
override PROFILE_NO_LOOKBACK: bool = false;
// true: a digit pass sorts its keys into the tile before the look-back (shorter walks); false:
// after it (its own inclusive totals published sooner). Timed on the H100, false took 10% longer
// per digit pass (0.416 against 0.377 ms at 2^24); the benchmark keeps timing both.
override SORT_TILE_FIRST: bool = true;
// false: keys only (the value bindings are bound to placeholders and never touched).
override HAS_VALUES: bool = true;
// Benchmarks only: count what the look-back does into the WALK_STATS words after the tile
// statuses (status[1 + tiles * RADIX + k], never cleared by the host's per-pass clear): the
// status words read, those read NOT_READY, walks that ended on the first word read, and tiles
// counted by the fallback. Summed per subgroup, one atomic each per subgroup.
override COUNT_WALKS: bool = false;
const WALK_STATS: u32 = 4u;

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> keys_in: array<u32>;
@group(0) @binding(2) var<storage, read> values_in: array<u32>;
@group(0) @binding(3) var<storage, read_write> keys_out: array<u32>;
@group(0) @binding(4) var<storage, read_write> values_out: array<u32>;
// [0]: the tile ticket; [1 + tile * RADIX + digit]: that tile's status for that digit.
@group(0) @binding(5) var<storage, read_write> status: array<atomic<u32>>;
// [pass * RADIX + digit]: counts after histogram_all, exclusive starts after scan_offsets.
@group(0) @binding(6) var<storage, read_write> digit_offsets: array<atomic<u32>>;

var<workgroup> fallback_counts: array<atomic<u32>, RADIX>;
// The latest tile (plus one) at which a digit's look-back stalled this round; 0: none.
var<workgroup> stalled_tile: atomic<u32>;
// Its plain copy, read by everyone through workgroupUniformLoad.
var<workgroup> stalled_now: u32;
var<workgroup> ticket: u32;

/** An f32's bits as a u32 that sorts in the float's order: negatives flipped, positives' sign set. */
fn float_to_ordered(bits: u32) -> u32 {
  return select(bits | 0x80000000u, ~bits, (bits & 0x80000000u) != 0u);
}

fn ordered_to_float(bits: u32) -> u32 {
  return select(~bits, bits & 0x7fffffffu, (bits & 0x80000000u) != 0u);
}

/** The key of pass `pass_index` as read: flipped to unsigned order in the first pass of f32 keys. */
fn read_key(i: u32) -> u32 {
  let key = keys_in[i];
  // `&`, not `&&`: a short-circuit becomes a branch between the loads and the ballots.
  return select(key, float_to_ordered(key), (params.float_keys == 1u) & (params.pass_index == 0u));
}

/** The key as written: back to f32 bits in the last pass of f32 keys. */
fn written_key(key: u32) -> u32 {
  return select(key, ordered_to_float(key), (params.float_keys == 1u) & (params.pass_index == params.passes - 1u));
}

/** The key's digit in pass `which` (inverted for a descending sort). */
fn digit_in_pass(key: u32, which: u32) -> u32 {
  let shift = which * 8u;
  let mask = (1u << min(8u, params.key_bits - shift)) - 1u;
  let digit = (key >> shift) & mask;
  return select(digit, mask - digit, params.descending == 1u);
}

fn digit_of(key: u32) -> u32 {
  let digit = (key >> params.shift) & params.mask;
  return select(digit, params.mask - digit, params.descending == 1u);
}

/** The digit a key at input index `i` is ranked by: past-the-end keys take the last digit, after every real key. */
fn tile_digit(key: u32, i: u32) -> u32 {
  return select(params.mask, digit_of(key), i < params.count);
}

var<workgroup> histograms: array<atomic<u32>, 4u * RADIX>;

@compute @workgroup_size(256)
fn histogram_all(
  @builtin(workgroup_id) group_id: vec3<u32>,
  @builtin(num_workgroups) groups: vec3<u32>,
  @builtin(local_invocation_index) local: u32,
) {
  // The histograms start at zero (WebGPU zeroes workgroup memory). A grid-stride walk over stretches of 256 x HISTOGRAM_ITEMS keys, coalesced.
  let stretch = 256u * HISTOGRAM_ITEMS;
  for (var base = group_id.x * stretch; base < params.count; base += groups.x * stretch) {
    for (var k = 0u; k < HISTOGRAM_ITEMS; k++) {
      let i = base + k * 256u + local;
      if (i < params.count) {
        let key = select(keys_in[i], float_to_ordered(keys_in[i]), params.float_keys == 1u);
        for (var p = 0u; p < params.passes; p++) {
          atomicAdd(&histograms[p * RADIX + digit_in_pass(key, p)], 1u);
        }
      }
    }
  }
  workgroupBarrier();
  for (var i = local; i < params.passes * RADIX; i += 256u) {
    let count = atomicLoad(&histograms[i]);
    if (count > 0u) {
      atomicAdd(&digit_offsets[i], count);
    }
  }
}

var<workgroup> scan_rows: array<u32, RADIX>;

@compute @workgroup_size(256)
fn scan_offsets(@builtin(workgroup_id) group_id: vec3<u32>, @builtin(local_invocation_index) local: u32) {
  let at = group_id.x * RADIX + local;
  let own = atomicLoad(&digit_offsets[at]);
  scan_rows[local] = own;
  workgroupBarrier();
  // Hillis-Steele over 256 counts: eight rounds.
  for (var step = 1u; step < RADIX; step <<= 1u) {
    var add = 0u;
    if (local >= step) {
      add = scan_rows[local - step];
    }
    workgroupBarrier();
    scan_rows[local] += add;
    workgroupBarrier();
  }
  atomicStore(&digit_offsets[at], scan_rows[local] - own);
}

/** Tile `t`'s status word for `digit`; NOT_READY where a fallback test says so. */
fn read_status(t: u32, digit: u32) -> u32 {
  if ((FALL_BACK == 1u) | ((FALL_BACK == 2u) & ((t + digit) % 3u == 0u))) {
    return 0u;
  }
  return atomicLoad(&status[1u + t * RADIX + digit]);
}

fn publish(t: u32, digit: u32, state: u32, count: u32) {
  atomicStore(&status[1u + t * RADIX + digit], (state << 30u) | (count & COUNT_MASK));
}

/** The workgroup counts tile `t`'s digits into fallback_counts (the look-back's fallback). */
fn count_tile(t: u32, local: u32) {
  for (var d = local; d < RADIX; d += SCATTER_SIZE) {
    atomicStore(&fallback_counts[d], 0u);
  }
  workgroupBarrier();
  let base = t * BLOCK;
  for (var k = 0u; k < SCATTER_ITEMS; k++) {
    let i = base + k * SCATTER_SIZE + local;
    if (i < params.count) {
      atomicAdd(&fallback_counts[digit_of(read_key(i))], 1u);
    }
  }
  workgroupBarrier();
}

/** What the look-back position of a digit holds once the digit's prefix is complete. */
const FINISHED: i32 = -2;

/** COUNT_WALKS: what one invocation's look-back did (walk_reads: words of the current walk). */
struct WalkCounts {
  reads: u32,
  not_ready: u32,
  first_read_ends: u32,
  fallbacks: u32,
  walk_reads: u32,
}

/**
 * Tile `tile`'s status word for `digit`, read as `word`: polled again while NOT_READY, up to
 * SPIN_LIMIT times (none in the fallback tests). NOT_READY when it returns means stalled.
 */
fn poll_status(word: u32, tile: u32, digit: u32, counts: ptr<function, WalkCounts>) -> u32 {
  var polled = word;
  if (COUNT_WALKS) {
    (*counts).reads += 1u;
    (*counts).walk_reads += 1u;
  }
  for (var spin = 0u; (polled >> 30u) == NOT_READY && spin < SPIN_LIMIT && FALL_BACK == 0u; spin++) {
    polled = read_status(tile, digit);
    if (COUNT_WALKS) {
      (*counts).not_ready += 1u;
      (*counts).reads += 1u;
    }
  }
  if (COUNT_WALKS && (polled >> 30u) == INCLUSIVE && (*counts).walk_reads == 1u) {
    (*counts).first_read_ends += 1u;
  }
  return polled;
}

/**
 * For each digit this invocation owns, the number of keys with that digit in all earlier tiles
 * plus the digit's start in the whole output: where the tile's first key of the digit goes.
 *
 * Every digit walks back on its own, without barriers: it adds the aggregates it meets until an
 * inclusive total (or the start of the input) ends its walk. A digit whose predecessor stays
 * NOT_READY for SPIN_LIMIT polls stops there; then the workgroup counts the latest tile any
 * digit stopped at, those digits add its counts and step past it, and the walks go on. Without
 * stalls that costs one barrier round for the whole tile, not one per tile looked at.
 */
fn look_back(t: u32, local: u32) -> array<u32, DIGITS_PER_INVOCATION> {
  var prefix = array<u32, DIGITS_PER_INVOCATION>();
  var look = array<i32, DIGITS_PER_INVOCATION>();
  let first_digit = local * DIGITS_PER_INVOCATION;
  let row = params.pass_index * RADIX;
  for (var j = 0u; j < DIGITS_PER_INVOCATION; j++) {
    look[j] = i32(t) - 1;
  }
  var counts = WalkCounts();
  loop {
    for (var j = 0u; j < DIGITS_PER_INVOCATION; j++) {
      let digit = first_digit + j;
      counts.walk_reads = 0u;
      loop {
        if (look[j] == FINISHED) {
          break;
        }
        if (look[j] < 0) {
          // Before the first tile: the digit's start in the output.
          prefix[j] += atomicLoad(&digit_offsets[row + digit]);
          look[j] = FINISHED;
          break;
        }
        let word = poll_status(read_status(u32(look[j]), digit), u32(look[j]), digit, &counts);
        let state = word >> 30u;
        if (state == NOT_READY) {
          // Stalled: tiles are numbered from 1 in stalled_tile so that 0 means none.
          atomicMax(&stalled_tile, u32(look[j]) + 1u);
          break;
        }
        prefix[j] += word & COUNT_MASK;
        look[j] = select(look[j] - 1, FINISHED, state == INCLUSIVE);
      }
    }
    workgroupBarrier();
    if (local == 0u) {
      stalled_now = atomicLoad(&stalled_tile);
      atomicStore(&stalled_tile, 0u);
    }
    let stalled = workgroupUniformLoad(&stalled_now);
    if (stalled == 0u) {
      break;
    }
    count_tile(stalled - 1u, local);
    if (COUNT_WALKS && local == 0u) {
      counts.fallbacks += 1u;
    }
    for (var j = 0u; j < DIGITS_PER_INVOCATION; j++) {
      if (look[j] == i32(stalled) - 1) {
        prefix[j] += atomicLoad(&fallback_counts[first_digit + j]);
        look[j] -= 1;
      }
    }
  }
  if (COUNT_WALKS) {
    let base = 1u + params.tiles * RADIX;
    let sums = array<u32, WALK_STATS>(subgroupAdd(counts.reads), subgroupAdd(counts.not_ready), subgroupAdd(counts.first_read_ends), subgroupAdd(counts.fallbacks));
    if (subgroupElect()) {
      for (var k = 0u; k < WALK_STATS; k++) {
        atomicAdd(&status[base + k], sums[k]);
      }
    }
  }
  return prefix;
}

/** PROFILE_NO_LOOKBACK: where the digit's keys of tile `t` would go if every tile held its share. */
fn guessed_prefix(t: u32, first_digit: u32) -> array<u32, DIGITS_PER_INVOCATION> {
  var prefix = array<u32, DIGITS_PER_INVOCATION>();
  let row = params.pass_index * RADIX;
  for (var j = 0u; j < DIGITS_PER_INVOCATION; j++) {
    let digit = first_digit + j;
    let start = atomicLoad(&digit_offsets[row + digit]);
    let end = select(params.count, atomicLoad(&digit_offsets[row + digit + 1u]), digit + 1u < RADIX);
    prefix[j] = start + u32(f32(end - start) * f32(t) / f32(params.tiles));
  }
  return prefix;
}

/** Each key into its place in the sorted tile; `places` turns from ranks into tile positions. */
fn sort_into_tile(keys: ptr<function, array<u32, SCATTER_ITEMS>>, places: ptr<function, array<u32, SCATTER_ITEMS>>, first: u32, subgroup_size: u32, counters: u32) {
  for (var k = 0u; k < SCATTER_ITEMS; k++) {
    (*places)[k] = tile_position(tile_digit((*keys)[k], first + k * subgroup_size), (*places)[k], counters);
    tile[(*places)[k]] = (*keys)[k];
  }
}

@compute @workgroup_size(SCATTER_SIZE)
fn onesweep(
  @builtin(local_invocation_index) local: u32,
  @builtin(subgroup_size) subgroup_size: u32,
  @builtin(subgroup_invocation_id) lane: u32,
) {
  if (local == 0u) {
    ticket = atomicAdd(&status[0], 1u);
    atomicStore(&stalled_tile, 0u);
  }
  let t = workgroupUniformLoad(&ticket);
  if (t >= params.tiles) {
    return; // a padding workgroup of a 2D grid: uniform for the whole workgroup
  }
  let subgroup = local / subgroup_size;
  let subgroups = SCATTER_SIZE / subgroup_size;
  // The counters start at zero: WebGPU zeroes workgroup memory before a workgroup runs.

  // Ranking within the tile (subgroup-rank.wgsl): index order is (subgroup, step, lane).
  let tile_base = t * BLOCK;
  let first = tile_base + subgroup * SCATTER_ITEMS * subgroup_size + lane;
  let below = lanes_below(lane);
  let counters = subgroup * PAIRS;
  // Few arrays per invocation, since they live in registers: `places` holds each key's rank
  // in its subgroup, then its position in the sorted tile.
  // Every key and value is loaded before the first key is ranked, so that all the loads are in
  // flight at once (ranked as they arrived, each load waited behind the ranking of the key
  // before: on an H200 this pass sorted 2^24 / 2^26 pairs 21% faster for it, keys only 16%).
  var keys = array<u32, SCATTER_ITEMS>();
  var values = array<u32, SCATTER_ITEMS>();
  var places = array<u32, SCATTER_ITEMS>();
  for (var k = 0u; k < SCATTER_ITEMS; k++) {
    let i = first + k * subgroup_size;
    keys[k] = read_key(min(i, params.count - 1u));
    if (HAS_VALUES) {
      values[k] = values_in[min(i, params.count - 1u)];
    }
  }
  for (var k = 0u; k < SCATTER_ITEMS; k++) {
    places[k] = rank_in_subgroup(tile_digit(keys[k], first + k * subgroup_size), lane, below, counters);
  }
  workgroupBarrier();
  total_digits(local, subgroups);
  workgroupBarrier();

  // The tile's real keys per digit (padding keys sit in the last digit), published at once so
  // later tiles can pass this one; the first tile already knows its inclusive totals.
  let real_in_tile = min(BLOCK, params.count - tile_base);
  let padding = BLOCK - real_in_tile;
  let first_digit = local * DIGITS_PER_INVOCATION;
  var totals = array<u32, DIGITS_PER_INVOCATION>();
  for (var j = 0u; j < DIGITS_PER_INVOCATION; j++) {
    let digit = first_digit + j;
    totals[j] = digit_start[digit] - select(0u, padding, digit == params.mask);
    if (t == 0u) {
      publish(t, digit, INCLUSIVE, atomicLoad(&digit_offsets[params.pass_index * RADIX + digit]) + totals[j]);
    } else {
      publish(t, digit, AGGREGATE, totals[j]);
    }
  }
  var start = first_digit_start(local, lane, subgroup);
  var tile_starts = array<u32, DIGITS_PER_INVOCATION>();
  for (var j = 0u; j < DIGITS_PER_INVOCATION; j++) {
    let digit = first_digit + j;
    tile_starts[j] = start;
    start += digit_start[digit];
    digit_start[digit] = tile_starts[j];
  }
  workgroupBarrier();

  // The keys into the sorted tile before the look-back: by the time it starts, more of the
  // earlier tiles have published their inclusive totals, so the walks are shorter (but this
  // tile's own inclusive totals come later: SORT_TILE_FIRST says which order runs).
  if (SORT_TILE_FIRST) {
    sort_into_tile(&keys, &places, first, subgroup_size, counters);
  }

  var prefix = array<u32, DIGITS_PER_INVOCATION>();
  if (PROFILE_NO_LOOKBACK) {
    prefix = guessed_prefix(t, first_digit);
  } else {
    prefix = look_back(t, local);
  }
  for (var j = 0u; j < DIGITS_PER_INVOCATION; j++) {
    let digit = first_digit + j;
    // (The fallback test that ignores some statuses also leaves odd tiles at AGGREGATE, so that
    // looks back go past them and stall at different depths.)
    if (t > 0u && !(FALL_BACK == 2u && t % 2u == 1u)) {
      publish(t, digit, INCLUSIVE, prefix[j] + totals[j]);
    }
    // Where the tile's position p of this digit goes: prefix + p - start (wraps).
    global_base[digit] = prefix[j] - tile_starts[j];
  }
  if (!SORT_TILE_FIRST) {
    sort_into_tile(&keys, &places, first, subgroup_size, counters);
  }
  workgroupBarrier();
  var out_digits = array<u32, SCATTER_ITEMS>();
  for (var k = 0u; k < SCATTER_ITEMS; k++) {
    let at = k * SCATTER_SIZE + local;
    let key = tile[at];
    out_digits[k] = digit_of(key);
    if (at < real_in_tile) {
      keys_out[global_base[out_digits[k]] + at] = written_key(key);
    }
  }
  if (HAS_VALUES) {
    scatter_held_values(local, real_in_tile, &places, &values, &out_digits);
  }
}
