// Vertex order for the GPU, through meshoptimizer (Arseny Kapoulkine's library, its WebAssembly
// build): triangles reordered for the post-transform vertex cache, then vertices renumbered in
// the order the triangles first use them (fetch locality); vertices no triangle uses are dropped.
// The triangles stay the same ones. vertexCacheMissRatio measures the first step.
import { MeshoptEncoder } from 'meshoptimizer';

export interface VertexAttribute {
  data: Float32Array;
  /** Floats per vertex. */
  size: number;
}

export interface OptimizedMesh {
  indices: Uint32Array;
  attributes: Float32Array[];
  vertexCount: number;
}

export async function optimizeMesh(indices: Uint32Array, attributes: readonly VertexAttribute[]): Promise<OptimizedMesh> {
  await MeshoptEncoder.ready;
  const optimized = indices.slice();
  // Rewrites `optimized` to the new vertex numbers; remap[old] is the new number, or ~0 if unused.
  const [remap, vertexCount] = MeshoptEncoder.reorderMesh(optimized, true, false);
  const out = attributes.map(({ data, size }) => {
    const moved = new Float32Array(vertexCount * size);
    for (let v = 0; v < remap.length; v++) {
      const to = remap[v]!;
      if (to === 0xffffffff) continue;
      for (let k = 0; k < size; k++) moved[to * size + k] = data[v * size + k]!;
    }
    return moved;
  });
  return { indices: optimized, attributes: out, vertexCount };
}

/**
 * ACMR: vertices transformed per triangle with a FIFO post-transform cache of `cacheSize`
 * entries (the classic model: 0.5 is ideal for a regular grid, 3 is no reuse at all).
 */
export function vertexCacheMissRatio(indices: ArrayLike<number>, cacheSize = 16): number {
  if (indices.length < 3) return 0;
  const cache = new Int32Array(cacheSize).fill(-1);
  let head = 0;
  let misses = 0;
  for (let i = 0; i < indices.length; i++) {
    const v = indices[i]!;
    let hit = false;
    for (let k = 0; k < cacheSize; k++) {
      if (cache[k] === v) {
        hit = true;
        break;
      }
    }
    if (hit) continue;
    misses++;
    cache[head] = v;
    head = (head + 1) % cacheSize;
  }
  return misses / (indices.length / 3);
}
