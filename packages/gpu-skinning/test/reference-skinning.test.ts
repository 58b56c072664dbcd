import { describe, expect, test } from 'vitest';
import {
  buildSkinnedVertices,
  createSkinnedOutput,
  identityPalette,
  skinInstanceReference,
  GpuSkinningError,
  type F32SkinnedOutput,
  type PackedSkinnedOutput,
  type SkinnedVertexInput,
} from '../src/index.ts';
import { bitsFloat, unpackSnorm8 } from '../src/codec.ts';

/** A bone as 3x4 rows: rotation by `angle` about z, then translation t. */
function bone(angle: number, tx: number, ty: number, tz: number): number[] {
  const c = Math.cos(angle), s = Math.sin(angle);
  return [c, -s, 0, tx, s, c, 0, ty, 0, 0, 1, tz];
}

const input: SkinnedVertexInput = {
  positions: [1, 0, 0, 0, 2, 0, 3, 3, 3],
  normals: [1, 0, 0, 0, 1, 0, 0, 0, 1],
  tangents: [0, 1, 0, 1, 1, 0, 0, -1, 1, 0, 0, 1],
  joints: [0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0],
  weights: [1, 0, 0, 0, 0.5, 0.5, 0, 0, 1, 0, 0, 0],
};

const palette = new Float32Array([...bone(Math.PI / 2, 10, 0, 0), ...bone(0, 0, 0, 5)]);
const range = { sourceVertex: 0, vertexCount: 3, paletteOffset: 0, outputVertex: 0 };

function packedPosition(out: PackedSkinnedOutput, v: number): number[] {
  return [0, 1, 2].map((i) => bitsFloat(out.positionNormal[v * 4 + i]!));
}

describe.each(['packed', 'f32'] as const)('%s reference', (format) => {
  const { vertices } = buildSkinnedVertices(input, { format });
  const position = (out: PackedSkinnedOutput | F32SkinnedOutput, v: number): number[] => (out.format === 'packed' ? packedPosition(out, v) : Array.from(out.vertices.subarray(v * 12, v * 12 + 3)));
  const normal = (out: PackedSkinnedOutput | F32SkinnedOutput, v: number): number[] =>
    out.format === 'packed' ? [0, 1, 2].map((lane) => unpackSnorm8(out.positionNormal[v * 4 + 3]!, lane)) : Array.from(out.vertices.subarray(v * 12 + 4, v * 12 + 7));

  test('one bone rotates and translates; two bones blend by weight', () => {
    const out = createSkinnedOutput(format, 3);
    skinInstanceReference(vertices, palette, range, out, 'reset');
    // v0: rotate (1,0,0) by 90 degrees about z -> (0,1,0), + (10,0,0).
    expect(position(out, 0)[0]).toBeCloseTo(10, 5);
    expect(position(out, 0)[1]).toBeCloseTo(1, 5);
    // v1: halfway between rotate((0,2,0)) + (10,0,0) = (8,0,0) and (0,2,5).
    // (Packed weights are 32768 and 32767 of 65535: 1.5e-5 off an even split.)
    expect(position(out, 1)).toEqual([expect.closeTo(4, 3), expect.closeTo(1, 3), expect.closeTo(2.5, 3)]);
    expect(position(out, 2)).toEqual([3, 3, 8]);
    // v0's normal rotated to +y; v1's normal the normalized blend of (-1,0,0) and (0,1,0).
    expect(normal(out, 0)[1]).toBeCloseTo(1, 2);
    expect(normal(out, 1)[0]).toBeCloseTo(-Math.SQRT1_2, 1);
    expect(normal(out, 1)[1]).toBeCloseTo(Math.SQRT1_2, 1);
    // 'reset': previous is the new position.
    expect(Array.from(out.previous.subarray(0, 3))).toEqual(position(out, 0));
  });

  test("'skin' moves the old position into previous; 'hold' copies it without skinning", () => {
    const out = createSkinnedOutput(format, 3);
    skinInstanceReference(vertices, identityPalette(2), range, out, 'reset');
    const bindPose = position(out, 2);
    expect(bindPose).toEqual([3, 3, 3]);
    skinInstanceReference(vertices, palette, range, out, 'skin');
    expect(Array.from(out.previous.subarray(6, 9))).toEqual(bindPose);
    expect(position(out, 2)).toEqual([3, 3, 8]);
    skinInstanceReference(vertices, identityPalette(2), range, out, 'hold');
    expect(position(out, 2)).toEqual([3, 3, 8]);
    expect(Array.from(out.previous.subarray(6, 9))).toEqual([3, 3, 8]);
  });

  test('the instance range picks source vertices, bones and output slots', () => {
    const out = createSkinnedOutput(format, 5);
    const shifted = new Float32Array([...bone(0, 100, 0, 0), ...palette]);
    skinInstanceReference(vertices, shifted, { sourceVertex: 2, vertexCount: 1, paletteOffset: 1, outputVertex: 4 }, out, 'reset');
    expect(position(out, 4)).toEqual([3, 3, 8]);
    expect(position(out, 0)).toEqual([0, 0, 0]);
  });

  test('ranges outside the buffers are refused', () => {
    const out = createSkinnedOutput(format, 3);
    expect(() => { skinInstanceReference(vertices, palette, { ...range, vertexCount: 4 }, out, 'skin'); }).toThrow(GpuSkinningError);
    expect(() => { skinInstanceReference(vertices, palette, { ...range, outputVertex: 1 }, out, 'skin'); }).toThrow(/writes vertices/);
    expect(() => { skinInstanceReference(vertices, palette.subarray(0, 12), range, out, 'skin'); }).toThrow(/bones/);
  });
});

test('packed and f32 agree within the packed quantization', () => {
  const packed = buildSkinnedVertices(input, { format: 'packed' }).vertices;
  const f32 = buildSkinnedVertices(input, { format: 'f32' }).vertices;
  const a = createSkinnedOutput('packed', 3);
  const b = createSkinnedOutput('f32', 3);
  skinInstanceReference(packed, palette, range, a, 'reset');
  skinInstanceReference(f32, palette, range, b, 'reset');
  for (let v = 0; v < 3; v++) {
    for (let i = 0; i < 3; i++) {
      expect(Math.abs(packedPosition(a, v)[i]! - b.vertices[v * 12 + i]!)).toBeLessThan(1e-3);
      expect(Math.abs(unpackSnorm8(a.positionNormal[v * 4 + 3]!, i) - b.vertices[v * 12 + 4 + i]!)).toBeLessThan(1.5 / 127);
    }
  }
});

test('a vertex left unskinned (all weights zero) passes through', () => {
  const { vertices } = buildSkinnedVertices({ positions: [1, 2, 3], joints: [0, 0, 0, 0], weights: [0, 0, 0, 0] }, { format: 'f32', zeroWeights: 'unskinned' });
  const out = createSkinnedOutput('f32', 1);
  skinInstanceReference(vertices, palette, { sourceVertex: 0, vertexCount: 1, paletteOffset: 0, outputVertex: 0 }, out, 'reset');
  expect(Array.from(out.vertices.subarray(0, 3))).toEqual([1, 2, 3]);
});

test('formats of vertices and output must match', () => {
  const { vertices } = buildSkinnedVertices(input, { format: 'packed' });
  expect(() => { skinInstanceReference(vertices, palette, range, createSkinnedOutput('f32', 3), 'skin'); }).toThrow(/packed but the output is f32/);
});
