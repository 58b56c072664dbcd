// The data compiler at project scale (issue #36): generates the large project
// (sample-tools/make-large-project.ts, full size unless --scale), then times full compiles with
// 1 thread (no workers) and with 2, 4, 8 and 16 @cuttle/jobs workers, each run into an empty
// output folder, checking that every configuration writes the same manifest (it holds every
// output's SHA-1, so equal manifests mean equal outputs). Then incremental compiles of one
// changed file with the --watch cache. Run on the GPU machine's 16-core host:
//   pnpm bundle:node apps/engine/bench/compile-scaling.ts .bench-out/compile-scaling.mjs --external esbuild --external @cuttle/build
//   (plus the kernels: see apps/engine/BENCHMARKS.md)
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { median } from '@cuttle/bench';
import { CompilePool, compileProject } from '../src/compiler/compile-project.ts';
import { ProjectCache } from '../src/compiler/project-scan.ts';
import { FULL_SIZE, scaledCounts } from '../sample-tools/large/options.ts';
import { names } from '../sample-tools/large/sources.ts';
import { writeLargeProject } from '../sample-tools/large/write-project.ts';
import { kernelUrlsIn } from '../src/workers/kernel-bundle.ts';

const { values } = parseArgs({ options: { scale: { type: 'string' }, workers: { type: 'string' }, runs: { type: 'string' }, dir: { type: 'string' }, kernels: { type: 'string' }, sample: { type: 'string' }, outputs: { type: 'string' }, out: { type: 'string' }, keep: { type: 'boolean' }, incremental: { type: 'string' }, warm: { type: 'string' }, settle: { type: 'boolean', default: true } }, allowNegative: true });
const dir = values.dir ?? join(tmpdir(), 'cuttle-compile-scaling');
const runs = Number(values.runs ?? 3);
// Where the compiled outputs go (default: beside the project); a tmpfs separates the compiler from the disk.
const outRoot = values.outputs ?? join(dir, 'outputs');
const workerCounts = (values.workers ?? '1,2,4,8,16').split(',').map(Number);
const kernels = values.kernels ? kernelUrlsIn(values.kernels) : undefined;

// --keep leaves the project for the next run (several runs in one device call, each with other flags).
// --no-settle times the one-file compiles right after the full compile, while its outputs are still
// being written back to disk.
const source = join(dir, 'project');
let t = performance.now();
const counts = values.scale ? scaledCounts(Number(values.scale)) : FULL_SIZE;
const summary = values.keep && existsSync(join(source, 'boot.package')) ? { counts, ...JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as { files: number; bytes: number } } : await writeLargeProject(source, counts, 1, values.sample);
writeFileSync(join(dir, 'summary.json'), JSON.stringify({ files: summary.files, bytes: summary.bytes }));
const generateMs = performance.now() - t;
console.log(`machine: ${cpus()[0]?.model ?? '?'}, ${availableParallelism()} threads, Node ${process.version}`);
console.log(`project: ${summary.files} files, ${(summary.bytes / 1e6).toFixed(1)} MB, generated in ${(generateMs / 1000).toFixed(1)} s`);

interface FullRow { workers: number; ms: number[]; median: number; outputs: number; outputMB: number; busyMs: number[]; writeMs: number[]; firstMs: number[]; busyByType: Record<string, number> }
const full: FullRow[] = [];
let reference: string | undefined;
for (const workers of workerCounts) {
  const ms: number[] = [];
  // The time spent inside resource compiles (summed over threads), and until the first finished.
  const busyMs: number[] = [];
  const firstMs: number[] = [];
  // Of busyMs, hashing and writing outputs.
  const writeMs: number[] = [];
  // Where that time goes, by source type (last run): which resources slow down as threads are added.
  let busyByType: Record<string, number> = {};
  let outputs = 0;
  let outputBytes = 0;
  for (let run = 0; run < runs; run++) {
    const out = join(outRoot, `out-${workers}`);
    rmSync(out, { recursive: true, force: true });
    let busy = 0;
    let first = 0;
    let writeBusy = 0;
    busyByType = {};
    t = performance.now();
    const report = await compileProject(source, out, {
      workers,
      ...(kernels ? { kernels } : {}),
      onProgress: (e) => {
        busy += e.ms;
        const type = e.path.slice(e.path.lastIndexOf('.') + 1);
        busyByType[type] = (busyByType[type] ?? 0) + e.ms;
        writeBusy += e.writeMs;
        if (e.index === 1) first = performance.now() - t;
      },
    });
    ms.push(performance.now() - t);
    busyMs.push(busy);
    firstMs.push(first);
    writeMs.push(writeBusy);
    if (report.failed.length > 0) throw new Error(`${report.failed.length} resources failed: ${report.failed[0]!.error.message}`);
    const manifestText = readFileSync(join(out, 'manifest.json'));
    const hash = createHash('sha1').update(manifestText).digest('hex');
    reference ??= hash;
    if (hash !== reference) throw new Error(`${workers} workers wrote another manifest than the first configuration`);
    const manifest = JSON.parse(manifestText.toString()) as { resources: Record<string, { size: number }> };
    outputs = Object.keys(manifest.resources).length;
    outputBytes = Object.values(manifest.resources).reduce((sum, e) => sum + e.size, 0);
  }
  full.push({ workers, ms, median: median(ms), outputs, outputMB: outputBytes / 1e6, busyMs, writeMs, firstMs, busyByType });
  console.log(`full compile, ${workers === 1 ? '1 thread (no workers)' : `${workers} workers`}: ${ms.map((x) => x.toFixed(0)).join(' / ')} ms; inside compiles ${busyMs.map((x) => (x / 1000).toFixed(1)).join(' / ')} s (writing ${writeMs.map((x) => (x / 1000).toFixed(1)).join(' / ')} s); first done at ${firstMs.map((x) => x.toFixed(0)).join(' / ')} ms; by type: ${Object.entries(busyByType).map(([type, x]) => `${type} ${(x / 1000).toFixed(2)}`).join(', ')} s`);
}

// The same full compile on workers that stay up between compiles (a --watch process's pool):
// the first compile warms their code, the next ones show the steady state.
const warm: { workers: number; ms: number[]; busyMs: number[] }[] = [];
for (const workers of values.warm ? values.warm.split(',').map(Number) : []) {
  const pool = new CompilePool(workers, kernels);
  const ms: number[] = [];
  const busyMs: number[] = [];
  try {
    for (let run = 0; run < runs + 1; run++) {
      const out = join(outRoot, `warm-${workers}`);
      rmSync(out, { recursive: true, force: true });
      let busy = 0;
      t = performance.now();
      const report = await compileProject(source, out, { pool, onProgress: (e) => { busy += e.ms; } });
      ms.push(performance.now() - t);
      busyMs.push(busy);
      if (report.failed.length > 0) throw new Error(`${report.failed.length} resources failed`);
      if (createHash('sha1').update(readFileSync(join(out, 'manifest.json'))).digest('hex') !== reference) throw new Error('the warm pool wrote another manifest');
    }
  } finally {
    await pool.shutdown();
  }
  warm.push({ workers, ms, busyMs });
  console.log(`full compile, ${workers} warm workers (first run warms them): ${ms.map((x) => x.toFixed(0)).join(' / ')} ms; inside compiles ${busyMs.map((x) => (x / 1000).toFixed(1)).join(' / ')} s`);
}

// Incremental: one file changed, the --watch loop's cache told which (as its watcher does).
const out = join(outRoot, `out-${workerCounts[workerCounts.length - 1]}`);
const cache = new ProjectCache();
await compileProject(source, out, { workers: workerCounts[workerCounts.length - 1], cache, ...(kernels ? { kernels } : {}) });
// The full compiles' outputs (390 MB) are written back first, as they are by the time a user
// saves a file: until then every fsync of the loop waits for that writeback (the first one-file
// compiles after a full compile took 120-150 ms where the next took 70-90).
if (values.settle) execFileSync('sync');
const incremental: { file: string; rebuilt: number; ms: number[]; median: number }[] = [];
const c = summary.counts;
const comment = (p: string): void => { appendFileSync(p, '\n// edited\n'); };
const edits: [string, (path: string) => void][] = [
  [`${names.unit(Math.min(5, c.unitPrefabs - 1))}.unit`, comment],
  [`${names.material(Math.min(7, c.materials - 1))}.material`, comment],
  [`${names.level(Math.min(3, c.levels - 1))}.level`, comment],
  // A byte after IEND: the file changes, the image does not (decoders stop at IEND).
  [`${names.texture(Math.min(100, c.textures - 1))}.png`, (p) => { writeFileSync(p, Buffer.concat([readFileSync(p), Buffer.alloc(1)])); }],
  // Saved again unchanged: its hash is the same, nothing is rebuilt.
  [`${names.mesh(0)}.glb`, (p) => { writeFileSync(p, readFileSync(p)); }],
];
for (const [file, edit] of values.incremental === 'no' ? [] : edits) {
  const ms: number[] = [];
  let rebuilt = 0;
  for (let run = 0; run < 7; run++) {
    edit(join(source, file));
    cache.touched(file);
    t = performance.now();
    // As --watch compiles after its first: textures as drafts.
    const report = await compileProject(source, out, { workers: workerCounts[workerCounts.length - 1], cache, textureDrafts: true, ...(kernels ? { kernels } : {}) });
    ms.push(performance.now() - t);
    rebuilt = report.compiled.length;
  }
  incremental.push({ file, rebuilt, ms, median: median(ms) });
  console.log(`incremental, ${file} changed: rebuilt ${rebuilt}, median ${median(ms).toFixed(1)} ms (${ms.map((x) => x.toFixed(0)).join(' ')})`);
}

const base = full.find((r) => r.workers === 1)?.median;
console.log('\n| threads | full compile (median) | speed-up |\n| --- | --- | --- |');
for (const row of full) console.log(`| ${row.workers === 1 ? '1 (no workers)' : `${row.workers} workers`} | ${(row.median / 1000).toFixed(2)} s | ${base ? (base / row.median).toFixed(2) : '-'}x |`);
rmSync(outRoot, { recursive: true, force: true });
const report = { machine: { cpu: cpus()[0]?.model, threads: availableParallelism(), node: process.version }, outputs: outRoot, project: { ...summary, generateMs }, full, warm, incremental, date: new Date().toISOString() };
if (values.out) writeFileSync(values.out, JSON.stringify(report, null, 2));
if (!values.keep) rmSync(dir, { recursive: true, force: true });
