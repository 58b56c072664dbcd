import { describe, expect, test } from 'vitest';
import { buildSkinnedVertices, GpuSkinningError, type F32Vertices, type PackedVertices, type SkinnedVertexInput } from '../src/index.ts';
import { bitsFloat, unpackSnorm8 } from '../src/codec.ts';

/** Two vertices, two influences each, already clean. */
function cleanInput(): SkinnedVertexInput {
  return {
    positions: [1, 2, 3, -4, 5.5, 6],
    normals: [0, 0, 1, 1, 0, 0],
    tangents: [1, 0, 0, 1, 0, 1, 0, -1],
    wind: [0.25, 1],
    joints: [0, 1, 0, 0, 2, 3, 0, 0],
    weights: [0.75, 0.25, 0, 0, 0.5, 0.5, 0, 0],
  };
}

function packedWeights(vertices: PackedVertices, v: number): number[] {
  const w = vertices.bones;
  return [w[v * 4 + 2]! & 0xffff, w[v * 4 + 2]! >>> 16, w[v * 4 + 3]! & 0xffff, w[v * 4 + 3]! >>> 16];
}

function packedJoints(vertices: PackedVertices, v: number): number[] {
  const w = vertices.bones;
  return [w[v * 4]! & 0xffff, w[v * 4]! >>> 16, w[v * 4 + 1]! & 0xffff, w[v * 4 + 1]! >>> 16];
}

function build(input: SkinnedVertexInput, format: 'packed' | 'f32' = 'packed', extra: Partial<Parameters<typeof buildSkinnedVertices>[1]> = {}) {
  return buildSkinnedVertices(input, { format, ...extra });
}

describe('packed format', () => {
  test('positions are f32 bits, normals and tangents snorm8x4 with wind and handedness in w', () => {
    const { vertices, report } = build(cleanInput());
    const packed = vertices as PackedVertices;
    expect(report.fixed).toEqual([]);
    expect(report.vertexCount).toBe(2);
    expect(report.bonesUsed).toBe(4);
    expect([0, 1, 2].map((i) => bitsFloat(packed.positionNormal[4 + i]!))).toEqual([-4, 5.5, 6]);
    const normal = [0, 1, 2, 3].map((lane) => unpackSnorm8(packed.positionNormal[3]!, lane));
    expect(normal[2]).toBe(1);
    expect(normal[3]).toBeCloseTo(0.25, 2);
    expect(unpackSnorm8(packed.tangent[1]!, 3)).toBe(-1);
    expect(unpackSnorm8(packed.tangent[1]!, 1)).toBe(1);
  });

  test('weights are unorm16 that sum to exactly 65535, largest first', () => {
    const { vertices } = build({ positions: [0, 0, 0], joints: [5, 2, 9, 1], weights: [0.1, 0.2, 0.3, 0.4] });
    const packed = vertices as PackedVertices;
    const weights = packedWeights(packed, 0);
    expect(weights.reduce((a, b) => a + b)).toBe(65535);
    expect(packedJoints(packed, 0)).toEqual([1, 9, 2, 5]);
    expect(weights[0]).toBeGreaterThan(weights[1]!);
    // Thirds do not divide 65535 evenly... but they do: check an uneven split instead.
    const thirds = build({ positions: [0, 0, 0], joints: [0, 1, 2, 3], weights: [1, 1, 1, 0] }).vertices as PackedVertices;
    expect(packedWeights(thirds, 0)).toEqual([21845, 21845, 21845, 0]);
    const sevenths = build({ positions: [0, 0, 0], joints: [0, 1, 2, 3], weights: [4 / 7, 2 / 7, 1 / 7, 0] }).vertices as PackedVertices;
    expect(packedWeights(sevenths, 0).reduce((a, b) => a + b)).toBe(65535);
  });

  test('normalized integer weights (glTF Uint8 / Uint16) are decoded', () => {
    const u8 = build({ positions: [0, 0, 0], joints: new Uint8Array([3, 4, 0, 0]), weights: new Uint8Array([255, 0, 0, 0]) });
    expect(u8.report.fixed).toEqual([]);
    expect(packedWeights(u8.vertices as PackedVertices, 0)).toEqual([65535, 0, 0, 0]);
    const u16 = build({ positions: [0, 0, 0], joints: new Uint16Array([3, 4, 0, 0]), weights: new Uint16Array([32768, 32767, 0, 0]) });
    expect(u16.report.fixed).toEqual([]);
    expect(packedJoints(u16.vertices as PackedVertices, 0)).toEqual([3, 4, 0, 0]);
  });
});

describe('f32 format', () => {
  test('80 bytes per vertex: position, wind, normal, tangent, joints, weights', () => {
    const { vertices } = build(cleanInput(), 'f32');
    const f = vertices as F32Vertices;
    expect(f.floats.length).toBe(40);
    expect(Array.from(f.floats.subarray(20, 32))).toEqual([-4, 5.5, 6, 1, 1, 0, 0, 0, 0, 1, 0, -1]);
    expect(Array.from(f.words.subarray(32, 36))).toEqual([2, 3, 0, 0]);
    expect(Array.from(f.floats.subarray(36, 40))).toEqual([0.5, 0.5, 0, 0]);
  });
});

describe('fixes, reported', () => {
  test('weights that do not sum to one are renormalized', () => {
    const { vertices, report } = build({ positions: [0, 0, 0, 1, 1, 1], joints: [0, 1, 0, 1], weights: [2, 2, 0.5, 0.4995], influencesPerVertex: 2 }, 'f32');
    expect(report.fixed).toEqual([expect.objectContaining({ kind: 'renormalized-weights', vertices: 1, firstVertex: 0 })]);
    expect(Array.from((vertices as F32Vertices).floats.subarray(16, 20))).toEqual([0.5, 0.5, 0, 0]);
  });

  test('more than four influences: the four largest are kept and renormalized', () => {
    const { vertices, report } = build({ positions: [0, 0, 0], joints: [0, 1, 2, 3, 4, 5, 6, 7], weights: [0.05, 0.3, 0.05, 0.2, 0.1, 0.15, 0.1, 0.05] });
    expect(report.maxInfluences).toBe(8);
    expect(report.fixed.map((issue) => issue.kind)).toEqual(['dropped-influences']);
    const packed = vertices as PackedVertices;
    expect(packedJoints(packed, 0)).toEqual([1, 3, 5, 4]);
    const weights = packedWeights(packed, 0);
    expect(weights.reduce((a, b) => a + b)).toBe(65535);
    expect(weights[0]! / 65535).toBeCloseTo(0.3 / 0.75, 4);
  });

  test('a joint listed twice has its weights merged', () => {
    const { vertices, report } = build({ positions: [0, 0, 0], joints: [4, 4, 1, 0], weights: [0.3, 0.3, 0.4, 0] });
    expect(report.fixed.map((issue) => issue.kind)).toEqual(['merged-duplicate-joints']);
    expect(packedJoints(vertices as PackedVertices, 0).slice(0, 2)).toEqual([4, 1]);
  });

  test('all-zero weights: bound to the first joint, or left unskinned, when asked', () => {
    const input = { positions: [0, 0, 0, 1, 0, 0], joints: [7, 0, 0, 0, 1, 0, 0, 0], weights: [0, 0, 0, 0, 1, 0, 0, 0] };
    const bound = build(input, 'packed', { zeroWeights: 'first-joint' });
    expect(bound.report.fixed).toEqual([expect.objectContaining({ kind: 'zero-weights-bound-to-first-joint', vertices: 1, firstVertex: 0 })]);
    expect(packedJoints(bound.vertices as PackedVertices, 0)[0]).toBe(7);
    expect(packedWeights(bound.vertices as PackedVertices, 0)).toEqual([65535, 0, 0, 0]);
    const left = build(input, 'packed', { zeroWeights: 'unskinned' });
    expect(left.report.fixed.map((issue) => issue.kind)).toEqual(['zero-weights-left-unskinned']);
    expect(packedWeights(left.vertices as PackedVertices, 0)).toEqual([0, 0, 0, 0]);
  });

  test('unnormalized normals, odd tangent handedness and wind past [0, 1] are fixed', () => {
    const { report } = build({ positions: [0, 0, 0], normals: [0, 2, 0], tangents: [1, 0, 0, 0.5], wind: [1.5], joints: [0, 0, 0, 0], weights: [1, 0, 0, 0] });
    expect(report.fixed.map((issue) => issue.kind).sort()).toEqual(['clamped-wind', 'renormalized-normals', 'tangent-handedness']);
  });
});

describe('refusals: a typed error listing every problem, nothing built', () => {
  function refusal(input: SkinnedVertexInput, extra: Partial<Parameters<typeof buildSkinnedVertices>[1]> = {}): GpuSkinningError {
    try {
      build(input, 'packed', extra);
    } catch (error) {
      expect(error).toBeInstanceOf(GpuSkinningError);
      return error as GpuSkinningError;
    }
    throw new Error('expected a GpuSkinningError');
  }

  test('a bone index past the palette', () => {
    const error = refusal({ positions: [0, 0, 0, 0, 0, 0], joints: [1, 0, 0, 0, 5, 0, 0, 0], weights: [1, 0, 0, 0, 1, 0, 0, 0] }, { paletteSize: 4 });
    expect(error.problems).toEqual([expect.objectContaining({ kind: 'bone-index-past-palette', vertices: 1, firstVertex: 1 })]);
    expect(error.message).toContain('joint 5 with a palette of 4 bones');
  });

  test('negative weights, NaN, bad joint indices and all-zero weights, all listed at once', () => {
    const error = refusal({
      positions: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, Number.NaN, 0, 0],
      joints: [0, 1, 0, 0, 0, 0, 0, 0, 1.5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
      weights: [1.2, -0.2, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, Number.NaN, 0, 0, 0, 1, 0, 0, 0],
    });
    expect(error.problems.map((p) => p.kind).sort()).toEqual(['bad-joint-index', 'negative-weight', 'non-finite', 'zero-weights']);
    expect(error.problems.find((p) => p.kind === 'non-finite')!.vertices).toBe(2);
    expect(error.message).toContain("zeroWeights: 'first-joint'");
  });

  test('a vertex with two problems of one kind counts once, and the message says vertices', () => {
    const error = refusal({
      positions: [0, 0, 0, 0, 0, 0, 0, 0, 0],
      joints: [0, 1, 2, 0, 0, 1, 0, 0, 0, 0, 0, 0],
      weights: [1.4, -0.2, -0.2, 0, 1.1, -0.1, 0, 0, 1, 0, 0, 0],
    });
    const negative = error.problems.find((p) => p.kind === 'negative-weight')!;
    expect(negative.vertices).toBe(2);
    expect(error.message).toMatch(/negative-weight: 2 vertices \(first 0\)/);
  });

  test('zero normals and u16 overflow', () => {
    expect(refusal({ positions: [0, 0, 0], normals: [0, 0, 0], joints: [0, 0, 0, 0], weights: [1, 0, 0, 0] }).problems[0]!.kind).toBe('zero-normal');
    expect(refusal({ positions: [0, 0, 0], joints: [70000, 0, 0, 0], weights: [1, 0, 0, 0] }).problems[0]!.kind).toBe('bad-joint-index');
  });

  test('shapes: lengths, empty meshes, bad options', () => {
    expect(() => build({ positions: [0, 0], joints: [], weights: [] })).toThrow(/multiple of 3/);
    expect(() => build({ positions: [], joints: [], weights: [] })).toThrow(/empty/);
    expect(() => build({ positions: [0, 0, 0], normals: [0, 1], joints: [0, 0, 0, 0], weights: [1, 0, 0, 0] })).toThrow(/normals has 2 values/);
    expect(() => build({ positions: [0, 0, 0, 0, 0, 0], joints: [0, 0, 0], weights: [1, 0, 0] })).toThrow(/influencesPerVertex/);
    expect(() => buildSkinnedVertices(cleanInput(), { format: 'f16' as 'f32' })).toThrow(GpuSkinningError);
    expect(() => build(cleanInput(), 'packed', { paletteSize: 0 })).toThrow(/paletteSize/);
  });
});
