// Mesh vertices are quantised on the GPU: normals and tangents as snorm8x4 (within half a degree
// of the input direction, tangent handedness kept), positions and uvs as unorm16 over the mesh's
// own ranges (within half a step); 20 bytes a vertex instead of 48. The render tests draw with
// them (a wrong range in the vertex shader fails the picture and texture tests).
import { describe, expect, test } from 'vitest';
import { MESH_VERTEX_BUFFERS } from '../src/draw-group.ts';
import { packSnorm8x4 } from '../src/scene/meshes.ts';
import { quantizePositions, quantizeUvs } from '../src/scene/quantize.ts';

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

  test('axis-aligned normals are exact, and a vertex is 20 bytes', () => {
    expect([...packSnorm8x4(new Float32Array([0, 1, 0, 0, 0, -1]), 3)]).toEqual([0, 127, 0, 0, 0, 0, -127, 0]);
    expect(MESH_VERTEX_BUFFERS.reduce((bytes, layout) => bytes + layout.arrayStride, 0)).toBe(20);
  });

  test('unorm16 positions, far from the origin, come back within half a step on every axis', () => {
    const random = randomUnitVectors(10_000, 3, 11);
    // A 20 x 4 x 0.5 box around (1000, -50, 3): one scale (the largest extent) for all axes.
    const positions = new Float32Array(random.length);
    for (let v = 0; v < 10_000; v++) positions.set([1000 + 10 * random[v * 3]!, -50 + 2 * random[v * 3 + 1]!, 3 + 0.25 * random[v * 3 + 2]!], v * 3);
    const { values, range } = quantizePositions(positions);
    expect(values.length).toBe(40_000);
    const [x, y, z, extent] = range;
    expect(extent).toBeGreaterThan(19.9);
    expect(extent).toBeLessThanOrEqual(20);
    let worst = 0;
    for (let v = 0; v < 10_000; v++) {
      const back = [x + (values[v * 4]! / 65535) * extent, y + (values[v * 4 + 1]! / 65535) * extent, z + (values[v * 4 + 2]! / 65535) * extent];
      for (let k = 0; k < 3; k++) worst = Math.max(worst, Math.abs(back[k]! - positions[v * 3 + k]!));
      expect(values[v * 4 + 3]).toBe(0);
    }
    // Half a step, plus the float32 rounding of positions near 1000 (2^-14).
    expect(worst).toBeLessThanOrEqual(extent / 65535 / 2 + 2 ** -14);
    expect(worst).toBeGreaterThan(extent / 65535 / 8);
    // One point: a box of size 0 still maps back to the point.
    const point = quantizePositions(new Float32Array([4, 5, 6]));
    expect([...point.range]).toEqual([4, 5, 6, 1]);
    expect([...point.values]).toEqual([0, 0, 0, 0]);
  });

  test('unorm16 uvs keep tiling ranges (here -3 to 5) within half a step of each axis', () => {
    const random = randomUnitVectors(10_000, 3, 5);
    const uvs = new Float32Array(20_000);
    for (let v = 0; v < 10_000; v++) uvs.set([1 + 4 * random[v * 3]!, 0.5 + 0.25 * random[v * 3 + 1]!], v * 2);
    const { values, range } = quantizeUvs(uvs);
    const [u, w, spanU, spanV] = range;
    let worstU = 0, worstV = 0;
    for (let v = 0; v < 10_000; v++) {
      worstU = Math.max(worstU, Math.abs(u + (values[v * 2]! / 65535) * spanU - uvs[v * 2]!));
      worstV = Math.max(worstV, Math.abs(w + (values[v * 2 + 1]! / 65535) * spanV - uvs[v * 2 + 1]!));
    }
    expect(worstU).toBeLessThanOrEqual(spanU / 65535 / 2 + 1e-7);
    expect(worstV).toBeLessThanOrEqual(spanV / 65535 / 2 + 1e-7);
    // Missing uvs are zeros: a zero span maps back with span 1.
    expect([...quantizeUvs(new Float32Array(4)).range]).toEqual([0, 0, 1, 1]);
  });
});
