// What live Flow debugging costs the engine's frame: the sample's Flow update (World.update's
// Flow step: the level graph and every lamp's) per frame with no tool watching, and with a tool
// watching the level graph or a lamp (the debugger's poll included, as the server's pump runs
// it; activity serialised at its 10 Hz). No GPU: the graphs come from the compiled sample, the
// frame clock is simulated at 60 fps.
//   pnpm --filter @cuttle/engine bench:flow
import { loadLibrary } from '@cuttle/ecs';
import { loadFlowProgram } from '@cuttle/flow';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileProject } from '../src/compiler/compile-project.ts';
import { createLevelLibrary } from '../src/compiler/resources/level.ts';
import { section } from '../src/runtime/container.ts';
import { createFlowRegistry } from '../src/runtime/flow-actions.ts';
import { FlowScripts } from '../src/runtime/flow-scripts.ts';
import type { FlowMeta, LevelMeta, PackageMeta } from '../src/runtime/formats.ts';
import { ResourceStore } from '../src/runtime/resources.ts';
import { FlowDebugger } from '../src/slave/flow-debugger.ts';

const FRAMES = 20_000;
const RUNS = 7;
const dir = mkdtempSync(join(tmpdir(), 'cuttle-flow-bench-'));
try {
  const report = await compileProject(join(import.meta.dirname, '..', 'sample'), dir);
  if (report.failed.length > 0) throw new Error(report.failed[0]!.error.message);
  const store = new ResourceStore(dir);
  const levelName = store.get<PackageMeta>('package', 'boot').meta.resources.find((r) => r.type === 'level')!.name;

  /** The sample level's Flow graphs, as World#startFlow makes them (without the renderer). */
  const build = (): FlowScripts => {
    const level = store.get<LevelMeta>('level', levelName);
    const ecs = createLevelLibrary();
    loadLibrary(ecs.scene.library, section(level, 'ecs', Uint8Array), { seed: 0 });
    const ids = new Map<number, string>();
    for (let i = 0; i < ecs.managers.unit.count; i++) ids.set(ecs.managers.unit.getEntity(i), level.meta.units[ecs.managers.unit.fields.id[i]!]!.id);
    const { script } = ecs.managers;
    const units = [];
    for (let i = 0; i < script.count; i++) {
      const entity = script.getEntity(i);
      units.push({ unit: ids.get(entity)!, graph: level.meta.names[script.fields.flow[i]!]!.slice('flow:'.length), entity });
    }
    const registry = createFlowRegistry({ log: () => undefined, setLightScale: () => undefined, setWalkSpeed: () => undefined, setTitle: () => undefined });
    const flow = new FlowScripts(registry, (name) => {
      const c = store.get<FlowMeta>('flow', name);
      return { program: loadFlowProgram(section(c, 'blob', Uint8Array), registry), types: c.meta.nodes };
    }, units, level.meta.flow);
    flow.start();
    return flow;
  };

  let sentBytes = 0;
  const peer = { reply: (m: object | string) => { sentBytes += (typeof m === 'string' ? m : JSON.stringify(m)).length; }, offer: (_kind: 'flow', m: object | string) => { sentBytes += (typeof m === 'string' ? m : JSON.stringify(m)).length; } };

  /** Median ns per frame of `frames` frames of the Flow update (and the debugger's poll while it is active). */
  const measure = (watch: string | null | undefined): { ns: number; instances: number; activity: number } => {
    const times: number[] = [];
    let instances = 0;
    let activity = 0;
    for (let run = 0; run < RUNS; run++) {
      const flow = build();
      instances = flow.targets.length;
      const debug = new FlowDebugger({ world: { flow } }, () => undefined);
      if (watch !== undefined) debug.handle(peer, { type: 'flow', action: 'watch', unit: watch });
      sentBytes = 0;
      let clock = 0;
      const t0 = performance.now();
      for (let f = 0; f < FRAMES; f++) {
        flow.update(1 / 60);
        clock += 1000 / 60;
        if (debug.active) debug.poll(clock);
      }
      times.push(((performance.now() - t0) * 1e6) / FRAMES);
      activity = sentBytes;
      if (watch !== undefined) debug.disconnect(peer);
    }
    times.sort((a, b) => a - b);
    return { ns: times[Math.floor(RUNS / 2)]!, instances, activity };
  };

  // Warm-up: the first case measured would otherwise pay for the JIT.
  measure(undefined);
  measure(null);
  const none = measure(undefined);
  const level = measure(null);
  const lamp = measure('lamp_00');
  const row = (name: string, r: { ns: number; activity: number }): string => `| ${name} | ${(r.ns / 1000).toFixed(2)} µs | ${(r.ns / none.ns).toFixed(2)}x | ${Math.round(r.activity / (FRAMES / 60))} B/s |`;
  console.log(`Flow update per frame, sample level (${none.instances} instances), ${FRAMES} frames at 60 fps simulated, median of ${RUNS}`);
  console.log(`Node ${process.version} · ${cpus()[0]?.model ?? 'unknown CPU'} x ${cpus().length} · ${new Date().toISOString().slice(0, 10)}`);
  console.log('| case | per frame | against nobody watching | activity sent |');
  console.log('| --- | --- | --- | --- |');
  console.log(row('nobody watching', none));
  console.log(row('a tool watching the level graph (timer every 2 s)', level));
  console.log(row('a tool watching lamp_00', lamp));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
