// Normal reconstruction from depth. Each workgroup loads its 8x8 pixels and a one-pixel border
// as view-space positions into workgroup memory once, then every pixel builds its triangle from
// the centre and one horizontal and one vertical neighbour: the right and upper ones (naive), or
// per axis the one whose view-space z is nearer the centre's (improved), so the triangle's
// corners most likely lie on the centre's surface.
override IMPROVED: bool = true;

const BLOCK: u32 = 8u;
const TILE: u32 = BLOCK + 2u;

@group(0) @binding(0) var<uniform> camera: SsaoCamera;
@group(0) @binding(1) var depth_texture: texture_depth_2d;
@group(0) @binding(2) var normals_out: texture_storage_2d<OUTPUT_FORMAT, write>;

// xyz: view-space position; w: 1 where the pixel is inside the image and holds a surface.
var<workgroup> tile: array<vec4f, TILE * TILE>;

struct Neighbour {
  // sign * (neighbour - centre): points right (or up) whichever side was picked.
  offset: vec3f,
  found: bool,
}

// `first` is the right (or upper) neighbour, `second` the left (or lower) one.
fn pick(centre: vec4f, first: vec4f, second: vec4f) -> Neighbour {
  var take_first = first.w > 0.0;
  if (IMPROVED && take_first && second.w > 0.0) {
    take_first = abs(first.z - centre.z) <= abs(second.z - centre.z);
  }
  if (take_first) {
    return Neighbour(first.xyz - centre.xyz, true);
  }
  return Neighbour(centre.xyz - second.xyz, second.w > 0.0);
}

fn tile_at(x: u32, y: u32) -> vec4f {
  return tile[y * TILE + x];
}

@compute @workgroup_size(BLOCK, BLOCK)
fn reconstruct_normals(@builtin(workgroup_id) group: vec3u, @builtin(local_invocation_id) local: vec3u, @builtin(local_invocation_index) index: u32) {
  let origin = vec2i(group.xy * BLOCK) - vec2i(1);
  for (var t = index; t < TILE * TILE; t += BLOCK * BLOCK) {
    let pixel = origin + vec2i(i32(t % TILE), i32(t / TILE));
    var entry = vec4f(0.0);
    if (in_image(pixel)) {
      let depth = textureLoad(depth_texture, pixel, 0);
      if (depth != camera.far_depth) {
        entry = vec4f(view_position(pixel, depth), 1.0);
      }
    }
    tile[t] = entry;
  }
  workgroupBarrier();

  let pixel = group.xy * BLOCK + local.xy;
  if (any(pixel >= camera.size)) {
    return;
  }
  let x = local.x + 1u;
  let y = local.y + 1u;
  let centre = tile_at(x, y);
  if (centre.w == 0.0) {
    textureStore(normals_out, pixel, vec4f(0.0));
    return;
  }
  // Image rows grow downwards: the upper neighbour is row y - 1.
  let horizontal = pick(centre, tile_at(x + 1u, y), tile_at(x - 1u, y));
  let vertical = pick(centre, tile_at(x, y - 1u), tile_at(x, y + 1u));
  var normal = vec3f(0.0, 0.0, -camera.forward);
  if (horizontal.found && vertical.found) {
    let c = cross(horizontal.offset, vertical.offset) * camera.winding;
    let length_squared = dot(c, c);
    if (length_squared > 0.0) {
      normal = c * inverseSqrt(length_squared);
    }
  }
  let out = normalize((camera.output_from_view * vec4f(normal, 0.0)).xyz);
  textureStore(normals_out, pixel, vec4f(out, 1.0));
}
