// The frame's CPU work that grows with the level, on @cuttle/jobs: every walker's animation
// (clip sampling and bone palette) for 100, 1,000 and 10,000 walkers of the sample's character,
// on 1 thread and on 2, 4, 8 and 16 (the main thread helping each frame's Dispatch). Each
// configuration's palettes are checked against the one-thread frame before it is timed; each
// timed frame is a new time (the walkers move on), as in the engine. Run on the GPU machine's host:
//   pnpm bundle:node apps/engine/bench/frame-animation.ts .bench-out/frame-animation.mjs --external esbuild --external @cuttle/build
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { median } from '@cuttle/bench';
import type { JobSystem } from '@cuttle/jobs';
import { compileProject } from '../src/compiler/compile-project.ts';
import { CharacterAnimator } from '../src/runtime/character-animator.ts';
import { characterClipBytes, characterClipOf } from '../src/runtime/character-clip.ts';
import type { MeshMeta } from '../src/runtime/formats.ts';
import { ResourceStore } from '../src/runtime/resources.ts';
import { PATH_FLOATS } from '../src/runtime/walk-cycle.ts';
import { startFrameWorkers } from '../src/workers/frame-workers.ts';
import { kernelUrlsIn } from '../src/workers/kernel-bundle.ts';

/** A bind-pose sphere for the walkers' bounds (any sphere times the same as the mesh's own). */
const WALKER_SPHERE = { center: [0, 0.9, 0], radius: 1 } as const;
const { values } = parseArgs({ options: { sample: { type: 'string' }, kernels: { type: 'string' }, threads: { type: 'string' }, counts: { type: 'string' }, frames: { type: 'string' }, out: { type: 'string' } } });
const sample = values.sample ?? join(import.meta.dirname, '..', 'sample');
const kernels = values.kernels ? kernelUrlsIn(values.kernels) : undefined;
const threadCounts = (values.threads ?? '1,2,4,8,16').split(',').map(Number);
const counts = (values.counts ?? '100,1000,10000').split(',').map(Number);
const frames = Number(values.frames ?? 200);

const dir = mkdtempSync(join(tmpdir(), 'cuttle-frame-bench-'));
const report = await compileProject(sample, join(dir, 'out'));
if (report.failed.length > 0) throw new Error(report.failed[0]!.error.message);
const container = new ResourceStore(join(dir, 'out')).get<MeshMeta>('glb', 'meshes/walker');
const { skeleton, clip } = characterClipOf(container, 'meshes/walker');
const clipBytes = characterClipBytes(container);
console.log(`machine: ${cpus()[0]?.model ?? '?'}, ${availableParallelism()} threads, Node ${process.version}; walker: ${skeleton.jointCount} joints, ${clip.channels.length} channels`);

function crowd(count: number): Float32Array {
  const paths = new Float32Array(count * PATH_FLOATS);
  let x = 12345;
  const random = (): number => ((x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  for (let k = 0; k < count; k++) paths.set([random() * 200 - 100, random() * 200 - 100, 1 + random() * 4, 0.5 + random() * 2, random() * Math.PI * 2], k * PATH_FLOATS);
  return paths;
}

const rows: { walkers: number; threads: number; ms: number; speedup: number }[] = [];
const pools = new Map<number, JobSystem | undefined>();
for (const threads of threadCounts) pools.set(threads, await startFrameWorkers(threads, kernels));
try {
  for (const count of counts) {
    const paths = crowd(count);
    const reference = new CharacterAnimator(skeleton, clip, clipBytes, paths, WALKER_SPHERE);
    let base = 0;
    for (const threads of threadCounts) {
      const jobs = pools.get(threads);
      const animator = new CharacterAnimator(skeleton, clip, clipBytes, paths, WALKER_SPHERE);
      // Checked before timing: the same palettes and spheres as the one-thread frame.
      for (const time of [0.5, 7.25]) {
        reference.animate(time, 1);
        animator.animate(time, 1, jobs);
        for (let i = 0; i < reference.palettes.length; i++) {
          if (!Object.is(reference.palettes[i], animator.palettes[i])) throw new Error(`${threads} threads, ${count} walkers: palette float ${i} differs`);
        }
        for (let i = 0; i < reference.bounds.length; i++) {
          if (!Object.is(reference.bounds[i], animator.bounds[i])) throw new Error(`${threads} threads, ${count} walkers: bounds float ${i} differs`);
        }
      }
      for (let f = 0; f < 20; f++) animator.animate(f / 60, 1, jobs);
      const times: number[] = [];
      for (let f = 0; f < frames; f++) {
        const t0 = performance.now();
        animator.animate(1 + f / 60, 1, jobs);
        times.push(performance.now() - t0);
      }
      const ms = median(times);
      if (threads === 1) base = ms;
      rows.push({ walkers: count, threads, ms, speedup: base / ms });
      console.log(`${count} walkers, ${threads} thread(s): ${ms.toFixed(3)} ms per frame (${(base / ms).toFixed(2)}x)`);
    }
  }
} finally {
  for (const jobs of pools.values()) await jobs?.shutdown();
  rmSync(dir, { recursive: true, force: true });
}
console.log('\n| walkers | threads | animation ms / frame | speed-up |\n| --- | --- | --- | --- |');
for (const r of rows) console.log(`| ${r.walkers.toLocaleString('en')} | ${r.threads} | ${r.ms.toFixed(3)} | ${r.speedup.toFixed(2)}x |`);
if (values.out) writeFileSync(values.out, JSON.stringify({ machine: { cpu: cpus()[0]?.model, threads: availableParallelism(), node: process.version }, joints: skeleton.jointCount, rows, date: new Date().toISOString() }, null, 2));
