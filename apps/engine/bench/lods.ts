// What levels of detail save: a level of the large project (its static meshes have levels from
// meshoptimizer's simplifier; the sample's meshes are all under 256 triangles, too small to get
// any) rendered by the engine at 3840x2160 from the level's camera, with levels of detail (1 px
// of error allowed) and without (the full meshes), one engine, alternating. Reports the indices
// the opaque draws drew (vertex shader invocations before the post-transform cache), the GPU time
// of the passes that draw meshes, and how the two pictures differ; writes both frames and their
// difference x8 as PNGs with --pictures <dir>. Needs a GPU (Dawn):
//   pnpm bundle:node apps/engine/bench/lods.ts .device/lods.mjs --external esbuild --external @cuttle/build --external ktx2-encoder
//   node .device/lods.mjs --data <compiled large project> [--width 3840 --height 2160] [--pictures dir]
//   or --project <large project> --kernels <dir> to compile it first, on every core.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { median } from '@cuttle/bench';
import { encodePng } from '@cuttle/gui';
import type { PassName } from '@cuttle/render';
import { compileProject } from '../src/compiler/compile-project.ts';
import { Engine, type RenderedFrame } from '../src/runtime/engine.ts';
import { kernelUrlsIn } from '../src/workers/kernel-bundle.ts';

const { values } = parseArgs({ options: { data: { type: 'string' }, project: { type: 'string' }, kernels: { type: 'string' }, width: { type: 'string' }, height: { type: 'string' }, frames: { type: 'string' }, pictures: { type: 'string' }, boot: { type: 'string' } } });
if (values.project) {
  values.data = mkdtempSync(join(tmpdir(), 'cuttle-lods-'));
  const started = performance.now();
  const report = await compileProject(values.project, values.data, { workers: availableParallelism(), ...(values.kernels ? { kernels: kernelUrlsIn(values.kernels) } : {}) });
  if (report.failed.length > 0) throw new Error(report.failed[0]!.error.message);
  console.log(`compiled ${values.project} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
if (!values.data) throw new Error('give --data <compiled project>, or --project <project> to compile one first');
const width = Number(values.width ?? 3840);
const height = Number(values.height ?? 2160);
const frames = Number(values.frames ?? 20);
const engine = await Engine.start({ data: values.data, log: () => undefined, ...(values.boot ? { boot: values.boot } : {}) });
console.log(`adapter: ${engine.gpu.adapter}; level ${engine.level}; ${width}x${height}`);

const MESH_PASSES: PassName[] = ['shadows', 'depth', 'opaque'];
const settings = [{ name: 'levels of detail (1 px)', pixels: 1 }, { name: 'full meshes', pixels: 0 }] as const;
const runs = settings.map(() => ({ indices: 0, meshGpu: [] as number[], frameGpu: [] as number[], last: undefined as RenderedFrame | undefined }));
// Alternating, frame by frame after a warm-up, so both see the same machine.
for (let frame = -5; frame < frames; frame++) {
  for (let s = 0; s < settings.length; s++) {
    engine.renderer.lodErrorPixels = settings[s]!.pixels;
    // Two frames: the second carries the first's timings (they are read back one frame late).
    await engine.renderFrame(width, height);
    const rendered = await engine.renderFrame(width, height);
    const run = runs[s]!;
    run.indices = engine.renderer.drawnIndices;
    run.last = rendered;
    if (frame < 0) continue;
    const passes = Object.entries(rendered.gpu) as [PassName, number][];
    run.meshGpu.push(passes.filter(([pass]) => MESH_PASSES.includes(pass)).reduce((sum, [, ms]) => sum + ms, 0));
    run.frameGpu.push(passes.reduce((sum, [, ms]) => sum + ms, 0));
  }
}
console.log('| | indices drawn (opaque meshes) | GPU: shadows + depth + opaque (median) | GPU: whole frame (median) |');
console.log('| --- | --- | --- | --- |');
settings.forEach((setting, s) => {
  const run = runs[s]!;
  console.log(`| ${setting.name} | ${run.indices.toLocaleString('en-US')} | ${median(run.meshGpu).toFixed(2)} ms | ${median(run.frameGpu).toFixed(2)} ms |`);
});
const [a, b] = [runs[0]!.last!.pixels, runs[1]!.last!.pixels];
let differing = 0;
let worst = 0;
const diff = new Uint8Array(a.length);
for (let i = 0; i < a.length; i += 4) {
  let most = 0;
  for (let c = 0; c < 3; c++) {
    const d = Math.abs(a[i + c]! - b[i + c]!);
    most = Math.max(most, d);
    diff[i + c] = Math.min(255, d * 8);
  }
  diff[i + 3] = 255;
  worst = Math.max(worst, most);
  if (most > 8) differing++;
}
console.log(`pictures: ${((differing / (a.length / 4)) * 100).toFixed(3)}% of pixels differ by more than 8 of 255 in a channel; the largest difference is ${worst}`);
if (values.pictures) {
  mkdirSync(values.pictures, { recursive: true });
  for (const [name, pixels] of [['with-lods', a], ['full-meshes', b], ['difference-x8', diff]] as const) writeFileSync(join(values.pictures, `${name}.png`), await encodePng({ width, height, channels: 4, data: pixels }));
}
engine.destroy();
process.exit(0);
