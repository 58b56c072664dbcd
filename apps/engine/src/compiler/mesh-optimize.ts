// Vertex order for the GPU, through meshoptimizer (Arseny Kapoulkine's library, its WebAssembly
// build): triangles reordered for the post-transform vertex cache, then vertices renumbered in
// the order the triangles first use them (fetch locality); vertices no triangle uses are dropped.
// Then the triangles are reordered for less overdraw (mesh-overdraw.ts: outer, outward-facing
// clusters first) if that keeps the cache misses within OVERDRAW_THRESHOLD of the cache-only
// order, and the vertices renumbered in first-use order again. The triangles stay the same
// ones. vertexCacheMissRatio measures the cache order.
import { MeshoptEncoder } from 'meshoptimizer';
import { optimizeOverdraw, OVERDRAW_THRESHOLD } from './mesh-overdraw.ts';

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

const UNUSED = 0xffffffff;

/** The first attribute is the position (3 floats a vertex); without one, only the cache order is made. */
export async function optimizeMesh(indices: Uint32Array, attributes: readonly VertexAttribute[]): Promise<OptimizedMesh> {
  await MeshoptEncoder.ready;
  const cacheOrder = indices.slice();
  // Rewrites `cacheOrder` to the new vertex numbers; remap[old] is the new number, or ~0 if unused.
  const [remap, vertexCount] = MeshoptEncoder.reorderMesh(cacheOrder, true, false);
  const position = attributes[0];
  if (position?.size === 3) {
    const drawOrder = optimizeOverdraw(cacheOrder, moveVertices(position, remap, vertexCount));
    // The guard: fewer fragments shaded is not worth many more vertices transformed.
    if (vertexCacheMissRatio(drawOrder) <= OVERDRAW_THRESHOLD * vertexCacheMissRatio(cacheOrder)) {
      // Not reorderMesh again: it would redo the cache order and lose the draw order.
      const again = renumberFirstUse(drawOrder, vertexCount);
      for (let v = 0; v < remap.length; v++) if (remap[v] !== UNUSED) remap[v] = again[remap[v]!]!;
      return { indices: drawOrder, attributes: attributes.map((a) => moveVertices(a, remap, vertexCount)), vertexCount };
    }
  }
  return { indices: cacheOrder, attributes: attributes.map((a) => moveVertices(a, remap, vertexCount)), vertexCount };
}

/** `data` with vertex v moved to remap[v] (dropped where that is ~0). */
function moveVertices({ data, size }: VertexAttribute, remap: Uint32Array, vertexCount: number): Float32Array {
  const moved = new Float32Array(vertexCount * size);
  for (let v = 0; v < remap.length; v++) {
    const to = remap[v]!;
    if (to === UNUSED) continue;
    for (let k = 0; k < size; k++) moved[to * size + k] = data[v * size + k]!;
  }
  return moved;
}

/**
 * Renumbers the vertices of `indices` (in place) in the order the triangles first use them, for
 * fetch locality; returns old number -> new. Every vertex below `vertexCount` must be used.
 */
function renumberFirstUse(indices: Uint32Array, vertexCount: number): Uint32Array {
  const remap = new Uint32Array(vertexCount).fill(UNUSED);
  let next = 0;
  for (let i = 0; i < indices.length; i++) {
    const v = indices[i]!;
    if (remap[v] === UNUSED) remap[v] = next++;
    indices[i] = remap[v]!;
  }
  return remap;
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
