// The tile-walking module users include in their own shading (see culling-module.ts for the
// bindings and options). Entities are read as four vec4 (EntityList's layout); the culled
// tiles say which ones reach a pixel. Walk decals, probes and lights in three separate loops:
// one loop over all kinds costs registers for the union of their code (the post measured it).
//
//   let tile = cull_tile(pixel);
//   var it = cull_lights(tile);
//   loop {
//     let e = cull_next(&it);
//     if (e == CULL_END) { break; }
//     if (e == CULL_SKIP) { continue; }     // only with scalarize: another lane's tile
//     let light = cull_entities[e];
//     ...
//   }

struct CullView {
  world_from_clip: mat4x4f,
  camera_position: vec3f,
  tile_size: u32,
  viewport: vec2f,
  tiles_x: u32,
  words_per_tile: u32,
  decals: u32,
  probes: u32,
  lights: u32,
  // 0: flat bit arrays, 1: compaction lists.
  technique: u32,
  // Flat bits: words of bucket mask in front of each tile's buckets.
  mask_words: u32,
  pad0: u32,
  pad1: u32,
  pad2: u32,
}

struct CullEntity {
  v0: vec4f,
  v1: vec4f,
  v2: vec4f,
  v3: vec4u,
}

@group(CULL_GROUP) @binding(CULL_BINDING) var<uniform> cull_view: CullView;
@group(CULL_GROUP) @binding(CULL_BINDING_ENTITIES) var<storage, read> cull_entities: array<CullEntity>;
@group(CULL_GROUP) @binding(CULL_BINDING_TILES) var<storage, read> cull_tiles: array<u32>;

const CULL_END: u32 = 0xffffffffu;
const CULL_SKIP: u32 = 0xfffffffeu;
const CULL_KIND_POINT: u32 = 2u;
const CULL_KIND_SPOT: u32 = 3u;

// The tile of a pixel position (a fragment's @builtin(position).xy, or a compute pixel + 0.5).
fn cull_tile(pixel: vec2f) -> u32 {
  let tile = vec2u(pixel) / cull_view.tile_size;
  return tile.y * cull_view.tiles_x + tile.x;
}

// World position of a pixel at depth d (for deferred shading).
fn cull_world_position(pixel: vec2f, depth: f32) -> vec3f {
  let ndc = vec2f(pixel.x / cull_view.viewport.x * 2.0 - 1.0, 1.0 - pixel.y / cull_view.viewport.y * 2.0);
  let p = cull_view.world_from_clip * vec4f(ndc, depth, 1.0);
  return p.xyz / p.w;
}

fn cull_unpack_color(packed: u32) -> vec4f {
  return unpack4x8unorm(packed);
}
