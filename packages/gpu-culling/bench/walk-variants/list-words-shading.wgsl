// A complete, simple shading of one surface point with everything culled into its tile, used
// by the tiled-deferred pass and the forward+ example: decals tint the albedo first (so they are
// lit like the surface under them), probes blend their ambient colour in order, then lights add
// Lambert diffuse and Blinn-Phong specular with a windowed inverse-square falloff. The pieces
// (cull_apply_decal, cull_apply_probe, cull_add_light) are there for shading of your own.

// Position in box space ([-1, 1]^3 inside) of a decal or probe.
fn cull_box_point(entity: CullEntity, position: vec3f) -> vec3f {
  let p = vec4f(position, 1.0);
  return vec3f(dot(entity.v0, p), dot(entity.v1, p), dot(entity.v2, p));
}

// 1 deep inside a box, fading to 0 at its faces.
fn cull_box_weight(q: vec3f) -> f32 {
  let edge = max(abs(q.x), max(abs(q.y), abs(q.z)));
  return select(0.0, 1.0 - pow(edge, 8.0), edge < 1.0);
}

fn cull_apply_decal(albedo: vec3f, decal: CullEntity, position: vec3f) -> vec3f {
  let color = cull_unpack_color(decal.v3.z);
  return mix(albedo, color.rgb, color.a * cull_box_weight(cull_box_point(decal, position)));
}

fn cull_apply_probe(ambient: vec3f, probe: CullEntity, position: vec3f) -> vec3f {
  let color = cull_unpack_color(probe.v3.z);
  return mix(ambient, color.rgb, color.a * cull_box_weight(cull_box_point(probe, position)));
}

struct CullLighting {
  diffuse: vec3f,
  specular: vec3f,
}

fn cull_light_falloff(distance: f32, range: f32) -> f32 {
  let ratio = distance / range;
  let window = clamp(1.0 - ratio * ratio * ratio * ratio, 0.0, 1.0);
  return window * window / (distance * distance + 1.0);
}

fn cull_add_light(lighting: ptr<function, CullLighting>, light: CullEntity, position: vec3f, normal: vec3f, view_dir: vec3f) {
  let to_light = light.v0.xyz - position;
  let distance = length(to_light);
  if (distance >= light.v0.w) {
    return;
  }
  let l = to_light / max(distance, 1e-6);
  var strength = cull_light_falloff(distance, light.v0.w);
  if (light.v3.x == CULL_KIND_SPOT) {
    strength *= smoothstep(light.v1.w, light.v2.w, dot(-l, light.v1.xyz));
  }
  let n_dot_l = max(dot(normal, l), 0.0);
  let h = normalize(l + view_dir);
  (*lighting).diffuse += light.v2.rgb * (strength * n_dot_l);
  (*lighting).specular += light.v2.rgb * (strength * pow(max(dot(normal, h), 0.0), 32.0) * 0.25 * step(1e-6, n_dot_l));
}

fn cull_shade(pixel: vec2f, position: vec3f, normal: vec3f, base_albedo: vec3f, base_ambient: vec3f) -> vec3f {
  let tile = cull_tile(pixel);
  var albedo = base_albedo;
  var ambient = base_ambient;
  var decals = cull_decals(tile);
  let decal_words = cull_list_words(&decals);
  for (var w = decal_words.x; w < decal_words.y; w++) {
    albedo = cull_apply_decal(albedo, cull_entities[cull_tiles[w]], position);
  }
  loop {
    let e = cull_next(&decals);
    if (e == CULL_END) { break; }
    if (e == CULL_SKIP) { continue; }
    albedo = cull_apply_decal(albedo, cull_entities[e], position);
  }
  var probes = cull_probes(tile);
  let probe_words = cull_list_words(&probes);
  for (var w = probe_words.x; w < probe_words.y; w++) {
    ambient = cull_apply_probe(ambient, cull_entities[cull_tiles[w]], position);
  }
  loop {
    let e = cull_next(&probes);
    if (e == CULL_END) { break; }
    if (e == CULL_SKIP) { continue; }
    ambient = cull_apply_probe(ambient, cull_entities[e], position);
  }
  let view_dir = normalize(cull_view.camera_position - position);
  var lighting: CullLighting;
  var lights = cull_lights(tile);
  let light_words = cull_list_words(&lights);
  for (var w = light_words.x; w < light_words.y; w++) {
    cull_add_light(&lighting, cull_entities[cull_tiles[w]], position, normal, view_dir);
  }
  loop {
    let e = cull_next(&lights);
    if (e == CULL_END) { break; }
    if (e == CULL_SKIP) { continue; }
    cull_add_light(&lighting, cull_entities[e], position, normal, view_dir);
  }
  return albedo * (ambient + lighting.diffuse) + lighting.specular;
}

// The same shading with no culling: every decal, probe and light (the baseline culling beats).
fn cull_shade_everything(position: vec3f, normal: vec3f, base_albedo: vec3f, base_ambient: vec3f) -> vec3f {
  var albedo = base_albedo;
  var ambient = base_ambient;
  let probes_end = cull_view.decals + cull_view.probes;
  for (var e = 0u; e < cull_view.decals; e++) {
    albedo = cull_apply_decal(albedo, cull_entities[e], position);
  }
  for (var e = cull_view.decals; e < probes_end; e++) {
    ambient = cull_apply_probe(ambient, cull_entities[e], position);
  }
  let view_dir = normalize(cull_view.camera_position - position);
  var lighting: CullLighting;
  for (var e = probes_end; e < probes_end + cull_view.lights; e++) {
    cull_add_light(&lighting, cull_entities[e], position, normal, view_dir);
  }
  return albedo * (ambient + lighting.diffuse) + lighting.specular;
}
