// The runtime promises no allocation per event. JavaScript cannot count allocations directly,
// so this measures what would betray them: with V8's GC profiler running, a million events
// must neither trigger a collection nor grow the heap, and the pre-sized event stack must stay
// far below its capacity.
import { GCProfiler } from 'node:v8';
import { expect, test } from 'vitest';
import { explodingBarrel } from '../examples/exploding-barrel.ts';
import { compileFlowGraph, FlowRegistry, FlowRuntime, loadFlowProgram } from '../src/index.ts';

test('a million events allocate nothing: no GC, no heap growth, bounded stack', () => {
  let effects = 0;
  const registry = new FlowRegistry();
  registry.defineAction({ name: 'spawn_effect', inputs: [{ name: 'name', type: 'string' }], run: () => { effects++; } });
  registry.defineAction({ name: 'play_sound', inputs: [{ name: 'name', type: 'string' }], run: () => undefined });
  registry.defineAction({ name: 'push_actor', inputs: [{ name: 'target', type: 'unit' }, { name: 'force', type: 'float' }], run: (call) => { effects += call.number(1) > 0 ? 0 : 1; } });
  registry.defineAction({ name: 'destroy_unit', run: () => undefined });
  const program = loadFlowProgram(compileFlowGraph(explodingBarrel, registry), registry);
  const runtime = new FlowRuntime({ stackSize: 64 });
  const barrels = Array.from({ length: 100 }, (_, i) => program.instantiate(i));

  const round = (events: number): void => {
    for (let i = 0; i < events; i++) {
      const barrel = barrels[i % 100]!;
      runtime.collision(barrel, i);
      runtime.update(barrel, 0.2);
      if ((i & 7) === 7) barrel.reset();
    }
  };
  round(50_000); // warm up: let the JIT compile everything first

  const profiler = new GCProfiler();
  const heapBefore = process.memoryUsage().heapUsed;
  const executionsBefore = runtime.executions;
  profiler.start();
  round(500_000); // 500k collisions + 500k updates
  const heapAfter = process.memoryUsage().heapUsed;
  const gc = profiler.stop();

  expect(runtime.executions - executionsBefore).toBeGreaterThan(2_000_000);
  expect(effects).toBeGreaterThan(0);
  expect(gc.statistics.length).toBe(0);
  // Per event (a million: 500k collisions, 500k updates), not in total: one object per event
  // would take 16 bytes or more; what stays under a byte per event is the isolate's own (the
  // test runner's messages, code the JIT writes).
  expect((heapAfter - heapBefore) / 1_000_000).toBeLessThan(1);
  expect(runtime.peakStack).toBeLessThanOrEqual(4);
  expect(runtime.stackSize).toBe(64);
});
