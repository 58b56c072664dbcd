// How meshoptimizer's order changes the post-transform vertex cache: ACMR (vertices transformed
// per triangle, a 16-entry FIFO cache) of every mesh of a project as its GLB has it and as the
// compiler writes it. A property of the data, not of a machine: run it anywhere.
//   pnpm --filter @cuttle/engine exec tsx --conditions=@cuttle/source --import ./bin/source-hooks-register.mjs bench/mesh-order.ts <project>
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebIO } from '@gltf-transform/core';
import { compileProject } from '../src/compiler/compile-project.ts';
import { vertexCacheMissRatio } from '../src/compiler/mesh-optimize.ts';
import type { MeshMeta } from '../src/runtime/formats.ts';
import { ResourceStore } from '../src/runtime/resources.ts';
import { section } from '../src/runtime/container.ts';

const project = process.argv[2] ?? join(import.meta.dirname, '..', 'sample');
const out = mkdtempSync(join(tmpdir(), 'cuttle-mesh-order-'));
try {
  const report = await compileProject(project, out);
  if (report.failed.length > 0) throw new Error(report.failed[0]!.error.message);
  const store = new ResourceStore(out);
  const io = new WebIO();
  let triangles = 0, before = 0, after = 0;
  const rows: string[] = [];
  for (const file of readdirSync(join(project, 'meshes')).filter((f) => f.endsWith('.glb')).sort()) {
    const doc = await io.readBinary(new Uint8Array(readFileSync(join(project, 'meshes', file))));
    // The source's triangles in file order, each primitive's indices after the previous ones.
    const source: number[] = [];
    let base = 0;
    for (const mesh of doc.getRoot().listMeshes()) {
      for (const primitive of mesh.listPrimitives()) {
        const count = primitive.getAttribute('POSITION')?.getCount() ?? 0;
        // gltf-transform's array union names Float16Array, which lib ES2022 lacks.
        const indices = (primitive.getIndices()?.getArray() as ArrayLike<number> | null | undefined) ?? Uint32Array.from({ length: count }, (_, i) => i);
        for (let i = 0; i < indices.length; i++) source.push(base + Number(indices[i]));
        base += count;
      }
    }
    const compiled = section(store.get<MeshMeta>('glb', `meshes/${file.slice(0, -4)}`), 'indices', Uint32Array);
    const [b, a, t] = [vertexCacheMissRatio(source), vertexCacheMissRatio(compiled), compiled.length / 3];
    triangles += t;
    before += b * t;
    after += a * t;
    rows.push(`| ${file} | ${t.toLocaleString('en')} | ${b.toFixed(3)} | ${a.toFixed(3)} |`);
  }
  console.log('| mesh | triangles | ACMR as exported | ACMR compiled |\n| --- | --- | --- | --- |');
  for (const row of rows.length > 12 ? [...rows.slice(0, 6), `| ... ${rows.length - 12} more | | | |`, ...rows.slice(-6)] : rows) console.log(row);
  console.log(`| all ${rows.length}, weighted by triangles | ${triangles.toLocaleString('en')} | ${(before / triangles).toFixed(3)} | ${(after / triangles).toFixed(3)} |`);
} finally {
  rmSync(out, { recursive: true, force: true });
}
