// The shading passes (appended to common.wgsl and @cuttle/gpu-culling's module at group 1):
// physically based shading (GGX, Smith, Schlick; glTF's metallic-roughness) of every decal,
// probe and light culled into the pixel's tile, plus the sun and a few spot lights with shadow
// maps, their transparent colour filters and the water's caustics, and ambient light scaled by
// SSAO. Opaque surfaces are shaded deferred: the opaque pass writes their materials into a
// G-buffer (and motion vectors), and a compute pass lights every pixel of it (deferred_shade),
// because on a GPU with little raster hardware for its size (an H100) fragment work is slow and
// small triangles shade whole 2x2 quads. Transparents are shaded forward, sorted.

struct Spot {
  clip_from_world: mat4x4f,
  position_range: vec4f,
  direction_cos_outer: vec4f,
  color_cos_inner: vec4f,
}

struct Frame {
  clip_from_world: mat4x4f,
  previous_clip_from_world: mat4x4f,
  sun_clip_from_world: mat4x4f,
  camera_position: vec3f,
  exposure: f32,
  // Direction the sunlight travels.
  sun_direction: vec3f,
  sun_on: f32,
  sun_color: vec3f,
  sun_shadows: f32,
  ambient: vec3f,
  ao_on: f32,
  viewport: vec2f,
  shadow_texel: f32,
  caustics: f32,
  spot_count: u32,
  // 0: the post's simple method (colour filter, no tint on transparents); 1: a transparent shadow depth map too.
  transparent_shadows: u32,
  // 1 when the depth is reversed (near 1, far 0).
  reversed_z: u32,
  // 1 when the G-buffer carries its emissive target (emitted light, material occlusion) this frame.
  emissive_on: u32,
  spots: array<Spot, 4>,
  // The camera's right and up axes in world space (billboards).
  camera_right: vec4f,
  camera_up: vec4f,
  // The inverse of clip_from_world: the deferred pass's surface points from the depth.
  world_from_clip: mat4x4f,
}

@group(0) @binding(0) var<uniform> frame: Frame;
@group(0) @binding(1) var<storage, read> instances: array<Instance>;
@group(0) @binding(2) var<storage, read> draw_instances: array<u32>;
@group(0) @binding(3) var shadow_maps: texture_depth_2d_array;
@group(0) @binding(4) var shadow_filters: texture_2d_array<f32>;
@group(0) @binding(5) var shadow_sampler: sampler_comparison;
@group(0) @binding(6) var filter_sampler: sampler;
@group(0) @binding(7) var ambient_occlusion: texture_2d<f32>;
@group(0) @binding(8) var transparent_shadow_maps: texture_depth_2d_array;

@group(2) @binding(0) var<uniform> material: Material;
@group(2) @binding(1) var base_texture: texture_2d<f32>;
@group(2) @binding(2) var metallic_roughness_texture: texture_2d<f32>;
@group(2) @binding(3) var normal_texture: texture_2d<f32>;
@group(2) @binding(4) var material_sampler: sampler;
@group(2) @binding(5) var emissive_texture: texture_2d<f32>;
@group(2) @binding(6) var occlusion_texture: texture_2d<f32>;

const PI: f32 = 3.14159265;

// What a vertex becomes, for either pass: clip and world position, normal, uv, tangent, and
// where it was in clip space last frame.
struct Placed {
  clip: vec4f,
  world: vec3f,
  normal: vec3f,
  uv: vec2f,
  tangent: vec4f,
  clip_before: vec4f,
}

fn place_mesh(position: vec3f, normal: vec3f, uv: vec2f, tangent: vec4f, draw: u32) -> Placed {
  let instance = instances[draw_instances[draw]];
  let local = mesh_position(instance, position);
  let world = instance.world * local;
  let normals = mat3x3f(instance.normal0.xyz, instance.normal1.xyz, instance.normal2.xyz);
  let before = frame.previous_clip_from_world * (instance.previous_world * local);
  return Placed(frame.clip_from_world * world, world.xyz, normals * normal, mesh_uv(instance, uv), vec4f((instance.world * vec4f(tangent.xyz, 0.0)).xyz, tangent.w), before);
}

// The transparent pass's interpolants (lit forward: it needs the world position).
struct Surface {
  @builtin(position) position: vec4f,
  @location(0) world: vec3f,
  @location(1) normal: vec3f,
  @location(2) uv: vec2f,
  @location(3) tangent: vec4f,
}

// The G-buffer pass's: no world position (the lighting pass takes it from the depth) and the
// current clip position from the fragment's own coordinates, so fewer interpolants a vertex.
struct GSurface {
  @builtin(position) @invariant position: vec4f,
  @location(0) normal: vec3f,
  @location(1) uv: vec2f,
  @location(2) tangent: vec4f,
  @location(3) clip_before: vec4f,
}

@vertex
fn mesh_vertex(@location(0) position: vec3f, @location(1) normal: vec3f, @location(2) uv: vec2f, @location(3) tangent: vec4f, @builtin(instance_index) draw: u32) -> Surface {
  let p = place_mesh(position, normal, uv, tangent, draw);
  return Surface(p.clip, p.world, p.normal, p.uv, p.tangent);
}

@vertex
fn mesh_gbuffer_vertex(@location(0) position: vec3f, @location(1) normal: vec3f, @location(2) uv: vec2f, @location(3) tangent: vec4f, @builtin(instance_index) draw: u32) -> GSurface {
  let p = place_mesh(position, normal, uv, tangent, draw);
  return GSurface(p.clip, p.normal, p.uv, p.tangent, p.clip_before);
}

// Skinned characters from @cuttle/gpu-skinning: world-space positions, normals (w: wind), and
// the previous frame's positions the skinning pass wrote (motion vectors). They carry no uvs,
// so their interpolants are the normal and last frame's position alone: a million-vertex crowd
// is bound by what each vertex hands the rasterizer.
struct PlainSurface {
  @builtin(position) @invariant position: vec4f,
  @location(0) normal: vec3f,
  @location(1) clip_before: vec4f,
}

@vertex
fn skinned_vertex(@location(0) position: vec3f, @location(1) normal: vec4f, @location(3) previous: vec3f) -> PlainSurface {
  return PlainSurface(frame.clip_from_world * vec4f(position, 1.0), normal.xyz, frame.previous_clip_from_world * vec4f(previous, 1.0));
}

// Share of light reaching `world` through shadow map `layer` (3x3 percentage-closer filter),
// times the transparent filter's colour where it is lit, plus the caustics in the filter's alpha.
fn shadowed(layer: i32, clip_from_world: mat4x4f, world: vec3f, receive_filter: bool) -> vec3f {
  let clip = clip_from_world * vec4f(world, 1.0);
  let ndc = clip.xyz / clip.w;
  let uv = vec2f(ndc.x * 0.5 + 0.5, 0.5 - ndc.y * 0.5);
  if (clip.w <= 0.0 || any(uv < vec2f(0.0)) || any(uv > vec2f(1.0)) || ndc.z > 1.0) {
    return vec3f(1.0);
  }
  var lit = 0.0;
  var behind_transparent = 0.0;
  for (var y = -1; y <= 1; y++) {
    for (var x = -1; x <= 1; x++) {
      let at = uv + vec2f(f32(x), f32(y)) * frame.shadow_texel;
      lit += textureSampleCompareLevel(shadow_maps, shadow_sampler, at, layer, ndc.z);
      behind_transparent += 1.0 - textureSampleCompareLevel(transparent_shadow_maps, shadow_sampler, at, layer, ndc.z);
    }
  }
  lit /= 9.0;
  behind_transparent /= 9.0;
  let transmitted = textureSampleLevel(shadow_filters, filter_sampler, uv, layer, 0.0);
  // Simple method: opaque receivers take the filter, transparents none (no coloured self-shadow).
  // Separate depth: anything behind a transparent caster takes it, by how much of it is behind.
  var tint = vec3f(1.0);
  if (frame.transparent_shadows == 0u) {
    tint = select(vec3f(1.0), transmitted.rgb, receive_filter);
  } else {
    tint = mix(vec3f(1.0), transmitted.rgb, behind_transparent);
  }
  let caustic = select(0.0, transmitted.a * frame.caustics, receive_filter);
  return lit * tint + vec3f(caustic * lit);
}

fn distribution_ggx(n_dot_h: f32, roughness: f32) -> f32 {
  let a = roughness * roughness;
  let a2 = a * a;
  let d = n_dot_h * n_dot_h * (a2 - 1.0) + 1.0;
  return a2 / max(PI * d * d, 1e-7);
}

fn geometry_smith(n_dot_v: f32, n_dot_l: f32, roughness: f32) -> f32 {
  let k = (roughness + 1.0) * (roughness + 1.0) / 8.0;
  return (n_dot_v / (n_dot_v * (1.0 - k) + k)) * (n_dot_l / (n_dot_l * (1.0 - k) + k));
}

fn fresnel_schlick(cos_theta: f32, f0: vec3f) -> vec3f {
  return f0 + (1.0 - f0) * pow(1.0 - cos_theta, 5.0);
}

// Light of `radiance` arriving from direction `l` (unit, towards the light).
fn brdf(n: vec3f, v: vec3f, l: vec3f, radiance: vec3f, albedo: vec3f, metallic: f32, roughness: f32) -> vec3f {
  let n_dot_l = max(dot(n, l), 0.0);
  if (n_dot_l <= 0.0) {
    return vec3f(0.0);
  }
  let h = normalize(v + l);
  let n_dot_v = max(dot(n, v), 1e-4);
  let f0 = mix(vec3f(0.04), albedo, metallic);
  let f = fresnel_schlick(max(dot(h, v), 0.0), f0);
  let specular = distribution_ggx(max(dot(n, h), 0.0), roughness) * geometry_smith(n_dot_v, n_dot_l, roughness) * f / (4.0 * n_dot_v * n_dot_l + 1e-4);
  let diffuse = (1.0 - f) * (1.0 - metallic) * albedo / PI;
  return (diffuse + specular) * radiance * n_dot_l;
}

// Everything that lights one surface point: the tile's decals, probes and lights, the sun and
// the shadow spots (with shadows and transparent filters), ambient light scaled by SSAO and by
// the material's own occlusion (`material_occlusion`, 1 for none; the lights are not).
fn light_surface(world: vec3f, n: vec3f, pixel: vec2f, base_albedo: vec3f, metallic: f32, roughness: f32, emissive: vec3f, material_occlusion: f32, receive_filter: bool) -> vec3f {
  let v = normalize(frame.camera_position - world);
  let tile = cull_tile(pixel);

  // Decals first, so they are lit like the surface under them; probes blend the ambient light.
  var albedo = base_albedo;
  var decals = cull_decals(tile);
  loop {
    let e = cull_next(&decals);
    if (e == CULL_END) { break; }
    if (e == CULL_SKIP) { continue; }
    albedo = cull_apply_decal(albedo, cull_entities[e], world);
  }
  var ambient = frame.ambient;
  var probes = cull_probes(tile);
  loop {
    let e = cull_next(&probes);
    if (e == CULL_END) { break; }
    if (e == CULL_SKIP) { continue; }
    ambient = cull_apply_probe(ambient, cull_entities[e], world);
  }

  var color = vec3f(0.0);
  var lights = cull_lights(tile);
  loop {
    let e = cull_next(&lights);
    if (e == CULL_END) { break; }
    if (e == CULL_SKIP) { continue; }
    let light = cull_entities[e];
    let to_light = light.v0.xyz - world;
    let distance = length(to_light);
    if (distance >= light.v0.w) { continue; }
    let l = to_light / max(distance, 1e-6);
    var strength = cull_light_falloff(distance, light.v0.w);
    if (light.v3.x == CULL_KIND_SPOT) {
      strength *= smoothstep(light.v1.w, light.v2.w, dot(-l, light.v1.xyz));
    }
    color += brdf(n, v, l, light.v2.rgb * strength, albedo, metallic, roughness);
  }

  if (frame.sun_on > 0.0) {
    var visible = vec3f(1.0);
    if (frame.sun_shadows > 0.0) {
      visible = shadowed(0, frame.sun_clip_from_world, world, receive_filter);
    }
    color += brdf(n, v, -frame.sun_direction, frame.sun_color * visible, albedo, metallic, roughness);
  }
  for (var s = 0u; s < frame.spot_count; s++) {
    let spot = frame.spots[s];
    let to_light = spot.position_range.xyz - world;
    let distance = length(to_light);
    if (distance >= spot.position_range.w) { continue; }
    let l = to_light / max(distance, 1e-6);
    let cone = smoothstep(spot.direction_cos_outer.w, spot.color_cos_inner.w, dot(-l, spot.direction_cos_outer.xyz));
    if (cone <= 0.0) { continue; }
    let visible = shadowed(i32(s) + 1, spot.clip_from_world, world, receive_filter);
    color += brdf(n, v, l, spot.color_cos_inner.rgb * (cone * cull_light_falloff(distance, spot.position_range.w)) * visible, albedo, metallic, roughness);
  }

  var occlusion = material_occlusion;
  if (frame.ao_on > 0.0) {
    occlusion *= textureLoad(ambient_occlusion, vec2u(pixel), 0).r;
  }
  color += ambient * albedo * (1.0 - metallic * 0.5) * occlusion + emissive;
  return color * frame.exposure;
}

// A surface point's material, evaluated from its textures: what shading needs besides the point.
struct SurfaceMaterial {
  base: vec4f,
  metallic: f32,
  roughness: f32,
  normal: vec3f,
  // Emitted light (the factor times the emissive texture) and the occlusion of ambient light.
  emissive: vec3f,
  occlusion: f32,
}

fn surface_material(uv: vec2f, normal: vec3f, tangent: vec4f, front: bool, textured: bool) -> SurfaceMaterial {
  let base = material_base_color(material, base_texture, material_sampler, uv);
  var metallic = material.metallic;
  var roughness = material.roughness;
  if ((material.flags & MATERIAL_METALLIC_ROUGHNESS_TEXTURE) != 0u) {
    let mr = textureSample(metallic_roughness_texture, material_sampler, uv);
    roughness *= mr.g;
    metallic *= mr.b;
  }
  roughness = clamp(roughness, 0.045, 1.0);
  var n = normalize(normal) * select(-1.0, 1.0, front);
  // (A surface without uvs and tangents, `textured` false, skips the normal map.)
  if ((material.flags & MATERIAL_NORMAL_TEXTURE) != 0u && textured) {
    let t = normalize(tangent.xyz - n * dot(n, tangent.xyz));
    let b = cross(n, t) * tangent.w;
    let m = (textureSample(normal_texture, material_sampler, uv).xyz * 2.0 - 1.0) * vec3f(material.normal_scale, material.normal_scale, 1.0);
    n = normalize(mat3x3f(t, b, n) * m);
  }
  // (Each flag is set only where its texture changes something: see packMaterial.)
  var emissive = material.emissive;
  if ((material.flags & MATERIAL_EMISSIVE_TEXTURE) != 0u) {
    emissive *= textureSample(emissive_texture, material_sampler, uv).rgb;
  }
  var occlusion = 1.0;
  if ((material.flags & MATERIAL_OCCLUSION_TEXTURE) != 0u) {
    occlusion = 1.0 + material.occlusion_strength * (textureSample(occlusion_texture, material_sampler, uv).r - 1.0);
  }
  return SurfaceMaterial(base, metallic, roughness, n, emissive, occlusion);
}

// The opaque pass's G-buffer, 8 bytes a pixel for a still surface, 16 for a moving one (more
// where a material glows): on the H100 every byte a pixel written costs about 0.3 ms of a 4K
// frame.
// - surface (rg32uint): x = base colour (square-root encoded, 8 bits a channel), metallic (7
//   bits) and whether the surface wrote its motion (1 bit, MOTION_WRITTEN); y = the normal,
//   octahedral, 12 bits a coordinate, and roughness in the top 8 bits. The pass does not clear
//   it: where the depth holds its clear value (no_surface), it holds an earlier frame's;
// - motion (rgba16float, x and y): written here by moving surfaces only; still_motion fills in
//   the still ones' (the camera's motion alone) from the depth, in compute;
// - emissive (rgba16float), only in frames whose scene has a glowing or occlusion-textured
//   opaque material: rgb the emitted light, and its otherwise spare alpha the material's
//   occlusion of ambient light (the surface words have no bit left; frames without the target
//   take 1, no occlusion).
struct GBufferOut {
  @location(0) surface: vec2u,
  @location(1) motion: vec4f,
}

struct GBufferGlowOut {
  @location(0) surface: vec2u,
  @location(1) motion: vec4f,
  @location(2) emissive: vec4f,
}

// Unit vector to [-1, 1]^2 (octahedral), and back.
fn octahedral(n: vec3f) -> vec2f {
  let p = n.xy / (abs(n.x) + abs(n.y) + abs(n.z));
  let folded = (1.0 - abs(p.yx)) * select(vec2f(-1.0), vec2f(1.0), p >= vec2f(0.0));
  return select(p, folded, n.z < 0.0);
}

fn from_octahedral(e: vec2f) -> vec3f {
  var n = vec3f(e, 1.0 - abs(e.x) - abs(e.y));
  let t = max(-n.z, 0.0);
  n.x += select(t, -t, n.x >= 0.0);
  n.y += select(t, -t, n.y >= 0.0);
  return normalize(n);
}

// The surface word's bit that says its pixel's motion vector was written with it.
const MOTION_WRITTEN: u32 = 0x01000000u;

fn pack_surface(m: SurfaceMaterial, moving: bool) -> vec2u {
  let e = vec2u(round(clamp(octahedral(m.normal) * 0.5 + 0.5, vec2f(0.0), vec2f(1.0)) * 4095.0));
  let roughness = u32(round(m.roughness * 255.0));
  let metallic = u32(round(clamp(m.metallic, 0.0, 1.0) * 127.0)) << 25u;
  let color = pack4x8unorm(vec4f(sqrt(m.base.rgb), 0.0)) | metallic | select(0u, MOTION_WRITTEN, moving);
  return vec2u(color, e.x | (e.y << 12u) | (roughness << 24u));
}

// The G-buffer's surface: base colour, metallic, normal, roughness.
struct GBufferSurface {
  albedo: vec3f,
  metallic: f32,
  normal: vec3f,
  roughness: f32,
}

fn unpack_surface(g: vec2u) -> GBufferSurface {
  let color = unpack4x8unorm(g.x);
  let e = vec2f(f32(g.y & 0xfffu), f32((g.y >> 12u) & 0xfffu)) / 4095.0 * 2.0 - 1.0;
  return GBufferSurface(color.rgb * color.rgb, f32(g.x >> 25u) / 127.0, from_octahedral(e), f32(g.y >> 24u) / 255.0);
}

fn gbuffer_surface(uv: vec2f, normal: vec3f, tangent: vec4f, front: bool, textured: bool) -> SurfaceMaterial {
  let m = surface_material(uv, normal, tangent, front, textured);
  if ((material.flags & MATERIAL_MASK) != 0u && m.base.a < material.alpha_cutoff) {
    discard;
  }
  return m;
}

// Screen-space motion since the last frame, in UV units (x right, y down).
fn screen_motion(position: vec4f, clip_before: vec4f) -> vec4f {
  let now = pixel_ndc(position.xy, frame.viewport);
  let before = clip_before.xy / clip_before.w;
  return vec4f((now - before) * vec2f(0.5, -0.5), 0.0, 1.0);
}

@fragment
fn gbuffer_fragment(surface: GSurface, @builtin(front_facing) front: bool) -> GBufferOut {
  return GBufferOut(pack_surface(gbuffer_surface(surface.uv, surface.normal, surface.tangent, front, true), true), screen_motion(surface.position, surface.clip_before));
}

@fragment
fn gbuffer_plain_fragment(surface: PlainSurface, @builtin(front_facing) front: bool) -> GBufferOut {
  return GBufferOut(pack_surface(gbuffer_surface(vec2f(0.0), surface.normal, vec4f(0.0), front, false), true), screen_motion(surface.position, surface.clip_before));
}

// The emissive target's texel: emitted light, and the material's occlusion in alpha.
fn glow_texel(m: SurfaceMaterial) -> vec4f {
  return vec4f(m.emissive, m.occlusion);
}

@fragment
fn gbuffer_glow_fragment(surface: GSurface, @builtin(front_facing) front: bool) -> GBufferGlowOut {
  let m = gbuffer_surface(surface.uv, surface.normal, surface.tangent, front, true);
  return GBufferGlowOut(pack_surface(m, true), screen_motion(surface.position, surface.clip_before), glow_texel(m));
}

@fragment
fn gbuffer_plain_glow_fragment(surface: PlainSurface, @builtin(front_facing) front: bool) -> GBufferGlowOut {
  let m = gbuffer_surface(vec2f(0.0), surface.normal, vec4f(0.0), front, false);
  return GBufferGlowOut(pack_surface(m, true), screen_motion(surface.position, surface.clip_before), glow_texel(m));
}

// Surfaces that did not move since the last frame leave their motion to still_motion (their
// pipelines mask the motion target): 8 bytes a pixel fewer through the raster hardware.
struct StillSurface {
  @builtin(position) @invariant position: vec4f,
  @location(0) normal: vec3f,
  @location(1) uv: vec2f,
  @location(2) tangent: vec4f,
}

struct GBufferStillOut {
  @location(0) surface: vec2u,
}

struct GBufferStillGlowOut {
  @location(0) surface: vec2u,
  @location(2) emissive: vec4f,
}

@fragment
fn gbuffer_still_fragment(surface: StillSurface, @builtin(front_facing) front: bool) -> GBufferStillOut {
  return GBufferStillOut(pack_surface(gbuffer_surface(surface.uv, surface.normal, surface.tangent, front, true), false));
}

@fragment
fn gbuffer_still_glow_fragment(surface: StillSurface, @builtin(front_facing) front: bool) -> GBufferStillGlowOut {
  let m = gbuffer_surface(surface.uv, surface.normal, surface.tangent, front, true);
  return GBufferStillGlowOut(pack_surface(m, false), glow_texel(m));
}

// opaqueShading 'forward': a depth prepass (the G-buffer pass's vertices, so the depths match
// exactly; masked surfaces cut out by alpha), then every opaque surface lit where it is the one
// the prepass kept (depth compare equal), the tile's culled lights read in the fragment.
struct ForwardOut {
  @location(0) color: vec4f,
  @location(1) motion: vec4f,
}

// The world point under a pixel (window coordinates, as a fragment's position) at its depth (z).
fn world_at(position: vec4f) -> vec3f {
  let point = frame.world_from_clip * vec4f(pixel_ndc(position.xy, frame.viewport), position.z, 1.0);
  return point.xyz / point.w;
}

fn forward_lit(position: vec4f, m: SurfaceMaterial) -> vec4f {
  return vec4f(light_surface(world_at(position), m.normal, position.xy, m.base.rgb, m.metallic, m.roughness, m.emissive, m.occlusion, true), 1.0);
}

@fragment
fn forward_fragment(surface: GSurface, @builtin(front_facing) front: bool) -> ForwardOut {
  let m = gbuffer_surface(surface.uv, surface.normal, surface.tangent, front, true);
  return ForwardOut(forward_lit(surface.position, m), screen_motion(surface.position, surface.clip_before));
}

@fragment
fn forward_plain_fragment(surface: PlainSurface, @builtin(front_facing) front: bool) -> ForwardOut {
  let m = gbuffer_surface(vec2f(0.0), surface.normal, vec4f(0.0), front, false);
  return ForwardOut(forward_lit(surface.position, m), screen_motion(surface.position, surface.clip_before));
}

// The prepass's masked surfaces: no colour, only the cut-out.
@fragment
fn prepass_masked_fragment(surface: StillSurface) {
  if (material_base_color(material, base_texture, material_sampler, surface.uv).a < material.alpha_cutoff) {
    discard;
  }
}

@fragment
fn prepass_plain_masked_fragment(surface: PlainSurface) {
  if (material_base_color(material, base_texture, material_sampler, vec2f(0.0)).a < material.alpha_cutoff) {
    discard;
  }
}

@fragment
fn transparent_fragment(surface: Surface, @builtin(front_facing) front: bool) -> @location(0) vec4f {
  let m = surface_material(surface.uv, surface.normal, surface.tangent, front, true);
  let color = light_surface(surface.world, m.normal, surface.position.xy, m.base.rgb, m.metallic, m.roughness, m.emissive, m.occlusion, false);
  return vec4f(color, m.base.a);
}

// The deferred pass's inputs (group 2 of its pipeline; the materials' group 2 bindings are 0 to 6).
@group(2) @binding(10) var gbuffer_depth: texture_depth_2d;
@group(2) @binding(11) var gbuffer_surfaces: texture_2d<u32>;
@group(2) @binding(12) var gbuffer_emissive: texture_2d<f32>;
@group(2) @binding(14) var lit_out: texture_storage_2d<rgba16float, write>;
@group(2) @binding(15) var motion_out: texture_storage_2d<rgba16float, write>;

// The motion vectors of every pixel the opaque pass did not write one for (the pass does not
// clear them): still surfaces (MOTION_WRITTEN clear) take the camera's motion alone, from the
// pixel's depth; the sky takes zero.
@compute @workgroup_size(8, 8)
fn still_motion(@builtin(global_invocation_id) cell: vec3u) {
  let size = textureDimensions(gbuffer_depth);
  if (cell.x >= size.x || cell.y >= size.y) {
    return;
  }
  let depth = textureLoad(gbuffer_depth, cell.xy, 0);
  if (no_surface(depth)) {
    textureStore(motion_out, cell.xy, vec4f(0.0, 0.0, 0.0, 1.0));
    return;
  }
  if ((textureLoad(gbuffer_surfaces, cell.xy, 0).x & MOTION_WRITTEN) != 0u) {
    return;
  }
  let pixel = vec4f(vec2f(cell.xy) + 0.5, depth, 1.0);
  textureStore(motion_out, cell.xy, screen_motion(pixel, frame.previous_clip_from_world * vec4f(world_at(pixel), 1.0)));
}

// Whether the opaque pass left this depth clear (the far plane): no surface, the sky.
fn no_surface(depth: f32) -> bool {
  return depth == select(1.0, 0.0, frame.reversed_z == 1u);
}

// Lights one pixel of the G-buffer into the HDR target (black where no opaque surface was
// written: the sky; the fluid's pixels are lit from the surface behind, and its own pass
// lights them again afterwards).
@compute @workgroup_size(8, 8)
fn deferred_shade(@builtin(global_invocation_id) cell: vec3u) {
  let size = textureDimensions(gbuffer_depth);
  if (cell.x >= size.x || cell.y >= size.y) {
    return;
  }
  let depth = textureLoad(gbuffer_depth, cell.xy, 0);
  if (no_surface(depth)) {
    textureStore(lit_out, cell.xy, vec4f(0.0, 0.0, 0.0, 1.0));
    return;
  }
  let g = unpack_surface(textureLoad(gbuffer_surfaces, cell.xy, 0).xy);
  var emissive = vec3f(0.0);
  var occlusion = 1.0;
  if (frame.emissive_on == 1u) {
    let glow = textureLoad(gbuffer_emissive, cell.xy, 0);
    emissive = glow.rgb;
    occlusion = glow.a;
  }
  let pixel = vec2f(cell.xy) + 0.5;
  let color = light_surface(world_at(vec4f(pixel, depth, 1.0)), g.normal, pixel, g.albedo, g.metallic, g.roughness, emissive, occlusion, true);
  textureStore(lit_out, cell.xy, vec4f(color, 1.0));
}
