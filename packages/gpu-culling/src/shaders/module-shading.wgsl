// A complete, simple shading of one surface point with everything culled into its tile, used
// by the tiled-deferred pass and the forward+ example: decals tint the albedo first (so they are
// lit like the surface under them), probes blend their ambient colour in order, then lights add
// Lambert diffuse and Blinn-Phong specular with a windowed inverse-square falloff.

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

fn cull_light_falloff(distance: f32, range: f32) -> f32 {
  let ratio = distance / range;
  let window = clamp(1.0 - ratio * ratio * ratio * ratio, 0.0, 1.0);
  return window * window / (distance * distance + 1.0);
}

fn cull_shade(pixel: vec2f, position: vec3f, normal: vec3f, base_albedo: vec3f, base_ambient: vec3f) -> vec3f {
  let tile = cull_tile(pixel);
  var albedo = base_albedo;
  var ambient = base_ambient;

  var decals = cull_decals(tile);
  loop {
    let e = cull_next(&decals);
    if (e == CULL_END) { break; }
    if (e == CULL_SKIP) { continue; }
    let decal = cull_entities[e];
    let color = cull_unpack_color(decal.v3.z);
    albedo = mix(albedo, color.rgb, color.a * cull_box_weight(cull_box_point(decal, position)));
  }

  var probes = cull_probes(tile);
  loop {
    let e = cull_next(&probes);
    if (e == CULL_END) { break; }
    if (e == CULL_SKIP) { continue; }
    let probe = cull_entities[e];
    let color = cull_unpack_color(probe.v3.z);
    ambient = mix(ambient, color.rgb, color.a * cull_box_weight(cull_box_point(probe, position)));
  }

  let view_dir = normalize(cull_view.camera_position - position);
  var diffuse = vec3f(0.0);
  var specular = vec3f(0.0);
  var lights = cull_lights(tile);
  loop {
    let e = cull_next(&lights);
    if (e == CULL_END) { break; }
    if (e == CULL_SKIP) { continue; }
    let light = cull_entities[e];
    let to_light = light.v0.xyz - position;
    let distance = length(to_light);
    if (distance >= light.v0.w) { continue; }
    let l = to_light / max(distance, 1e-6);
    var strength = cull_light_falloff(distance, light.v0.w);
    if (light.v3.x == CULL_KIND_SPOT) {
      strength *= smoothstep(light.v1.w, light.v2.w, dot(-l, light.v1.xyz));
    }
    let n_dot_l = max(dot(normal, l), 0.0);
    let h = normalize(l + view_dir);
    diffuse += light.v2.rgb * (strength * n_dot_l);
    specular += light.v2.rgb * (strength * pow(max(dot(normal, h), 0.0), 32.0) * 0.25 * step(0.0, n_dot_l));
  }
  return albedo * (ambient + diffuse) + specular;
}
