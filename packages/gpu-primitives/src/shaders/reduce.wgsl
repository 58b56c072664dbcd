// Two-level parallel reduction. The host prepends the element type, the identity and the
// combine function (see reduce-source.ts), so one file serves sum/min/max over f32/u32/i32.
//
// Pass 1 (many workgroups): each invocation folds a grid-stride slice of the input, then the
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
  var acc: T = IDENTITY;
  for (var i = global_id.x; i < params.count; i += params.stride) {
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
