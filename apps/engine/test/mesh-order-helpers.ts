// Helpers of the vertex- and triangle-order tests (and bench/mesh-overdraw.ts): the order the
// compiler starts the overdraw step from, and triangle sets to compare orders by.
import { MeshoptEncoder } from 'meshoptimizer';
import type { TriangleMesh } from './generated-meshes.ts';

/** meshoptimizer's cache order with the vertices renumbered, as optimizeMesh starts from (await MeshoptEncoder.ready first). */
export function cacheOrder(mesh: TriangleMesh): TriangleMesh {
  const indices = mesh.indices.slice();
  const [remap, count] = MeshoptEncoder.reorderMesh(indices, true, false);
  const positions = new Float32Array(count * 3);
  for (let v = 0; v < remap.length; v++) if (remap[v] !== 0xffffffff) positions.set(mesh.positions.subarray(v * 3, v * 3 + 3), remap[v]! * 3);
  return { positions, indices };
}

/** Each triangle as its three positions, starting at the smallest (winding kept), sorted: equal for the same triangles in any order or numbering. */
export function trianglesByPosition(positions: Float32Array, indices: Uint32Array): string[] {
  const out: string[] = [];
  for (let t = 0; t < indices.length; t += 3) {
    const corners = [0, 1, 2].map((k) => Array.from(positions.subarray(indices[t + k]! * 3, indices[t + k]! * 3 + 3)).join(','));
    const first = corners.indexOf([...corners].sort()[0]!);
    out.push([0, 1, 2].map((k) => corners[(first + k) % 3]).join(' '));
  }
  return out.sort();
}
