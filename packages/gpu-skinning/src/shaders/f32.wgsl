// The plain f32 layout: 80 bytes in, 48 bytes out, previous xyz beside.
struct InVertex {
  position: vec4<f32>, // xyz, wind
  normal: vec4<f32>,
  tangent: vec4<f32>,
  joints: vec4<u32>,
  weights: vec4<f32>,
}

struct OutVertex {
  position: vec4<f32>,
  normal: vec4<f32>,
  tangent: vec4<f32>,
}

@group(0) @binding(3) var<storage, read> in_vertices: array<InVertex>;
@group(0) @binding(4) var<storage, read_write> out_vertices: array<OutVertex>;
@group(0) @binding(5) var<storage, read_write> out_previous: array<f32>;

fn write_previous(o: u32, p: vec3<f32>) {
  out_previous[o * 3u] = p.x;
  out_previous[o * 3u + 1u] = p.y;
  out_previous[o * 3u + 2u] = p.z;
}

fn hold_vertex(work: Work, local: u32) {
  let o = work.output_vertex + local;
  write_previous(o, out_vertices[o].position.xyz);
}

fn skin_vertex(work: Work, local: u32) {
  let v = work.source_vertex + local;
  let o = work.output_vertex + local;
  let vertex = in_vertices[v];
  let previous = out_vertices[o].position.xyz;
  var p = vertex.position.xyz;
  var n = vertex.normal.xyz;
  var t = vertex.tangent.xyz;
  let w = vertex.weights;
  if (any(w != vec4<f32>(0.0))) {
    var sp = vec3<f32>(0.0);
    var sn = vec3<f32>(0.0);
    var st = vec3<f32>(0.0);
    // The post's loop: stop once the weights read sum to one.
    var sum = 0.0;
    for (var i = 0u; i < 4u && sum < 1.0; i++) {
      let weight = w[i];
      let m = fetch_bone(work.palette_offset, vertex.joints[i]);
      sp += weight * bone_point(m, p);
      sn += weight * bone_vector(m, n);
      st += weight * bone_vector(m, t);
      sum += weight;
    }
    p = sp;
    n = safe_normalize(sn);
    t = safe_normalize(st);
  }
  write_previous(o, select(previous, p, work.mode == MODE_RESET));
  out_vertices[o] = OutVertex(vec4<f32>(p, vertex.position.w), vec4<f32>(n, vertex.position.w), vec4<f32>(t, vertex.tangent.w));
}
