// Mesh normals and tangents are stored as snorm8x4 on the GPU: within half a degree of the
// input direction, tangent handedness kept, 28 bytes a vertex instead of 48.
import { describe, expect, test } from 'vitest';
import { MESH_VERTEX_BUFFERS } from '../src/draw-group.ts';
import { packSnorm8x4 } from '../src/scene/meshes.ts';

function randomUnitVectors(count: number, size: 3 | 4, seed: number): Float32Array {
  let x = seed;
  const next = (): number => ((x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
  const out = new Float32Array(count * size);
  for (let v = 0; v < count; v++) {
    const d = [next(), next(), next()];
    const length = Math.hypot(d[0]!, d[1]!, d[2]!) || 1;
    out.set(d.map((c) => c / length), v * size);
    if (size === 4) out[v * 4 + 3] = next() < 0 ? -1 : 1;
  }
  return out;
}

describe('vertex quantisation', () => {
  test('snorm8 normals and tangents stay within half a degree, handedness kept', () => {
    for (const size of [3, 4] as const) {
      const input = randomUnitVectors(20_000, size, 7 + size);
      const packed = packSnorm8x4(input, size);
      expect(packed.length).toBe((input.length / size) * 4);
      let worst = 0;
      for (let v = 0; v < input.length / size; v++) {
        const q = [packed[v * 4]! / 127, packed[v * 4 + 1]! / 127, packed[v * 4 + 2]! / 127];
        const cos = (q[0]! * input[v * size]! + q[1]! * input[v * size + 1]! + q[2]! * input[v * size + 2]!) / Math.hypot(q[0]!, q[1]!, q[2]!);
        worst = Math.max(worst, (Math.acos(Math.min(1, cos)) * 180) / Math.PI);
        if (size === 4) expect(Math.sign(packed[v * 4 + 3]!)).toBe(Math.sign(input[v * 4 + 3]!));
        else expect(packed[v * 4 + 3]).toBe(0);
      }
      expect(worst).toBeLessThan(0.5);
      // Not trivially exact either: 8 bits do round.
      expect(worst).toBeGreaterThan(0.05);
    }
  });

  test('axis-aligned normals are exact, and a vertex is 28 bytes', () => {
    expect([...packSnorm8x4(new Float32Array([0, 1, 0, 0, 0, -1]), 3)]).toEqual([0, 127, 0, 0, 0, 0, -127, 0]);
    expect(MESH_VERTEX_BUFFERS.reduce((bytes, layout) => bytes + layout.arrayStride, 0)).toBe(28);
  });
});
