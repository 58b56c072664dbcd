// Overdraw ordering (src/compiler/mesh-overdraw.ts) on real and generated meshes: ACMR (16-entry
// FIFO) of meshoptimizer's cache-only order and of the order optimizeMesh writes, the overdraw
// each draws (src/compiler/overdraw-analysis.ts: 14 orthographic views, 256x256, back faces
// culled), and the overdraw step's time per 100k triangles. Per GLB, its material groups as the
// static-mesh compiler forms them (the skinned walker in its bind pose).
//   pnpm --filter @cuttle/engine exec tsx --conditions=@cuttle/source --import ./bin/source-hooks-register.mjs bench/mesh-overdraw.ts
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MeshoptEncoder } from 'meshoptimizer';
import { optimizeMesh, vertexCacheMissRatio } from '../src/compiler/mesh-optimize.ts';
import { optimizeOverdraw } from '../src/compiler/mesh-overdraw.ts';
import { analyzeOverdraw } from '../src/compiler/overdraw-analysis.ts';
import { nestedShells, torusKnot, type TriangleMesh } from '../test/generated-meshes.ts';
import { glbGroups } from '../test/glb-groups.ts';
import { cacheOrder } from '../test/mesh-order-helpers.ts';

await MeshoptEncoder.ready;

interface Figures { triangles: number; acmrBefore: number; acmrAfter: number; shadedBefore: number; shadedAfter: number; covered: number }

async function measure(groups: readonly TriangleMesh[]): Promise<Figures> {
  const f: Figures = { triangles: 0, acmrBefore: 0, acmrAfter: 0, shadedBefore: 0, shadedAfter: 0, covered: 0 };
  for (const group of groups) {
    const before = cacheOrder(group);
    const after = await optimizeMesh(group.indices, [{ data: group.positions, size: 3 }]);
    const t = group.indices.length / 3;
    const [b, a] = [analyzeOverdraw(before.indices, before.positions), analyzeOverdraw(after.indices, after.attributes[0]!)];
    f.triangles += t;
    f.acmrBefore += vertexCacheMissRatio(before.indices) * t;
    f.acmrAfter += vertexCacheMissRatio(after.indices) * t;
    f.shadedBefore += b.shaded;
    f.shadedAfter += a.shaded;
    f.covered += b.covered;
  }
  return f;
}

/** Median ms per 100k triangles of `run` on `triangles` triangles. */
async function timePer100k(triangles: number, run: () => unknown, runs = 7): Promise<number> {
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return (times[runs >> 1]! * 100_000) / triangles;
}

const engine = join(import.meta.dirname, '..');
const sources: [string, TriangleMesh[]][] = [];
for (const [dir, label] of [['sample/meshes', 'sample'], ['test/fixtures/wild', 'wild']] as const) {
  for (const file of readdirSync(join(engine, dir)).filter((f) => f.endsWith('.glb')).sort()) {
    sources.push([`${label}: ${file}`, await glbGroups(new Uint8Array(readFileSync(join(engine, dir, file))))]);
  }
}
const knot = torusKnot(1024, 64);
sources.push(['generated: nested spheres (3)', [nestedShells(3)]], ['generated: torus knot 1024x64', [knot]]);

console.log('| mesh | triangles | ACMR cache-only | ACMR with overdraw order | overdraw cache-only | overdraw with overdraw order |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const [name, groups] of sources) {
  const f = await measure(groups);
  const cells = [f.acmrBefore / f.triangles, f.acmrAfter / f.triangles, f.shadedBefore / f.covered, f.shadedAfter / f.covered].map((x) => x.toFixed(3));
  console.log(`| ${name} | ${f.triangles.toLocaleString('en')} | ${cells.join(' | ')} |`);
}
const dense = cacheOrder(knot);
const count = knot.indices.length / 3;
const overdraw = await timePer100k(count, () => optimizeOverdraw(dense.indices, dense.positions));
const cacheOnly = await timePer100k(count, () => cacheOrder(knot));
const whole = await timePer100k(count, () => optimizeMesh(knot.indices, [{ data: knot.positions, size: 3 }]));
console.log(`\nTorus knot, ${count.toLocaleString('en')} triangles, ms per 100k triangles (median of 7): optimizeOverdraw ${overdraw.toFixed(1)}; meshoptimizer's cache order and renumbering ${cacheOnly.toFixed(1)}; all of optimizeMesh (positions only) ${whole.toFixed(1)}`);
