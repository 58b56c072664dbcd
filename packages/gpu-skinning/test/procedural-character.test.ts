import { expect, test } from 'vitest';
import { buildSkinnedVertices, computePalette, createPose, createProceduralCharacter, createSkinnedOutput, sampleClip, skinInstanceReference } from '../src/index.ts';

test('the procedural character builds clean vertices and its walk moves the feet, not the head, much', () => {
  const character = createProceduralCharacter({ rings: 6, sides: 8 });
  expect(character.vertexCount).toBe(11 * (6 * 8 + 2));
  expect(Math.max(...character.indices)).toBeLessThan(character.vertexCount);
  expect(character.indices.length % 3).toBe(0);
  const { vertices, report } = buildSkinnedVertices(character.vertices, { format: 'f32', paletteSize: character.skeleton.jointCount });
  expect(report.fixed).toEqual([]);
  expect(character.skeleton.jointCount).toBe(12);
  expect(character.walk.duration).toBe(1);
  const pose = createPose(character.skeleton);
  const palette = new Float32Array(12 * 12);
  const out = createSkinnedOutput('f32', character.vertexCount);
  const range = { sourceVertex: 0, vertexCount: character.vertexCount, paletteOffset: 0, outputVertex: 0 };
  const at = (time: number): Float32Array => {
    sampleClip(character.walk, time, pose);
    computePalette(character.skeleton, pose, palette);
    skinInstanceReference(vertices, palette, range, out, 'reset');
    return out.vertices.slice();
  };
  // The rest pose is the bind pose: skinning with the rest palette returns the mesh.
  computePalette(character.skeleton, createPose(character.skeleton), palette);
  skinInstanceReference(vertices, palette, range, out, 'reset');
  for (let i = 0; i < 30; i++) expect(out.vertices[(i * 12)]).toBeCloseTo(character.vertices.positions[i * 3]!, 5);
  const a = at(0.25), b = at(0.75);
  // Lowest vertex (a foot) swings by tens of centimetres between the two phases; the head top barely moves.
  const footVertex = 10 * (6 * 8 + 2) + 5 * 8; // last ring of the right shin
  const headVertex = 2 * (6 * 8 + 2) + 5 * 8; // last ring of the head
  const move = (v: number): number => Math.hypot(a[v * 12]! - b[v * 12]!, a[v * 12 + 1]! - b[v * 12 + 1]!, a[v * 12 + 2]! - b[v * 12 + 2]!);
  expect(move(footVertex)).toBeGreaterThan(0.3);
  expect(move(headVertex)).toBeLessThan(0.15);
  expect(() => createProceduralCharacter({ rings: 1 })).toThrow(/rings/);
});

test('its triangles wind counter-clockwise seen from outside (glTF front faces): each faces its vertices\' normals', () => {
  const { indices, vertices } = createProceduralCharacter();
  const { positions, normals } = vertices;
  if (!normals) throw new Error('the procedural character carries normals');
  let facingIn = 0;
  for (let t = 0; t < indices.length; t += 3) {
    const [a, b, c] = [indices[t]!, indices[t + 1]!, indices[t + 2]!];
    const e1 = [0, 1, 2].map((k) => positions[b * 3 + k]! - positions[a * 3 + k]!);
    const e2 = [0, 1, 2].map((k) => positions[c * 3 + k]! - positions[a * 3 + k]!);
    const face = [e1[1]! * e2[2]! - e1[2]! * e2[1]!, e1[2]! * e2[0]! - e1[0]! * e2[2]!, e1[0]! * e2[1]! - e1[1]! * e2[0]!];
    const normal = [0, 1, 2].map((k) => normals[a * 3 + k]! + normals[b * 3 + k]! + normals[c * 3 + k]!);
    if (face[0]! * normal[0]! + face[1]! * normal[1]! + face[2]! * normal[2]! <= 0) facingIn++;
  }
  expect(facingIn).toBe(0);
});
