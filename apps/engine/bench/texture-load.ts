// Loading a project's compiled textures into a render scene, on 1 thread and on N frame threads
// (@cuttle/jobs workers transcoding as one Dispatch with the main thread helping, then the uploads
// in order on the main thread): what `--frame-threads N` changes for a world's textures. Each
// configuration's uploads (format, size, every level's bytes) are checked against the one-thread
// load before anything is timed. A load is timed from the first transcode to the GPU queue done.
//
// The compiled data: --data DIR (compiled there first when it has no manifest.json, from the
// textures and materials of --project, or of the large project generated at --scale).
//   tsx --conditions=@cuttle/source --import ./bin/source-hooks-register.mjs bench/texture-load.ts --data .out/large-textures --project .out/large-project --threads 1,2
// On the GPU machine (bundled: see apps/engine/BENCHMARKS.md, "Textures at load on frame workers"):
//   $NODE .device/texture-load/texture-load.mjs --kernels .device/texture-load/kernels --sample apps/engine/sample --data /tmp/large-textures --threads 1,2,4,8,16
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { median } from '@cuttle/bench';
import type { JobSystem } from '@cuttle/jobs';
import { RenderScene, type CompressedTextureInput } from '@cuttle/render';
import { compileProject } from '../src/compiler/compile-project.ts';
import { readManifest } from '../src/compiler/manifest.ts';
import { requestEngineDevice } from '../src/runtime/gpu.ts';
import { ResourceStore } from '../src/runtime/resources.ts';
import { section } from '../src/runtime/container.ts';
import type { TextureMeta } from '../src/runtime/formats.ts';
import { TextureLoader } from '../src/runtime/texture-loader.ts';
import type { TextureSource } from '../src/runtime/texture-prefetch.ts';
import { basisModule } from '../src/textures/basis-module.ts';
import { compressionSupport } from '../src/textures/transcode-ktx2.ts';
import { startFrameWorkers } from '../src/workers/frame-workers.ts';
import { kernelUrlsIn } from '../src/workers/kernel-bundle.ts';
import { FULL_SIZE, scaledCounts } from '../sample-tools/large/options.ts';
import { writeLargeProject } from '../sample-tools/large/write-project.ts';

const { values } = parseArgs({ options: { data: { type: 'string' }, project: { type: 'string' }, scale: { type: 'string' }, sample: { type: 'string' }, kernels: { type: 'string' }, threads: { type: 'string' }, runs: { type: 'string' }, json: { type: 'string' } } });
const kernels = values.kernels ? kernelUrlsIn(values.kernels) : undefined;
const threadCounts = (values.threads ?? '1,2,4,8,16').split(',').map(Number);
const runs = Number(values.runs ?? 5);
const data = values.data ?? mkdtempSync(join(tmpdir(), 'cuttle-texture-load-'));

/** Compiles the textures (and the materials that decide their usage) of a project into `data`. */
async function compileTextures(): Promise<void> {
  const generated = values.project ? undefined : mkdtempSync(join(tmpdir(), 'cuttle-large-'));
  const project = values.project ?? join(generated!, 'project');
  if (generated) {
    const summary = await writeLargeProject(project, values.scale ? scaledCounts(Number(values.scale)) : FULL_SIZE, 1, values.sample);
    console.log(`large project generated: ${summary.files} files`);
  }
  const subset = mkdtempSync(join(tmpdir(), 'cuttle-textures-'));
  for (const part of ['textures', 'materials', '.cuttle-deps.sjson']) if (existsSync(join(project, part))) cpSync(join(project, part), join(subset, part), { recursive: true });
  const started = performance.now();
  const report = await compileProject(subset, data, { workers: availableParallelism(), ...(kernels ? { kernels } : {}) });
  rmSync(subset, { recursive: true, force: true });
  if (generated) rmSync(generated, { recursive: true, force: true });
  if (report.failed.length > 0) throw new Error(`${report.failed.length} resources failed to compile: ${report.failed[0]!.error.message}`);
  console.log(`textures compiled into ${data} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

if (!existsSync(join(data, 'manifest.json'))) {
  mkdirSync(data, { recursive: true });
  await compileTextures();
}
const store = new ResourceStore(data);
const sources: TextureSource[] = [];
for (const path of Object.keys(readManifest(data)!.resources).filter((p) => p.endsWith('.png')).sort()) {
  const name = path.slice(0, -'.png'.length);
  const container = store.get<TextureMeta>('png', name);
  if (container.meta.codec === 'basis') sources.push({ name, meta: container.meta, data: section(container, 'ktx2', Uint8Array) });
}
const gpu = await requestEngineDevice();
const support = compressionSupport(gpu.device);
const loader = new TextureLoader(await basisModule(), support);
const fileMB = sources.reduce((sum, s) => sum + s.data.byteLength, 0) / 1e6;
console.log(`machine: ${cpus()[0]?.model ?? '?'}, ${availableParallelism()} threads, Node ${process.version}; GPU: ${gpu.adapter}`);
console.log(`${sources.length} textures, ${fileMB.toFixed(1)} MB of KTX2; device formats: ${Object.entries(support).filter(([, has]) => has).map(([family]) => family).join(', ') || 'none (RGBA8)'}`);

/** Loads every texture into a new scene as a world would (prefetched on `jobs` when given); what it uploaded, and the times. */
async function load(jobs: JobSystem | undefined, record: boolean): Promise<{ uploads: CompressedTextureInput[]; ms: number; prefetchMs: number }> {
  const scene = new RenderScene(gpu.device);
  const uploads: CompressedTextureInput[] = [];
  if (record) {
    const add = scene.addCompressedTexture.bind(scene);
    scene.addCompressedTexture = (input) => {
      uploads.push(input);
      return add(input);
    };
  }
  const started = performance.now();
  const prefetched = jobs ? loader.prefetch(sources, jobs) : undefined;
  const prefetchMs = performance.now() - started;
  for (const { name, meta, data } of sources) loader.loadData(scene, name, meta, data, prefetched);
  await gpu.device.queue.onSubmittedWorkDone();
  const ms = performance.now() - started;
  scene.destroy();
  return { uploads, ms, prefetchMs };
}

function same(a: readonly CompressedTextureInput[], b: readonly CompressedTextureInput[], threads: number): void {
  if (a.length !== b.length) throw new Error(`${threads} threads uploaded ${b.length} textures, one thread ${a.length}`);
  a.forEach((x, i) => {
    const y = b[i]!;
    if (x.format !== y.format || x.width !== y.width || x.height !== y.height || x.levels.length !== y.levels.length) throw new Error(`${threads} threads: texture ${sources[i]!.name} is ${y.format} ${y.width}x${y.height}, ${y.levels.length} levels; one thread: ${x.format} ${x.width}x${x.height}, ${x.levels.length}`);
    x.levels.forEach((level, l) => {
      if (Buffer.compare(level, y.levels[l]!) !== 0) throw new Error(`${threads} threads: texture ${sources[i]!.name} level ${l} differs from the one-thread load`);
    });
  });
}

const pools = new Map<number, JobSystem | undefined>();
for (const threads of threadCounts) pools.set(threads, await startFrameWorkers(threads, kernels));
const rows: { threads: number; ms: number[]; prefetchMs: number[] }[] = [];
try {
  // Checked first (and a warm-up: every worker's transcoder has run).
  const reference = await load(undefined, true);
  for (const threads of threadCounts) if (threads > 1) same(reference.uploads, (await load(pools.get(threads), true)).uploads, threads);
  console.log(`uploads of ${threadCounts.filter((t) => t > 1).join(', ')} threads equal to one thread's: ${reference.uploads.length} textures, every level's bytes`);
  for (const threads of threadCounts) rows.push({ threads, ms: [], prefetchMs: [] });
  for (let run = 0; run < runs; run++) {
    for (const row of rows) {
      const { ms, prefetchMs } = await load(pools.get(row.threads), false);
      row.ms.push(ms);
      row.prefetchMs.push(prefetchMs);
    }
  }
} finally {
  for (const jobs of pools.values()) await jobs?.shutdown();
  if (!values.data) rmSync(data, { recursive: true, force: true });
}
const base = median(rows[0]!.ms);
console.log(`\n| frame threads | load (median of ${runs}) | of it, the Dispatch on the workers | runs | speed-up |`);
console.log('| --- | --- | --- | --- | --- |');
for (const { threads, ms, prefetchMs } of rows) {
  console.log(`| ${threads} | ${median(ms).toFixed(0)} ms | ${threads > 1 ? `${median(prefetchMs).toFixed(0)} ms` : '(in the load)'} | ${ms.map((m) => m.toFixed(0)).join(' / ')} | ${(base / median(ms)).toFixed(2)}x |`);
}
if (values.json) writeFileSync(values.json, JSON.stringify({ textures: sources.length, fileMB, adapter: gpu.adapter, rows }, null, 1));
process.exit(0);
