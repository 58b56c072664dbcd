// Shared by the renderer's passes: per-instance data, the material block and its textures, and
// fetching a drawn instance (draws index `draw_instances`, which points into `instances`).

struct Instance {
  world: mat4x4f,
  previous_world: mat4x4f,
  // Normal matrix (inverse transpose of world's 3x3, up to scale) as three columns.
  normal0: vec4f,
  normal1: vec4f,
  normal2: vec4f,
  // The mesh's unorm16 positions and uvs map back as xyz + q * w and xy + q * zw.
  position_range: vec4f,
  uv_range: vec4f,
}

fn mesh_position(instance: Instance, q: vec3f) -> vec4f {
  return vec4f(instance.position_range.xyz + q * instance.position_range.w, 1.0);
}

fn mesh_uv(instance: Instance, q: vec2f) -> vec2f {
  return instance.uv_range.xy + q * instance.uv_range.zw;
}

struct Material {
  base_color: vec4f,
  emissive: vec3f,
  alpha_cutoff: f32,
  metallic: f32,
  roughness: f32,
  normal_scale: f32,
  flags: u32,
  occlusion_strength: f32,
  pad0: f32,
  pad1: vec2f,
}

const MATERIAL_BASE_COLOR_TEXTURE: u32 = 1u;
const MATERIAL_METALLIC_ROUGHNESS_TEXTURE: u32 = 2u;
const MATERIAL_NORMAL_TEXTURE: u32 = 4u;
const MATERIAL_MASK: u32 = 8u;
const MATERIAL_BLEND: u32 = 16u;
const MATERIAL_CAUSTICS: u32 = 64u;
const MATERIAL_EMISSIVE_TEXTURE: u32 = 128u;
const MATERIAL_OCCLUSION_TEXTURE: u32 = 256u;

// Base colour with its texture (sRGB textures arrive linear), alpha included.
fn material_base_color(material: Material, base_texture: texture_2d<f32>, material_sampler: sampler, uv: vec2f) -> vec4f {
  var color = material.base_color;
  if ((material.flags & MATERIAL_BASE_COLOR_TEXTURE) != 0u) {
    color *= textureSample(base_texture, material_sampler, uv);
  }
  return color;
}

// A point in a target's pixels (x right, y down, `size` pixels) in NDC (y up).
fn pixel_ndc(pixel: vec2f, size: vec2f) -> vec2f {
  return vec2f(pixel.x / size.x * 2.0 - 1.0, 1.0 - pixel.y / size.y * 2.0);
}
