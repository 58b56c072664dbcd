// Shared by every skinning kernel: bones, the dispatch table, the blend loop's arithmetic.
// A kernel is this file + a format file (packed.wgsl or f32.wgsl) + a bone source (lds.wgsl
// or global.wgsl); the format file defines skin_vertex and hold_vertex, the bone source the
// entry point and fetch_bone.

// A 3x4 matrix: the top three rows of the bone's 4x4 transform.
struct Bone {
  r0: vec4<f32>,
  r1: vec4<f32>,
  r2: vec4<f32>,
}

struct Params {
  // First word of this dispatch's work items in `table`.
  work_offset: u32,
  // Work items (one per workgroup) in this dispatch.
  work_count: u32,
  // Workgroups per row of the 2D dispatch grid.
  groups_x: u32,
  pad: u32,
}

// One workgroup's job, read from the table.
struct Work {
  mode: u32,
  source_vertex: u32,
  vertex_count: u32,
  palette_offset: u32,
  bone_count: u32,
  output_vertex: u32,
  // The chunk's first vertex within the instance.
  first: u32,
}

const MODE_SKIN: u32 = 0u;
const MODE_RESET: u32 = 1u;
const MODE_HOLD: u32 = 2u;
const INSTANCE_WORDS: u32 = 8u;

override WORKGROUP_SIZE: u32 = 64u;
override VERTICES_PER_THREAD: u32 = 1u;

@group(0) @binding(0) var<uniform> params: Params;
// Instance records (8 words: source vertex, vertex count, palette offset, bone count, output
// vertex, 3 spare) from word 0, then this frame's work items (2 words: instance | mode << 30,
// first vertex of the chunk) from params.work_offset.
@group(0) @binding(1) var<storage, read> table: array<u32>;
@group(0) @binding(2) var<storage, read> palette: array<Bone>;

fn load_work(item: u32) -> Work {
  let at = params.work_offset + item * 2u;
  let head = table[at];
  let instance = head & 0x3fffffffu;
  let record = instance * INSTANCE_WORDS;
  var work: Work;
  work.mode = head >> 30u;
  work.source_vertex = table[record];
  work.vertex_count = table[record + 1u];
  work.palette_offset = table[record + 2u];
  work.bone_count = table[record + 3u];
  work.output_vertex = table[record + 4u];
  work.first = table[at + 1u];
  return work;
}

fn work_item(group: vec3<u32>) -> u32 {
  return group.x + group.y * params.groups_x;
}

fn bone_point(m: Bone, p: vec3<f32>) -> vec3<f32> {
  let h = vec4<f32>(p, 1.0);
  return vec3<f32>(dot(m.r0, h), dot(m.r1, h), dot(m.r2, h));
}

fn bone_vector(m: Bone, v: vec3<f32>) -> vec3<f32> {
  return vec3<f32>(dot(m.r0.xyz, v), dot(m.r1.xyz, v), dot(m.r2.xyz, v));
}

fn safe_normalize(v: vec3<f32>) -> vec3<f32> {
  let length2 = dot(v, v);
  return select(v, v * inverseSqrt(length2), length2 > 0.0);
}
