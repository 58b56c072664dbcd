// A GLB's triangles as the static-mesh compiler groups them before ordering: every triangle
// primitive at its node's world matrix (mirroring matrices flip the winding back), merged per
// material. Positions only; for the overdraw tests and bench.
import { WebIO, type Material } from '@gltf-transform/core';
import { arrayOf, elements } from '../src/compiler/gltf-accessors.ts';
import type { TriangleMesh } from './generated-meshes.ts';

export async function glbGroups(bytes: Uint8Array): Promise<TriangleMesh[]> {
  const document = await new WebIO().readBinary(bytes);
  const groups = new Map<Material | null, { positions: number[]; indices: number[] }>();
  for (const node of document.getRoot().listNodes()) {
    for (const primitive of node.getMesh()?.listPrimitives() ?? []) {
      const position = primitive.getAttribute('POSITION');
      if (primitive.getMode() !== 4 || !position) continue;
      let group = groups.get(primitive.getMaterial());
      if (!group) groups.set(primitive.getMaterial(), (group = { positions: [], indices: [] }));
      const m = node.getWorldMatrix();
      const base = group.positions.length / 3;
      const p = elements(position, 3);
      for (let i = 0; i < p.length; i += 3) {
        for (let r = 0; r < 3; r++) group.positions.push(m[r]! * p[i]! + m[4 + r]! * p[i + 1]! + m[8 + r]! * p[i + 2]! + m[12 + r]!);
      }
      const det = m[0] * (m[5] * m[10] - m[6] * m[9]) - m[4] * (m[1] * m[10] - m[2] * m[9]) + m[8] * (m[1] * m[6] - m[2] * m[5]);
      const list = primitive.getIndices() ? arrayOf(primitive.getIndices()) : Array.from({ length: position.getCount() }, (_, i) => i);
      for (let i = 0; i < list.length; i += 3) group.indices.push(base + list[i]!, base + list[det < 0 ? i + 2 : i + 1]!, base + list[det < 0 ? i + 1 : i + 2]!);
    }
  }
  return [...groups.values()].map((g) => ({ positions: new Float32Array(g.positions), indices: new Uint32Array(g.indices) }));
}
