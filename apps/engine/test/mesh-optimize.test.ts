// meshoptimizer's vertex order in the compiler: the same triangles (each with its winding) over
// the same vertex data, unused vertices dropped, and far fewer post-transform cache misses than
// a mesh whose triangles come in random order.
import { describe, expect, test } from 'vitest';
import { optimizeMesh, vertexCacheMissRatio } from '../src/compiler/mesh-optimize.ts';
import { trianglesByPosition } from './mesh-order-helpers.ts';

function grid(cells: number): { positions: Float32Array; indices: Uint32Array } {
  const positions: number[] = [];
  const indices: number[] = [];
  for (let j = 0; j <= cells; j++) for (let i = 0; i <= cells; i++) positions.push(i, 0, j);
  for (let j = 0; j < cells; j++) {
    for (let i = 0; i < cells; i++) {
      const a = j * (cells + 1) + i;
      indices.push(a, a + cells + 1, a + 1, a + 1, a + cells + 1, a + cells + 2);
    }
  }
  return { positions: new Float32Array(positions), indices: new Uint32Array(indices) };
}

function shuffleTriangles(indices: Uint32Array, seed: number): Uint32Array {
  const out = indices.slice();
  let x = seed;
  const random = (n: number): number => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0) % n;
  for (let t = out.length / 3 - 1; t > 0; t--) {
    const u = random(t + 1);
    for (let k = 0; k < 3; k++) [out[t * 3 + k], out[u * 3 + k]] = [out[u * 3 + k]!, out[t * 3 + k]!];
  }
  return out;
}

describe('optimizeMesh', () => {
  test('keeps every triangle and its winding, and cuts cache misses of a shuffled grid', async () => {
    const { positions, indices } = grid(40);
    const shuffled = shuffleTriangles(indices, 3);
    const before = vertexCacheMissRatio(shuffled);
    const optimized = await optimizeMesh(shuffled, [{ data: positions, size: 3 }]);
    expect(optimized.vertexCount).toBe(41 * 41);
    expect(trianglesByPosition(optimized.attributes[0]!, optimized.indices)).toEqual(trianglesByPosition(positions, shuffled));
    const after = vertexCacheMissRatio(optimized.indices);
    expect(before).toBeGreaterThan(2.5);
    expect(after).toBeLessThan(0.8);
    // Vertices in the order the triangles first use them.
    let next = 0;
    for (const v of optimized.indices) {
      expect(v).toBeLessThanOrEqual(next);
      if (v === next) next++;
    }
  });

  test('moves every attribute with its vertex and drops vertices no triangle uses', async () => {
    const positions = new Float32Array([0, 0, 0, 1, 0, 0, 9, 9, 9, 0, 1, 0]);
    const uvs = new Float32Array([0, 0, 1, 0, 0.5, 0.5, 0, 1]);
    const optimized = await optimizeMesh(new Uint32Array([3, 0, 1]), [{ data: positions, size: 3 }, { data: uvs, size: 2 }]);
    expect(optimized.vertexCount).toBe(3);
    const [p, uv] = optimized.attributes as [Float32Array, Float32Array];
    for (let k = 0; k < 3; k++) {
      const v = optimized.indices[k]!;
      const source = [3, 0, 1][k]!;
      expect(Array.from(p.subarray(v * 3, v * 3 + 3))).toEqual(Array.from(positions.subarray(source * 3, source * 3 + 3)));
      expect(Array.from(uv.subarray(v * 2, v * 2 + 2))).toEqual(Array.from(uvs.subarray(source * 2, source * 2 + 2)));
    }
    expect(Array.from(p)).not.toContain(9);
  });

  test('vertexCacheMissRatio: 3 without reuse, 5/3 for a fan of three triangles, 0 for nothing', () => {
    expect(vertexCacheMissRatio(new Uint32Array([0, 1, 2, 3, 4, 5]))).toBe(3);
    expect(vertexCacheMissRatio(new Uint32Array([0, 1, 2, 0, 2, 3, 0, 3, 4]))).toBeCloseTo(5 / 3);
    expect(vertexCacheMissRatio(new Uint32Array([]))).toBe(0);
  });
});
