// Bones staged in workgroup memory: the workgroup copies its instance's palette (at most 256
// bones, 12 KiB) into LDS, each thread a bone at a time, then every vertex reads from there.
// The array holds the largest palette in use (LDS_BONES: 32, 64, 128 or 256), not always 256:
// workgroup memory decides how many workgroups share a multiprocessor.
override LDS_BONES: u32 = 256u;
var<workgroup> lds_bones: array<Bone, LDS_BONES>;

fn fetch_bone(palette_offset: u32, joint: u32) -> Bone {
  return lds_bones[joint];
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn skin(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let item = work_item(group);
  // Uniform: every invocation of the workgroup takes the same branch.
  if (item >= params.work_count) {
    return;
  }
  let work = load_work(item);
  let bone_count = select(work.bone_count, 0u, work.mode == MODE_HOLD);
  // The loop bound is a constant so the barrier after it stays in uniform control flow.
  for (var b = 0u; b < LDS_BONES; b += WORKGROUP_SIZE) {
    let bone = b + lid;
    if (bone < bone_count) {
      lds_bones[bone] = palette[work.palette_offset + bone];
    }
  }
  workgroupBarrier();
  for (var k = 0u; k < VERTICES_PER_THREAD; k++) {
    let local = work.first + k * WORKGROUP_SIZE + lid;
    if (local < work.vertex_count) {
      if (work.mode == MODE_HOLD) {
        hold_vertex(work, local);
      } else {
        skin_vertex(work, local);
      }
    }
  }
}
