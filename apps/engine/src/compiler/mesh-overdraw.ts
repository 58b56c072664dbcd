// Triangle order for less overdraw, after Sander, Nehab & Barczak, "Fast Triangle Reordering for
// Vertex Locality and Reduced Overdraw" (2007). The vertex-cache order is cut into clusters that
// each keep (within `threshold`) the cache behaviour of the stretch they come from; the clusters
// are then drawn outermost and outward-facing first, so that they hide what lies behind them and
// the depth test rejects those fragments before shading. Only the order of triangles changes.

/** How much worse than the cache-only order a cluster's ACMR may get (1.05: 5%). */
export const OVERDRAW_THRESHOLD = 1.05;

/** Entries of the FIFO post-transform cache modelled, as in vertexCacheMissRatio. */
const CACHE_SIZE = 16;

/**
 * Counts cache misses of triangles against a FIFO cache, without a queue: a vertex is cached
 * while fewer than CACHE_SIZE misses came after its own. Moving the clock on flushes it.
 */
class FifoCache {
  readonly #stamps: Uint32Array;
  #time = CACHE_SIZE;

  constructor(vertexCount: number) {
    this.#stamps = new Uint32Array(vertexCount);
  }

  flush(): void {
    this.#time += CACHE_SIZE;
  }

  /** Misses of triangle `t` (0 to 3), its misses entering the cache. */
  misses(indices: Uint32Array, t: number): number {
    let missed = 0;
    for (let k = 0; k < 3; k++) {
      const v = indices[t * 3 + k]!;
      if (this.#time - this.#stamps[v]! < CACHE_SIZE) continue;
      this.#stamps[v] = ++this.#time;
      missed++;
    }
    return missed;
  }
}

/**
 * First triangle of each cluster, then the triangle count. Hard boundaries: a triangle whose 3
 * vertices all miss starts a new patch of the surface (the cache order restarted). Each hard
 * cluster is then cut again wherever the stretch since the last cut, run on a flushed cache, has
 * an ACMR within `threshold` of the whole hard cluster's: drawn in any order, such a stretch costs
 * about what it cost in place. A tail that never gets there stays with the stretch before it,
 * where it runs on the warm cache it had.
 */
function overdrawClusters(indices: Uint32Array, vertexCount: number, threshold: number): Uint32Array {
  const triangles = indices.length / 3;
  const cache = new FifoCache(vertexCount);
  const hard = new Uint32Array(triangles + 1);
  let hardCount = 0;
  for (let t = 0; t < triangles; t++) if (cache.misses(indices, t) === 3 || t === 0) hard[hardCount++] = t;
  hard[hardCount] = triangles;

  const starts = new Uint32Array(triangles + 1);
  let count = 0;
  for (let h = 0; h < hardCount; h++) {
    const first = hard[h]!, end = hard[h + 1]!;
    cache.flush();
    let misses = 0;
    for (let t = first; t < end; t++) misses += cache.misses(indices, t);
    const limit = (threshold * misses) / (end - first);
    cache.flush();
    let start = first, run = 0;
    starts[count++] = first;
    for (let t = first; t < end; t++) {
      run += cache.misses(indices, t);
      if (t + 1 < end && run <= limit * (t + 1 - start)) {
        start = t + 1;
        starts[count++] = start;
        run = 0;
        cache.flush();
      }
    }
    if (start > first && run > limit * (end - start)) count--;
  }
  starts[count] = triangles;
  return starts.slice(0, count + 1);
}

/**
 * Sort key of each cluster: how far its area-weighted centroid lies out from the mesh's along its
 * average normal (glTF's counter-clockwise front faces). High keys are outer surfaces facing out.
 */
function clusterKeys(indices: Uint32Array, positions: Float32Array, starts: Uint32Array): Float64Array {
  const clusters = starts.length - 1;
  // Per cluster: area-weighted sum of triangle centroids (x3, so no division), summed normals
  // (cross products: twice the area each), the area weight, and plain corner sums for clusters
  // whose triangles have no area.
  const sums = new Float64Array(clusters * 10);
  const sum = new Float64Array(10);
  for (let c = 0; c < clusters; c++) {
    sum.fill(0);
    for (let t = starts[c]!; t < starts[c + 1]!; t++) {
      const a = indices[t * 3]! * 3, b = indices[t * 3 + 1]! * 3, d = indices[t * 3 + 2]! * 3;
      const ux = positions[b]! - positions[a]!, uy = positions[b + 1]! - positions[a + 1]!, uz = positions[b + 2]! - positions[a + 2]!;
      const vx = positions[d]! - positions[a]!, vy = positions[d + 1]! - positions[a + 1]!, vz = positions[d + 2]! - positions[a + 2]!;
      const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
      const area = Math.sqrt(nx * nx + ny * ny + nz * nz);
      const cx = positions[a]! + positions[b]! + positions[d]!;
      const cy = positions[a + 1]! + positions[b + 1]! + positions[d + 1]!;
      const cz = positions[a + 2]! + positions[b + 2]! + positions[d + 2]!;
      sum[0] = sum[0]! + cx * area;
      sum[1] = sum[1]! + cy * area;
      sum[2] = sum[2]! + cz * area;
      sum[3] = sum[3]! + nx;
      sum[4] = sum[4]! + ny;
      sum[5] = sum[5]! + nz;
      sum[6] = sum[6]! + area;
      sum[7] = sum[7]! + cx;
      sum[8] = sum[8]! + cy;
      sum[9] = sum[9]! + cz;
    }
    sums.set(sum, c * 10);
  }
  const centroid = (from: Float64Array, o: number, triangles: number, out: Float64Array): void => {
    const weighted = from[o + 6]! > 0;
    const w = (weighted ? from[o + 6]! : triangles) * 3;
    for (let k = 0; k < 3; k++) out[k] = from[o + (weighted ? k : 7 + k)]! / w;
  };
  // The mesh's centroid from the same sums, as if it were one cluster.
  const whole = new Float64Array(10);
  for (let c = 0; c < clusters; c++) for (let k = 0; k < 10; k++) whole[k] = whole[k]! + sums[c * 10 + k]!;
  const mesh = new Float64Array(3), own = new Float64Array(3);
  centroid(whole, 0, indices.length / 3, mesh);

  const keys = new Float64Array(clusters);
  for (let c = 0; c < clusters; c++) {
    const o = c * 10;
    centroid(sums, o, starts[c + 1]! - starts[c]!, own);
    const nx = sums[o + 3]!, ny = sums[o + 4]!, nz = sums[o + 5]!;
    const length = Math.sqrt(nx * nx + ny * ny + nz * nz);
    const key = length > 0 ? ((own[0]! - mesh[0]!) * nx + (own[1]! - mesh[1]!) * ny + (own[2]! - mesh[2]!) * nz) / length : 0;
    keys[c] = Number.isFinite(key) ? key : 0;
  }
  return keys;
}

/**
 * The triangles of `indices` (in vertex-cache order; xyz `positions` per vertex) reordered for
 * less overdraw: clusters by descending key, each keeping its own order. Winding is kept.
 */
export function optimizeOverdraw(indices: Uint32Array, positions: Float32Array, threshold = OVERDRAW_THRESHOLD): Uint32Array {
  if (indices.length < 6) return indices.slice();
  const starts = overdrawClusters(indices, positions.length / 3, threshold);
  const keys = clusterKeys(indices, positions, starts);
  // Ties keep the cache order, so the result depends on nothing but the input.
  const order = Uint32Array.from(keys.keys()).sort((a, b) => keys[b]! - keys[a]! || a - b);
  const out = new Uint32Array(indices.length);
  let at = 0;
  for (const c of order) {
    const from = starts[c]! * 3, to = starts[c + 1]! * 3;
    out.set(indices.subarray(from, to), at);
    at += to - from;
  }
  return out;
}
