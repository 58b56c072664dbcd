// Whether the frame's Flow update and transform propagation earn a place on the frame workers
// (issue #36): what each costs on one thread as a level grows. Flow: the sample's lamp graph
// placed on 100 / 1,000 / 10,000 units plus the level graph, World.update's Flow step per
// simulated 60 fps frame. Transforms: @cuttle/ecs's Scene.update (local to world, then the
// hierarchy) over that many units, each a child of a parent group of 10, with every transform
// changed (a level load or a large patch), with one changed (the property editor moving a unit)
// and with none changed. No GPU.
//   pnpm --filter @cuttle/engine exec tsx --conditions=@cuttle/source --import ./bin/source-hooks-register.mjs bench/frame-flow-transforms.ts
import { Scene } from '@cuttle/ecs';
import { loadFlowProgram } from '@cuttle/flow';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from '@cuttle/bench';
import { compileProject } from '../src/compiler/compile-project.ts';
import { section } from '../src/runtime/container.ts';
import { createFlowRegistry } from '../src/runtime/flow-actions.ts';
import { FlowScripts } from '../src/runtime/flow-scripts.ts';
import type { FlowMeta } from '../src/runtime/formats.ts';
import { ResourceStore } from '../src/runtime/resources.ts';

const COUNTS = [100, 1000, 10_000];
const FRAMES = 2000;
const RUNS = 7;

function flowMicroseconds(store: ResourceStore, count: number): number {
  const registry = createFlowRegistry({ log: () => undefined, setLightScale: () => undefined, setWalkSpeed: () => undefined, setTitle: () => undefined });
  const load = (name: string) => {
    const compiled = store.get<FlowMeta>('flow', name);
    return { program: loadFlowProgram(section(compiled, 'blob', Uint8Array), registry), types: compiled.meta.nodes };
  };
  const units = Array.from({ length: count }, (_, i) => ({ unit: `lamp_${i}`, graph: 'flow/lamp', entity: i + 1 }));
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const flow = new FlowScripts(registry, load, units, 'flow/courtyard');
    flow.start();
    const t0 = performance.now();
    for (let f = 0; f < FRAMES; f++) flow.update(1 / 60);
    times.push(((performance.now() - t0) * 1000) / FRAMES);
  }
  return median(times);
}

function transformMicroseconds(count: number, changed: 'all' | 'one' | 'none'): number {
  const scene = new Scene();
  const rows: number[] = [];
  let parent = 0;
  for (let i = 0; i < count; i++) {
    if (i % 10 === 0) parent = scene.createNode({ position: [i, 0, 0] });
    const child = scene.createNode({ position: [0, 1, i % 10], scale: [1, 1, 1] });
    scene.attach(child, parent);
    rows.push(scene.transforms.indexOf(child));
  }
  scene.update();
  const { position, dirty } = scene.transforms.fields;
  const times: number[] = [];
  for (let run = 0; run < RUNS * 5; run++) {
    if (changed === 'all') {
      for (const row of rows) {
        position[row * 3 + 1] = 1 + run * 1e-3;
        dirty[row] = 1;
      }
    } else if (changed === 'one') {
      // One unit moved, as the property editor's preview moves it.
      const row = rows[(run * 7919) % rows.length]!;
      position[row * 3 + 1] = 1 + run * 1e-3;
      dirty[row] = 1;
    }
    const t0 = performance.now();
    scene.update();
    times.push((performance.now() - t0) * 1000);
  }
  return median(times);
}

const dir = mkdtempSync(join(tmpdir(), 'cuttle-flow-transforms-'));
try {
  const report = await compileProject(join(import.meta.dirname, '..', 'sample'), dir);
  if (report.failed.length > 0) throw new Error(report.failed[0]!.error.message);
  const store = new ResourceStore(dir);
  // Warm-up: the first case would otherwise pay for the JIT.
  flowMicroseconds(store, 100);
  transformMicroseconds(1000, 'all');
  console.log(`Node ${process.version} · ${cpus()[0]?.model ?? 'unknown CPU'} x ${cpus().length} · ${new Date().toISOString().slice(0, 10)}`);
  console.log('| units | Flow update per frame | transforms, all changed | one changed | none changed |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const count of COUNTS) {
    const flow = flowMicroseconds(store, count);
    const all = transformMicroseconds(count, 'all');
    const one = transformMicroseconds(count, 'one');
    const none = transformMicroseconds(count, 'none');
    console.log(`| ${count.toLocaleString('en-US')} | ${flow.toFixed(2)} µs | ${all.toFixed(1)} µs | ${one.toFixed(2)} µs | ${none.toFixed(2)} µs |`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
