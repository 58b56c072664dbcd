// Bones straight from the palette buffer: up to four scattered 48-byte loads per vertex.
fn fetch_bone(palette_offset: u32, joint: u32) -> Bone {
  return palette[palette_offset + joint];
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn skin(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let item = work_item(group);
  if (item >= params.work_count) {
    return;
  }
  let work = load_work(item);
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
