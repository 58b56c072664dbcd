// The post's packed streams. In: position f32x3 + normal snorm8x4 (w = wind), tangent
// snorm8x4, indices u16x4 + weights unorm16x4. Out: position + normal, tangent, previous xyz.
@group(0) @binding(3) var<storage, read> in_position_normal: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read> in_tangent: array<u32>;
@group(0) @binding(5) var<storage, read> in_bones: array<vec4<u32>>;
@group(0) @binding(6) var<storage, read_write> out_position_normal: array<vec4<u32>>;
@group(0) @binding(7) var<storage, read_write> out_tangent: array<u32>;
@group(0) @binding(8) var<storage, read_write> out_previous: array<f32>;

fn write_previous(o: u32, p: vec3<f32>) {
  out_previous[o * 3u] = p.x;
  out_previous[o * 3u + 1u] = p.y;
  out_previous[o * 3u + 2u] = p.z;
}

fn hold_vertex(work: Work, local: u32) {
  let o = work.output_vertex + local;
  write_previous(o, bitcast<vec3<f32>>(out_position_normal[o].xyz));
}

fn skin_vertex(work: Work, local: u32) {
  let v = work.source_vertex + local;
  let o = work.output_vertex + local;
  let position_normal = in_position_normal[v];
  let tangent_word = in_tangent[v];
  let bones = in_bones[v];
  // The previous frame's position, loaded before this frame's overwrites it.
  let previous = bitcast<vec3<f32>>(out_position_normal[o].xyz);
  let normal = unpack4x8snorm(position_normal.w);
  let tangent = unpack4x8snorm(tangent_word);
  var p = bitcast<vec3<f32>>(position_normal.xyz);
  var n = normal.xyz;
  var t = tangent.xyz;
  if ((bones.z | bones.w) != 0u) {
    var sp = vec3<f32>(0.0);
    var sn = vec3<f32>(0.0);
    var st = vec3<f32>(0.0);
    // Dynamic loop: weights are sorted largest first and sum to 65535 units, so it stops as
    // soon as the vertex's influences are used up.
    var units = 0u;
    for (var i = 0u; i < 4u && units < 65535u; i++) {
      let shift = (i & 1u) * 16u;
      let joint = (bones[i >> 1u] >> shift) & 0xffffu;
      let q = (bones[2u + (i >> 1u)] >> shift) & 0xffffu;
      let weight = f32(q) / 65535.0;
      let m = fetch_bone(work.palette_offset, joint);
      sp += weight * bone_point(m, p);
      sn += weight * bone_vector(m, n);
      st += weight * bone_vector(m, t);
      units += q;
    }
    p = sp;
    n = safe_normalize(sn);
    t = safe_normalize(st);
  }
  write_previous(o, select(previous, p, work.mode == MODE_RESET));
  out_position_normal[o] = vec4<u32>(bitcast<vec3<u32>>(p), pack4x8snorm(vec4<f32>(n, normal.w)));
  out_tangent[o] = pack4x8snorm(vec4<f32>(t, tangent.w));
}
