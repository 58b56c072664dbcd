// Scatter culling, the post's "gather vs scatter" section: coarse tiles of COARSE_FACTOR x
// COARSE_FACTOR tiles take their depth range from the depth pass, then one invocation per
// entity marks the coarse tiles it can touch in their flat bit arrays (bucket mask first, as in
// cull-flat.wgsl; the host clears them every frame). The fine culling pass then reads only its
// coarse tile's entities instead of all of them.

@group(0) @binding(0) var<uniform> frame: Frame;
@group(0) @binding(2) var<storage, read> rects: array<vec2u>;
@group(0) @binding(3) var<storage, read> spheres: array<vec4f>;
@group(0) @binding(6) var<storage, read> corners: array<vec4f>;
@group(0) @binding(7) var<storage, read> tile_info: array<TileInfo>;
@group(0) @binding(10) var<storage, read_write> coarse_info: array<TileInfo>;
@group(0) @binding(11) var<storage, read_write> coarse_bits: array<atomic<u32>>;

// Coarse tests run on a sphere grown by this share of its size, so that rounding in the coarse
// AABB can never drop an entity the fine test would keep.
const COARSE_SLACK: f32 = 1e-5;

var<workgroup> coarse_min: atomic<u32>;
var<workgroup> coarse_max: atomic<u32>;
var<workgroup> coarse_pixels: atomic<u32>;

// Float bits reordered so that unsigned order is float order (as in the depth pass).
fn coarse_key(value: f32) -> u32 {
  let bits = bitcast<u32>(value);
  return select(bits | 0x80000000u, ~bits, (bits & 0x80000000u) != 0u);
}

fn coarse_value(key: u32) -> f32 {
  return bitcast<f32>(select(~key, key & 0x7fffffffu, (key & 0x80000000u) != 0u));
}

// One workgroup per coarse tile, one invocation per fine tile in it.
@compute @workgroup_size(COARSE_FACTOR * COARSE_FACTOR)
fn coarse_bounds(@builtin(workgroup_id) group: vec3u, @builtin(local_invocation_index) lid: u32) {
  if (lid == 0u) {
    atomicStore(&coarse_min, 0xffffffffu);
    atomicStore(&coarse_max, 0u);
    atomicStore(&coarse_pixels, 0u);
  }
  workgroupBarrier();
  let first = group.xy * COARSE_FACTOR;
  let end = min(first + COARSE_FACTOR, frame.tiles);
  let tile = first + vec2u(lid % COARSE_FACTOR, lid / COARSE_FACTOR);
  if (all(tile < end)) {
    let info = tile_info[tile.y * frame.tiles.x + tile.x];
    if (info.pixels != 0u) {
      atomicMin(&coarse_min, coarse_key(info.min_depth));
      atomicMax(&coarse_max, coarse_key(info.max_depth));
      atomicAdd(&coarse_pixels, info.pixels);
    }
  }
  workgroupBarrier();
  if (lid == 0u) {
    var info: TileInfo;
    info.pixels = atomicLoad(&coarse_pixels);
    if (info.pixels != 0u) {
      let stride = frame.tiles.x + 1u;
      frustum_aabb(corners[first.y * stride + first.x], corners[first.y * stride + end.x], corners[end.y * stride + first.x], corners[end.y * stride + end.x], coarse_value(atomicLoad(&coarse_min)), coarse_value(atomicLoad(&coarse_max)), &info);
    }
    coarse_info[group.y * frame.coarse.x + group.x] = info;
  }
}

const SCATTER_GROUP: u32 = 64u;

// Inclusive prefix sums of the coarse-rectangle areas of the group's entities.
var<workgroup> area_prefix: array<u32, SCATTER_GROUP>;

fn coarse_rect(e: u32) -> vec4u {
  let rect = rects[e];
  return vec4u(vec2u(rect.x & 0xffffu, rect.x >> 16u) / COARSE_FACTOR, vec2u(rect.y & 0xffffu, rect.y >> 16u) / COARSE_FACTOR);
}

// One work item per (entity, coarse tile of its rectangle), shared out evenly over the
// workgroup: a light around the camera covers hundreds of coarse tiles while most cover one or
// two, and one invocation per entity would leave the whole pass waiting on the big ones.
@compute @workgroup_size(SCATTER_GROUP)
fn scatter(@builtin(workgroup_id) group: vec3u, @builtin(local_invocation_index) lid: u32) {
  let first_entity = group.x * SCATTER_GROUP;
  let e = first_entity + lid;
  var area = 0u;
  if (e < frame.counts.w) {
    let rect = rects[e];
    if ((rect.x & 0xffffu) <= (rect.y & 0xffffu)) {
      let r = coarse_rect(e);
      area = (r.z - r.x + 1u) * (r.w - r.y + 1u);
    }
  }
  area_prefix[lid] = area;
  workgroupBarrier();
  for (var offset = 1u; offset < SCATTER_GROUP; offset <<= 1u) {
    let below = select(0u, area_prefix[lid - offset], lid >= offset);
    workgroupBarrier();
    area_prefix[lid] += below;
    workgroupBarrier();
  }
  let total = workgroupUniformLoad(&area_prefix[SCATTER_GROUP - 1u]);
  for (var item = lid; item < total; item += SCATTER_GROUP) {
    // The entity whose share holds this item: the first prefix above it.
    var low = 0u;
    var high = SCATTER_GROUP - 1u;
    while (low < high) {
      let middle = (low + high) / 2u;
      if (area_prefix[middle] > item) {
        high = middle;
      } else {
        low = middle + 1u;
      }
    }
    let owner = first_entity + low;
    let index = item - select(0u, area_prefix[max(low, 1u) - 1u], low > 0u);
    let r = coarse_rect(owner);
    let width = r.z - r.x + 1u;
    let cx = r.x + index % width;
    let cy = r.y + index / width;
    let coarse = cy * frame.coarse.x + cx;
    let info = coarse_info[coarse];
    let sphere = spheres[owner];
    let radius = sphere.w + COARSE_SLACK * (sphere.w + abs(sphere.x) + abs(sphere.y) + abs(sphere.z));
    if (info.pixels != 0u && sphere_touches_aabb(sphere.xyz, radius, info.center, info.extent)) {
      let bucket = owner >> 5u;
      let base = coarse * (MASK_WORDS + BUCKETS);
      atomicOr(&coarse_bits[base + MASK_WORDS + bucket], 1u << (owner & 31u));
      atomicOr(&coarse_bits[base + (bucket >> 5u)], 1u << (bucket & 31u));
    }
  }
}
