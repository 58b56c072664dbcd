// The bandwidth yardstick for the GPU benchmarks: copy vec4<u32> from one buffer to another,
// grid-stride, four loads in flight per invocation.
struct Params {
  count: u32,
  stride: u32,
}
@group(0) @binding(0) var<storage, read> source: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> destination: array<vec4<u32>>;
@group(0) @binding(2) var<uniform> params: Params;

@compute @workgroup_size(256)
fn copy(@builtin(global_invocation_id) id: vec3<u32>) {
  var i = id.x;
  let s = params.stride;
  for (; i + 3u * s < params.count; i += 4u * s) {
    let a = source[i];
    let b = source[i + s];
    let c = source[i + 2u * s];
    let d = source[i + 3u * s];
    destination[i] = a;
    destination[i + s] = b;
    destination[i + 2u * s] = c;
    destination[i + 3u * s] = d;
  }
  for (; i < params.count; i += s) {
    destination[i] = source[i];
  }
}
