// The depth pass: one workgroup per tile reduces the tile's depth pixels to its depth range,
// Harada's 2.5D mask and the AABB of its frustum slab. 8 x 8 invocations per tile, each
// reducing a PIXELS_SIDE x PIXELS_SIDE block in registers first (the post's 8 x 8 groups with
// 2 x 2 pixels for 16 x 16 tiles: better occupancy, 4x fewer atomics), then the subgroup
// (depth-reduce-subgroups.wgsl) or straight into workgroup atomics (depth-reduce-atomic.wgsl).

@group(0) @binding(0) var<uniform> frame: Frame;
@group(0) @binding(6) var<storage, read> corners: array<vec4f>;
@group(0) @binding(7) var<storage, read_write> tile_info: array<TileInfo>;
@group(0) @binding(12) var depth_texture: texture_depth_2d;

var<workgroup> min_key: atomic<u32>;
var<workgroup> max_key: atomic<u32>;
var<workgroup> tile_mask: atomic<u32>;
var<workgroup> tile_pixels: atomic<u32>;

const PIXELS: u32 = PIXELS_SIDE * PIXELS_SIDE;

// Float bits reordered so that unsigned order is float order (negative depths included).
fn order_key(value: f32) -> u32 {
  let bits = bitcast<u32>(value);
  return select(bits | 0x80000000u, ~bits, (bits & 0x80000000u) != 0u);
}

fn from_order_key(key: u32) -> f32 {
  return bitcast<f32>(select(~key, key & 0x7fffffffu, (key & 0x80000000u) != 0u));
}

// In u = |d - far|, which is exact near the far value, where d itself would cancel (camera.ts).
fn linear_depth(d: f32) -> f32 {
  let k = frame.depth_coefficients;
  let u = abs(d - frame.far_depth);
  return (k.x * u + k.y) / (k.z * u + k.w);
}

@compute @workgroup_size(DEPTH_SIDE, DEPTH_SIDE)
fn depth_tiles(@builtin(workgroup_id) group: vec3u, @builtin(local_invocation_id) local: vec3u, @builtin(local_invocation_index) lid: u32) {
  if (lid == 0u) {
    atomicStore(&min_key, 0xffffffffu);
    atomicStore(&max_key, 0u);
    atomicStore(&tile_mask, 0u);
    atomicStore(&tile_pixels, 0u);
  }
  workgroupBarrier();

  // Each invocation's block of pixels: depth kept in registers for the mask step.
  var depths: array<f32, PIXELS>;
  var surface = 0u;
  var lo = 3.4e38;
  var hi = -3.4e38;
  let origin = group.xy * TILE_SIZE + local.xy * PIXELS_SIDE;
  let size = vec2u(frame.viewport);
  for (var i = 0u; i < PIXELS; i++) {
    let pixel = origin + vec2u(i % PIXELS_SIDE, i / PIXELS_SIDE);
    var depth = frame.far_depth;
    if (all(pixel < size)) {
      depth = textureLoad(depth_texture, pixel, 0);
    }
    if (depth != frame.far_depth) {
      let z = linear_depth(depth);
      depths[i] = z;
      surface |= 1u << i;
      lo = min(lo, z);
      hi = max(hi, z);
    }
  }
  reduce_range(lo, hi, countOneBits(surface));
  workgroupBarrier();

  let pixels = atomicLoad(&tile_pixels);
  let min_depth = from_order_key(atomicLoad(&min_key));
  let max_depth = from_order_key(atomicLoad(&max_key));
  let scale = mask_scale(min_depth, max_depth);
  var mask = 0u;
  for (var i = 0u; i < PIXELS; i++) {
    if ((surface & (1u << i)) != 0u) {
      mask |= 1u << mask_cell(depths[i], min_depth, scale);
    }
  }
  reduce_mask(mask);
  workgroupBarrier();

  if (lid == 0u) {
    let tile = group.y * frame.tiles.x + group.x;
    var info: TileInfo;
    info.pixels = pixels;
    info.mask = atomicLoad(&tile_mask);
    if (pixels != 0u) {
      let stride = frame.tiles.x + 1u;
      let c = group.y * stride + group.x;
      frustum_aabb(corners[c], corners[c + 1u], corners[c + stride], corners[c + stride + 1u], min_depth, max_depth, &info);
    }
    tile_info[tile] = info;
  }
}
