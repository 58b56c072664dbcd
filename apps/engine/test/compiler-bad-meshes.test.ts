// Meshes that are not what they claim: a GLB cut short (an interrupted copy), one whose JSON
// chunk says more bytes than the file has, and one whose indices point past its vertices. Each
// is refused with a message naming the file and the problem, and the previous output stays.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { Document, NodeIO } from '@gltf-transform/core';
import { compileProject } from '../src/compiler/compile-project.ts';
import { scratchProject, type Scratch } from './helpers.ts';

let project: Scratch;
beforeEach(() => {
  project = scratchProject();
});
afterEach(() => {
  project.dispose();
});

/** A one-triangle GLB whose index accessor names vertex `index` of its three. */
async function triangleGlb(index: number): Promise<Uint8Array> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const primitive = doc.createPrimitive()
    .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0])).setBuffer(buffer))
    .setAttribute('NORMAL', doc.createAccessor().setType('VEC3').setArray(new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1])).setBuffer(buffer))
    .setIndices(doc.createAccessor().setType('SCALAR').setArray(new Uint32Array([0, 1, index])).setBuffer(buffer));
  doc.createScene().addChild(doc.createNode('mesh').setMesh(doc.createMesh().addPrimitive(primitive)));
  return new NodeIO().writeBinary(doc);
}

describe('bad meshes', () => {
  test('a truncated GLB, a chunk that claims too much and an index past the vertices are refused; the previous output stays', async () => {
    await compileProject(project.source, project.out);
    const path = 'meshes/crate.glb';
    const output = join(project.out, `${path}.cr`);
    const before = readFileSync(output);
    const good = readFileSync(join(project.source, path));
    const claiming = Uint8Array.from(good);
    // The JSON chunk's length (bytes 12-15) says a megabyte more than there is.
    new DataView(claiming.buffer).setUint32(12, new DataView(good.buffer, good.byteOffset).getUint32(12, true) + (1 << 20), true);
    const cases: [string, Uint8Array, RegExp][] = [
      ['cut in half', good.subarray(0, good.length >> 1), /meshes\/crate\.glb.*is not a readable GLB/],
      ['a chunk longer than the file', claiming, /meshes\/crate\.glb.*is not a readable GLB/],
      ['an index past the last vertex', await triangleGlb(7), /meshes\/crate\.glb.*names vertex 7 at index 2, but it has 3 vertices/],
    ];
    for (const [what, bytes, reason] of cases) {
      writeFileSync(join(project.source, path), bytes);
      const report = await compileProject(project.source, project.out);
      expect(report.failed.map((f) => f.path), what).toEqual([path]);
      expect(report.failed[0]!.error.message, what).toMatch(reason);
      expect(readFileSync(output), what).toEqual(before);
    }
  });
});
