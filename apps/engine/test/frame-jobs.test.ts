// The frame's walker animation on @cuttle/jobs workers against the one-thread frame: the same
// palettes bit for bit, for a crowd of the sample's walker at several times, and inside a
// running engine started with --frame-threads.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { JobSystem } from '@cuttle/jobs';
import { compileProject } from '../src/compiler/compile-project.ts';
import { CharacterAnimator } from '../src/runtime/character-animator.ts';
import { characterClipBytes, characterClipOf } from '../src/runtime/character-clip.ts';
import { Engine } from '../src/runtime/engine.ts';
import type { MeshMeta } from '../src/runtime/formats.ts';
import { ResourceStore } from '../src/runtime/resources.ts';
import { PATH_FLOATS, walkerRoot } from '../src/runtime/walk-cycle.ts';
import { startFrameWorkers } from '../src/workers/frame-workers.ts';
import { scratchProject, type Scratch } from './helpers.ts';

let project: Scratch;
let jobs: JobSystem;

beforeAll(async () => {
  project = scratchProject();
  expect((await compileProject(project.source, project.out)).failed).toEqual([]);
  jobs = (await startFrameWorkers(3))!;
}, 60_000);

afterAll(async () => {
  await jobs.shutdown();
  project.dispose();
});

function crowd(count: number, seed: number): Float32Array {
  const paths = new Float32Array(count * PATH_FLOATS);
  let x = seed;
  const random = (): number => ((x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  for (let k = 0; k < count; k++) paths.set([random() * 80 - 40, random() * 80 - 40, 1 + random() * 4, 0.5 + random() * 2, random() * Math.PI * 2], k * PATH_FLOATS);
  return paths;
}

const bits = (palettes: Float32Array): Uint32Array => new Uint32Array(palettes.buffer.slice(palettes.byteOffset, palettes.byteOffset + palettes.byteLength));

describe('walkers animated on frame workers', () => {
  test('give the same palettes and bounding spheres, bit for bit, as the one-thread frame', () => {
    const store = new ResourceStore(project.out);
    const container = store.get<MeshMeta>('glb', 'meshes/walker');
    const { skeleton, clip } = characterClipOf(container, 'meshes/walker');
    const paths = crowd(700, 9);
    const sphere = { center: [0.1, 0.9, -0.05], radius: 0.95 } as const;
    const here = new CharacterAnimator(skeleton, clip, characterClipBytes(container), paths, sphere);
    const there = new CharacterAnimator(skeleton, clip, characterClipBytes(container), paths, sphere);
    for (const [time, walkScale] of [[0, 1], [0.37, 1], [5.123, 1.5], [61.9, 0.25]] as const) {
      here.animate(time, walkScale);
      there.animate(time, walkScale, jobs);
      expect(bits(there.palettes)).toEqual(bits(here.palettes));
      expect(bits(there.bounds)).toEqual(bits(here.bounds));
      // Each sphere is the bind pose's, carried by the walker's root this frame.
      for (const k of [0, 350, 699]) {
        const root = new Float64Array(16);
        walkerRoot(paths, k, time, walkScale, root);
        const [x, y, z] = sphere.center;
        const expected = [0, 1, 2].map((r) => Math.fround(root[r]! * x + root[4 + r]! * y + root[8 + r]! * z + root[12 + r]!));
        expect(Array.from(here.bounds.subarray(k * 4, k * 4 + 4))).toEqual([...expected, Math.fround(sphere.radius)]);
      }
      // Not all the same pose: the crowd walks out of step.
      expect(here.palette(1)).not.toEqual(here.palette(2));
    }
  });

  test('an engine with --frame-threads 3 draws walkers posed exactly as a one-thread engine', async () => {
    const one = await Engine.start({ data: project.out, log: () => undefined });
    const three = await Engine.start({ data: project.out, log: () => undefined, frameThreads: 3 });
    try {
      expect(three.jobs).toBeDefined();
      for (const engine of [one, three]) {
        engine.world.time = 3.25;
        engine.world.update(0);
      }
      const a = one.world.characterPalettes();
      const b = three.world.characterPalettes();
      expect(a.length).toBeGreaterThan(0);
      expect(b.map(bits)).toEqual(a.map(bits));
    } finally {
      one.destroy();
      three.destroy();
    }
  }, 60_000);

  test('world rebuilds on frame threads leave the workers holding no more shared buffers than the first world', async () => {
    const engine = await Engine.start({ data: project.out, log: () => undefined, frameThreads: 3 });
    try {
      engine.tick();
      const jobs = engine.jobs!;
      const held = jobs.heldBuffers;
      expect(held, 'the walkers, the Flow layout and the textures sent theirs').toBeGreaterThan(3);
      for (let i = 0; i < 20; i++) {
        // A static mesh: the world is rebuilt (new walkers, a new Flow layout on the shared buffers).
        expect(engine.reload(['meshes/crate.glb'])).toMatchObject({ ok: true, mode: 'rebuilt' });
        engine.tick();
      }
      expect(jobs.heldBuffers).toBe(held);
    } finally {
      engine.destroy();
    }
  }, 60_000);

  test('refuses a thread count that is not a whole number from 1 to 256', async () => {
    await expect(startFrameWorkers(0)).rejects.toThrow(/frame threads must be a whole number from 1 to 256, got 0/);
    expect(await startFrameWorkers(1)).toBeUndefined();
  });
});
