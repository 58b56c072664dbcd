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

@compute @workgroup_size(64)
fn coarse_bounds(@builtin(global_invocation_id) id: vec3u) {
  let coarse = frame.coarse;
  if (id.x >= coarse.x * coarse.y) {
    return;
  }
  let cx = id.x % coarse.x;
  let cy = id.x / coarse.x;
  let first = vec2u(cx, cy) * COARSE_FACTOR;
  let end = min(first + COARSE_FACTOR, frame.tiles);
  var lo = 3.4e38;
  var hi = -3.4e38;
  var pixels = 0u;
  for (var ty = first.y; ty < end.y; ty++) {
    for (var tx = first.x; tx < end.x; tx++) {
      let info = tile_info[ty * frame.tiles.x + tx];
      if (info.pixels != 0u) {
        lo = min(lo, info.min_depth);
        hi = max(hi, info.max_depth);
        pixels += info.pixels;
      }
    }
  }
  var info: TileInfo;
  info.pixels = pixels;
  if (pixels != 0u) {
    let stride = frame.tiles.x + 1u;
    frustum_aabb(corners[first.y * stride + first.x], corners[first.y * stride + end.x], corners[end.y * stride + first.x], corners[end.y * stride + end.x], lo, hi, &info);
  }
  coarse_info[id.x] = info;
}

@compute @workgroup_size(64)
fn scatter(@builtin(global_invocation_id) id: vec3u) {
  let e = id.x;
  if (e >= frame.counts.w) {
    return;
  }
  let rect = rects[e];
  let first = vec2u(rect.x & 0xffffu, rect.x >> 16u) / COARSE_FACTOR;
  let last = vec2u(rect.y & 0xffffu, rect.y >> 16u) / COARSE_FACTOR;
  if ((rect.x & 0xffffu) > (rect.y & 0xffffu)) {
    return;
  }
  let sphere = spheres[e];
  let radius = sphere.w + COARSE_SLACK * (sphere.w + abs(sphere.x) + abs(sphere.y) + abs(sphere.z));
  let bit = 1u << (e & 31u);
  let bucket = e >> 5u;
  for (var cy = first.y; cy <= last.y; cy++) {
    for (var cx = first.x; cx <= last.x; cx++) {
      let coarse = cy * frame.coarse.x + cx;
      let info = coarse_info[coarse];
      if (info.pixels != 0u && sphere_touches_aabb(sphere.xyz, radius, info.center, info.extent)) {
        let base = coarse * (MASK_WORDS + BUCKETS);
        atomicOr(&coarse_bits[base + MASK_WORDS + bucket], bit);
        atomicOr(&coarse_bits[base + (bucket >> 5u)], 1u << (bucket & 31u));
      }
    }
  }
}
