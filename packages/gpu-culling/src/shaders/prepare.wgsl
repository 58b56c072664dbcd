// The entity pass: one invocation per entity brings it into cull space for the culling tests:
// a bounding sphere, the rectangle of tiles it can cover on screen, and the shape data of spot
// lights and boxes. Runs once per frame, so the per-tile tests never touch a matrix.

@group(0) @binding(0) var<uniform> frame: Frame;
@group(0) @binding(1) var<storage, read> entities: array<Entity>;
@group(0) @binding(2) var<storage, read_write> rects: array<vec2u>;
@group(0) @binding(3) var<storage, read_write> spheres: array<vec4f>;
@group(0) @binding(4) var<storage, read_write> shapes: array<Shape>;

// cos(45 degrees): below it a spot's bounding sphere sits on its cap, above it on its axis.
const SPOT_WIDE_COS: f32 = 0.70710678;

// Tiles covered by the sphere's box once projected, packed (x0 | y0 << 16, x1 | y1 << 16);
// the whole screen when part of the box is behind the camera, x0 > x1 when none (all of it
// behind the camera, or off screen).
fn tile_rect(center: vec3f, radius: f32) -> vec2u {
  var low = vec2f(3.4e38);
  var high = vec2f(-3.4e38);
  var behind = false;
  var all_behind = true;
  let tile_scale = frame.viewport / f32(TILE_SIZE);
  for (var corner = 0u; corner < 8u; corner++) {
    let offset = vec3f(select(-radius, radius, (corner & 1u) != 0u), select(-radius, radius, (corner & 2u) != 0u), select(-radius, radius, (corner & 4u) != 0u));
    let clip = frame.clip_from_cull * vec4f(center + offset, 1.0);
    behind = behind || clip.w <= 0.0;
    all_behind = all_behind && clip.w <= 0.0;
    let ndc = clip.xy / clip.w;
    let tile = vec2f(ndc.x * 0.5 + 0.5, 0.5 - ndc.y * 0.5) * tile_scale;
    low = min(low, tile);
    high = max(high, tile);
  }
  let last = vec2f(frame.tiles - 1u);
  if (all_behind) {
    return vec2u(1u, 0u);
  }
  if (behind) {
    return vec2u(0u, (frame.tiles.x - 1u) | ((frame.tiles.y - 1u) << 16u));
  }
  if (any(high < vec2f(0.0)) || any(low >= vec2f(frame.tiles))) {
    return vec2u(1u, 0u);
  }
  let first = vec2u(clamp(floor(low), vec2f(0.0), last));
  let end = vec2u(clamp(floor(high), vec2f(0.0), last));
  return vec2u(first.x | (first.y << 16u), end.x | (end.y << 16u));
}

@compute @workgroup_size(64)
fn prepare(@builtin(global_invocation_id) id: vec3u) {
  let e = id.x;
  if (e >= frame.counts.w) {
    return;
  }
  let entity = entities[e];
  let kind = entity.v3.x;
  var shape: Shape;
  var center: vec3f;
  var radius: f32;
  if (kind == KIND_POINT || kind == KIND_SPOT) {
    let range = entity.v0.w;
    let apex = (frame.cull_from_world * vec4f(entity.v0.xyz, 1.0)).xyz;
    center = apex;
    radius = range;
    if (kind == KIND_SPOT) {
      let direction = normalize((frame.cull_from_world * vec4f(entity.v1.xyz, 0.0)).xyz);
      let c = entity.v1.w;
      let s = sqrt(max(0.0, 1.0 - c * c));
      // The lit volume is the cone's sector of the range sphere: its tightest bounding sphere.
      let along = select(range / (2.0 * c), range * c, c < SPOT_WIDE_COS);
      radius = select(along, range * s, c < SPOT_WIDE_COS);
      center = apex + direction * along;
      shape.s0 = vec4f(apex, c);
      shape.s1 = vec4f(direction, s);
      shape.s2 = vec4f(range, 0.0, 0.0, 0.0);
    }
  } else {
    // Rows of world-to-box; the box's world matrix is their inverse (cofactors).
    let r0 = entity.v0;
    let r1 = entity.v1;
    let r2 = entity.v2;
    // Columns of the inverse are the rows' cross products over the determinant.
    let cof = mat3x3f(cross(r1.xyz, r2.xyz), cross(r2.xyz, r0.xyz), cross(r0.xyz, r1.xyz));
    let inverse = cof * (1.0 / dot(r0.xyz, cof[0]));
    let translation = -(inverse * vec3f(r0.w, r1.w, r2.w));
    let linear = mat3x3f(frame.cull_from_world[0].xyz, frame.cull_from_world[1].xyz, frame.cull_from_world[2].xyz);
    center = (frame.cull_from_world * vec4f(translation, 1.0)).xyz;
    let ax = linear * inverse[0];
    let ay = linear * inverse[1];
    let az = linear * inverse[2];
    radius = max(max(length(ax + ay + az), length(ax + ay - az)), max(length(ax - ay + az), length(ax - ay - az)));
    let w = frame.world_from_cull;
    for (var row = 0u; row < 3u; row++) {
      let r = select(select(r2, r1, row == 1u), r0, row == 0u);
      let box_row = vec4f(dot(r.xyz, w[0].xyz), dot(r.xyz, w[1].xyz), dot(r.xyz, w[2].xyz), dot(r.xyz, w[3].xyz) + r.w);
      if (row == 0u) { shape.s0 = box_row; } else if (row == 1u) { shape.s1 = box_row; } else { shape.s2 = box_row; }
    }
    shape.s3 = vec4f(ax, abs(ax.z) + abs(ay.z) + abs(az.z));
    shape.s4 = vec4f(ay, 0.0);
    shape.s5 = vec4f(az, 0.0);
  }
  spheres[e] = vec4f(center, radius);
  rects[e] = tile_rect(center, radius);
  shapes[e] = shape;
}
