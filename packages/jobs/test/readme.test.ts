// The README's examples, run as written (kernels bundled to .mjs as a user's build would).
import { afterAll, beforeAll, expect, test } from 'vitest';
import { JobSystem, type TaskManager } from '../src/index.ts';
import { bundle } from './support/bundle.ts';
import type * as ReadmeKernels from './fixtures/readme-kernels.ts';

let kernelsUrl: string;
let workerUrl: string;
let kernels: typeof ReadmeKernels;
let jobs: JobSystem;

beforeAll(async () => {
  const files = await bundle({ 'readme-kernels': new URL('./fixtures/readme-kernels.ts', import.meta.url).pathname });
  kernelsUrl = files.url('readme-kernels');
  workerUrl = files.worker;
  kernels = (await import(kernelsUrl)) as typeof ReadmeKernels;
});

afterAll(async () => {
  await jobs.shutdown();
});

test('README: Execute, Dispatch and Wait', async () => {
  const { spin, compute } = kernels;
  // README: const jobs = await JobSystem.initialize({ kernels: [new URL('./kernels.js', import.meta.url)] });
  jobs = await JobSystem.initialize({ kernels: [kernelsUrl], workerUrl });

  jobs.execute(spin, 100);
  jobs.execute(spin, 100);
  jobs.execute(spin, 100);
  jobs.execute(spin, 100);
  jobs.wait();

  const dataSize = 1_000_000;
  const dataSet = new Float32Array(new SharedArrayBuffer(dataSize * 16 * 4));
  const groupSize = 1000;
  jobs.dispatch(dataSize, groupSize, compute, dataSet);
  jobs.wait();

  expect(dataSet[999_999 * 16 + 15]).toBe(999_999 + 15);
  expect(jobs.isBusy()).toBe(false);
});

test("README: BitSquid's World::update as a task graph", () => {
  const { animationUpdate, sceneGraphUpdate, guiUpdate, renderWorld, soundUpdate } = kernels;
  const world = { log: new Int32Array(new SharedArrayBuffer(64)) };

  function update(tasks: TaskManager): void {
    const animation = tasks.add(animationUpdate, world.log);
    const sceneGraph = tasks.add(sceneGraphUpdate, world.log);
    tasks.dependsOn(sceneGraph, animation);
    const gui = tasks.add(guiUpdate, world.log);
    const guiScene = tasks.addEmpty();
    tasks.addChild(guiScene, sceneGraph);
    tasks.addChild(guiScene, gui);
    const render = tasks.add(renderWorld, world.log);
    tasks.dependsOn(render, guiScene);
    const sound = tasks.add(soundUpdate, world.log);
    const done = tasks.addEmpty();
    tasks.addChild(done, render);
    tasks.addChild(done, sound);
    tasks.wait(done);
  }

  update(jobs.tasks);
  const order = Array.from(world.log.subarray(1, 1 + world.log[0]!));
  expect(order).toHaveLength(5);
  const at = (system: number): number => order.indexOf(system);
  expect(at(kernels.ANIMATION)).toBeLessThan(at(kernels.SCENE_GRAPH));
  expect(at(kernels.SCENE_GRAPH)).toBeLessThan(at(kernels.RENDER));
  expect(at(kernels.GUI)).toBeLessThan(at(kernels.RENDER));
});

test('README: tasks that add tasks while they run', () => {
  const { animateCharacters } = kernels;
  const poses = new Float32Array(new SharedArrayBuffer(1000 * 2 * 4));

  const animation = jobs.tasks.add(animateCharacters, poses, 1000);
  jobs.tasks.wait(animation); // the four batches it added are done too
  jobs.wait(); // and the continuation it added

  for (let i = 0; i < 1000; i++) expect(poses[i * 2 + 1]).toBe(i + 0.5);
});
