// Two-level parallel reduction. The host prepends the element type, the identity and the
// combine function (see reduce-source.ts), so one file serves sum/min/max over f32/u32/i32.
//
// Pass 1 (many workgroups): each invocation folds a grid-stride slice of the input (four
// strides per iteration, then the tail one at a time), then the
// workgroup folds its 256 values as a tree in workgroup memory and writes one partial.
// Pass 2 (one workgroup) runs the same entry point over the partials.

struct Params {
  count: u32,
  // Invocations in the whole dispatch: the grid stride.
  stride: u32,
}

@group(0) @binding(0) var<storage, read> input: array<T>;
@group(0) @binding(1) var<storage, read_write> output: array<T>;
@group(0) @binding(2) var<uniform> params: Params;

const WORKGROUP_SIZE: u32 = 256u;
var<workgroup> scratch: array<T, WORKGROUP_SIZE>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn reduce(
  @builtin(global_invocation_id) global_id: vec3<u32>,
  @builtin(local_invocation_index) local_index: u32,
  @builtin(workgroup_id) group_id: vec3<u32>,
) {
  // Four independent loads per iteration keep enough bytes in flight to stream from memory;
  // one load per iteration leaves each invocation waiting on the previous one.
  let stride = params.stride;
  var acc: T = IDENTITY;
  var i = global_id.x;
  for (; i + 3u * stride < params.count; i += 4u * stride) {
    let a = input[i];
    let b = input[i + stride];
    let c = input[i + 2u * stride];
    let d = input[i + 3u * stride];
    acc = combine(acc, combine(combine(a, b), combine(c, d)));
  }
  for (; i < params.count; i += stride) {
    acc = combine(acc, input[i]);
  }
  scratch[local_index] = acc;
  workgroupBarrier();
  for (var half = WORKGROUP_SIZE / 2u; half > 0u; half >>= 1u) {
    if (local_index < half) {
      scratch[local_index] = combine(scratch[local_index], scratch[local_index + half]);
    }
    workgroupBarrier();
  }
  if (local_index == 0u) {
    output[group_id.x] = scratch[0];
  }
}
