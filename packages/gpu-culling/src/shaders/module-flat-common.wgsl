// What both walks over flat bits share (module-flat.wgsl, the dense walk; module-flat-sparse.wgsl,
// the sparse one): a tile's forms and where a kind's entities lie.

const CULL_LIST_FORM: u32 = 0x80000000u;
const CULL_FLAT_HEADER: u32 = 1u;
const CULL_LIST_HEADER: u32 = 1u;

// Entities [first, end) of the kind: decals, then probes, then lights.
fn cull_kind_range(kind: u32) -> vec2u {
  let first = select(select(cull_view.decals + cull_view.probes, cull_view.decals, kind == 1u), 0u, kind == 0u);
  let count = select(select(cull_view.lights, cull_view.probes, kind == 1u), cull_view.decals, kind == 0u);
  return vec2u(first, first + count);
}

// Words [x, y) of a list form tile (first word `base`, header `header`) that hold the kind's
// entries: the header counts each kind as a compaction list's statistics word does.
fn cull_list_words(base: u32, header: u32, kind: u32) -> vec2u {
  let decals = header & 0x3ffu;
  let boxes = decals + ((header >> 10u) & 0x3ffu);
  let lights = (header >> 20u) & 0x7ffu;
  let start = select(select(boxes, decals, kind == 1u), 0u, kind == 0u);
  let stop = select(select(boxes + lights, boxes, kind == 1u), decals, kind == 0u);
  return vec2u(base + CULL_LIST_HEADER + start, base + CULL_LIST_HEADER + stop);
}
