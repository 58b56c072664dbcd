// A whole engine frame's CPU time with 100, 1,000 and 10,000 walking characters (the sample's
// level with that many walkers added), on one thread and with --frame-threads 16: `update`
// (Flow, lights, the walkers' animation and their palette uploads) and `record` (the renderer's
// passes recorded and submitted), median of 100 frames at 640x384 after 10 warm-up. Both
// engines' palettes are compared after the same frame first. Needs a GPU (Dawn): on the GPU machine,
//   pnpm bundle:node apps/engine/bench/frame-engine.ts .bench-out/frame-engine.mjs --external esbuild --external @cuttle/build
//   CUTTLE_DAWN=/tmp/dawn.node node .bench-out/frame-engine.mjs --kernels <dir> --sample apps/engine/sample
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { median } from '@cuttle/bench';
import { compileProject } from '../src/compiler/compile-project.ts';
import { Engine } from '../src/runtime/engine.ts';
import { kernelUrlsIn } from '../src/workers/kernel-bundle.ts';

const { values } = parseArgs({ options: { sample: { type: 'string' }, kernels: { type: 'string' }, threads: { type: 'string' }, counts: { type: 'string' }, frames: { type: 'string' }, out: { type: 'string' } } });
const sample = values.sample ?? join(import.meta.dirname, '..', 'sample');
const kernels = values.kernels ? kernelUrlsIn(values.kernels) : undefined;
const threadCounts = (values.threads ?? `1,${availableParallelism()}`).split(',').map(Number);
const counts = (values.counts ?? '100,1000,10000').split(',').map(Number);
const frames = Number(values.frames ?? 100);
console.log(`machine: ${cpus()[0]?.model ?? '?'}, ${availableParallelism()} threads, Node ${process.version}`);

const rows: { walkers: number; threads: number; update: number; record: number }[] = [];
for (const count of counts) {
  const dir = mkdtempSync(join(tmpdir(), 'cuttle-frame-engine-'));
  try {
    cpSync(sample, join(dir, 'source'), { recursive: true });
    // The sample's level with `count` walkers in all (it has 16).
    const level = join(dir, 'source', 'levels', 'courtyard.level');
    const text = readFileSync(level, 'utf8');
    const extra: string[] = [];
    const side = Math.ceil(Math.sqrt(count));
    for (let i = 16; i < count; i++) extra.push(`    {\n        id = "extra_walker_${i}"\n        unit = "units/walker"\n        position = [${((i % side) * 3 - side * 1.5).toFixed(1)} 0 ${(Math.floor(i / side) * 3 - side * 1.5).toFixed(1)}]\n    }`);
    const at = text.lastIndexOf(']');
    writeFileSync(level, `${text.slice(0, at)}${extra.join('\n')}\n${text.slice(at)}`);
    const report = await compileProject(join(dir, 'source'), join(dir, 'out'));
    if (report.failed.length > 0) throw new Error(report.failed[0]!.error.message);
    const engines = new Map<number, Engine>();
    for (const threads of threadCounts) engines.set(threads, await Engine.start({ data: join(dir, 'out'), log: () => undefined, frameThreads: threads, ...(kernels ? { kernels } : {}) }));
    try {
      for (const engine of engines.values()) {
        engine.world.time = 2.5;
        engine.world.update(0);
      }
      const [first, ...others] = [...engines.values()].map((e) => e.world.characterPalettes());
      for (const other of others) {
        other.forEach((palettes, s) => {
          for (let i = 0; i < palettes.length; i++) if (!Object.is(palettes[i], first![s]![i])) throw new Error(`walkers' palettes differ between thread counts at float ${i}`);
        });
      }
      for (const [threads, engine] of engines) {
        const update: number[] = [];
        const record: number[] = [];
        for (let f = 0; f < frames + 10; f++) {
          const frame = await engine.renderFrame(640, 384);
          if (f >= 10) {
            update.push(frame.cpu.update);
            record.push(frame.cpu.record);
          }
        }
        rows.push({ walkers: count, threads, update: median(update), record: median(record) });
        console.log(`${count} walkers, ${threads} thread(s): update ${median(update).toFixed(2)} ms, record ${median(record).toFixed(2)} ms`);
      }
    } finally {
      for (const engine of engines.values()) engine.destroy();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log('\n| walkers | threads | update ms | record ms |\n| --- | --- | --- | --- |');
for (const r of rows) console.log(`| ${r.walkers.toLocaleString('en')} | ${r.threads} | ${r.update.toFixed(2)} | ${r.record.toFixed(2)} |`);
if (values.out) writeFileSync(values.out, JSON.stringify({ machine: { cpu: cpus()[0]?.model, threads: availableParallelism(), node: process.version }, rows, date: new Date().toISOString() }, null, 2));
