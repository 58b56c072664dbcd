// A Flow graph that fails every few frames (the level script with an event loop drawn into it, as
// a user editing a graph may draw one) does not freeze the engine: every frame is still rendered,
// the walkers still walk, and the frame carries the failure for the tool's log.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { compileProject } from '../src/compiler/compile-project.ts';
import { Engine } from '../src/runtime/engine.ts';
import { scratchProject, type Scratch } from './helpers.ts';

let project: Scratch;

beforeAll(async () => {
  project = scratchProject();
  // A timer every 0.05 s into a gate that feeds itself: the update runs into the step limit.
  project.edit('flow/courtyard.flow', 'nodes = [', 'nodes = [\n    { id = "loop_tick" type = "event/timer" inputs = { period = 0.05 } }\n    { id = "loop" type = "logic/gate" }');
  project.edit('flow/courtyard.flow', 'events = [', 'events = [\n    { from = "loop_tick.tick" to = "loop.in" }\n    { from = "loop.out" to = "loop.in" }');
  expect((await compileProject(project.source, project.out)).failed).toEqual([]);
}, 60_000);

afterAll(() => {
  project.dispose();
});

describe('a failing Flow graph', () => {
  test('frames keep coming, the world keeps moving, and each frame names the failure', async () => {
    const engine = await Engine.start({ data: project.out, log: () => undefined });
    try {
      const failures: (string | null)[] = [];
      const palettes: number[] = [];
      for (let i = 0; i < 12; i++) {
        await new Promise((resolve) => setTimeout(resolve, 30));
        const frame = await engine.renderFrame(64, 16);
        expect(frame.pixels.length).toBe(64 * 16 * 4);
        failures.push(frame.flowFailure);
        palettes.push(engine.world.characterPalettes()[0]![12 * 3 + 3]!);
      }
      const failed = failures.filter((f) => f !== null);
      expect(failed.length, 'the timer fires every 0.05 s').toBeGreaterThan(3);
      expect(failed[0]).toBe('The Flow update failed in 1 instance: the level (flow/courtyard): One call ran more than 1000000 nodes: an event loop in graph "courtyard" without a gate or once? Raise maxStepsPerCall if intended.');
      // The walkers were animated in the frames whose Flow update failed.
      expect(new Set(palettes).size).toBeGreaterThan(6);
    } finally {
      engine.destroy();
    }
  }, 60_000);
});
