import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { JobSystem} from '../src/index.ts';
import { JobFailedError, JobsError, type TaskManager } from '../src/index.ts';
import { startJobs, type Kernels } from './support/bundle.ts';

let jobs: JobSystem;
let tasks: TaskManager;
let k: Kernels;

beforeAll(async () => {
  ({ jobs, k } = await startJobs({ workerCount: 3 }));
  tasks = jobs.tasks;
});

afterAll(async () => {
  await jobs.shutdown();
});

function log(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(256 * 4));
}

function positions(entries: Int32Array): Map<number, number> {
  const at = new Map<number, number>();
  for (let i = 1; i <= entries[0]!; i++) at.set(entries[i]!, i);
  return at;
}

describe('task graph', () => {
  test("BitSquid's World::update graph runs in dependency order", () => {
    const order = log();
    const [ANIMATION, SCENE_GRAPH, GUI, RENDER, SOUND] = [1, 2, 3, 4, 5];
    const animation = tasks.add(k.appendAfter, order, ANIMATION, 20);
    const sceneGraph = tasks.add(k.append, order, SCENE_GRAPH);
    tasks.dependsOn(sceneGraph, animation);
    const gui = tasks.add(k.appendAfter, order, GUI, 10);
    const guiScene = tasks.addEmpty();
    tasks.addChild(guiScene, sceneGraph);
    tasks.addChild(guiScene, gui);
    const render = tasks.add(k.append, order, RENDER);
    tasks.dependsOn(render, guiScene);
    const sound = tasks.add(k.appendAfter, order, SOUND, 5);
    const done = tasks.addEmpty();
    tasks.addChild(done, render);
    tasks.addChild(done, sound);
    tasks.wait(done);

    expect(order[0]).toBe(5);
    const at = positions(order);
    expect(at.get(ANIMATION)!).toBeLessThan(at.get(SCENE_GRAPH)!);
    expect(at.get(SCENE_GRAPH)!).toBeLessThan(at.get(RENDER)!);
    expect(at.get(GUI)!).toBeLessThan(at.get(RENDER)!);
    for (const task of [animation, sceneGraph, gui, guiScene, render, sound, done]) expect(tasks.isDone(task)).toBe(true);
    expect(jobs.isBusy()).toBe(false);
  });

  test('a parent completes only after its work and every child (open work counter)', () => {
    const order = log();
    const parent = tasks.add(k.append, order, 100);
    for (let i = 1; i <= 8; i++) tasks.addWith({ parent }, k.appendAfter, order, i, 5);
    const after = tasks.addWith({ dependency: parent }, k.append, order, 200);
    tasks.wait(after);
    expect(order[0]).toBe(10);
    expect(order[10]).toBe(200);
  });

  test('a Dispatch as a work item completes when all its groups have run', () => {
    const data = new Float32Array(new SharedArrayBuffer(3000 * 16 * 4));
    const order = log();
    const update = tasks.addDispatch(3000, 100, k.compute, data);
    const check = tasks.addWith({ dependency: update }, k.append, order, 1);
    tasks.wait(check);
    expect(data[2999 * 16 + 15]).toBe(2999 + 15);
  });

  test('tasks created while others run can depend on them, and on completed ones', async () => {
    const order = log();
    const first = tasks.add(k.appendAfter, order, 1, 40);
    tasks.submit();
    const second = tasks.addWith({ dependency: first }, k.append, order, 2);
    await tasks.waitAsync(second);
    const third = tasks.addWith({ dependency: first }, k.append, order, 3);
    tasks.wait(third);
    expect(Array.from(order.subarray(0, 4))).toEqual([3, 1, 2, 3]);
  });

  test('highest priority first among ready tasks', async () => {
    const { jobs: single, k: kernels } = await startJobs({ workerCount: 1 });
    try {
      const order = log();
      const flag = new Int32Array(new SharedArrayBuffer(4));
      single.execute(kernels.spinFlagged, flag, 300);
      while (Atomics.load(flag, 0) === 0) Atomics.wait(flag, 0, 0, 1);
      const all = single.tasks.addEmpty();
      single.tasks.addWith({ parent: all, priority: 'low' }, kernels.append, order, 1);
      single.tasks.addWith({ parent: all, priority: 'high' }, kernels.append, order, 2);
      single.tasks.addWith({ parent: all, priority: 'low' }, kernels.append, order, 3);
      single.tasks.addWith({ parent: all, priority: 'high' }, kernels.append, order, 4);
      single.tasks.wait(all);
      expect(Array.from(order.subarray(1, 5))).toEqual([2, 4, 1, 3]);
    } finally {
      await single.shutdown();
    }
  });

  test('an empty task with no children completes on submit', () => {
    const join = tasks.addEmpty();
    tasks.wait(join);
    expect(tasks.isDone(join)).toBe(true);
  });

  test('a failing task rejects the wait and still completes its parent', () => {
    const parent = tasks.addEmpty();
    tasks.addDispatchWith({ parent }, 10, 2, k.failAt, 7);
    expect(() => {
      tasks.wait(parent);
    }).toThrow(JobFailedError);
    expect(tasks.isDone(parent)).toBe(true);
  });
});

describe('task graph misuse throws JobsError', () => {
  test('a second dependency', () => {
    const a = tasks.addEmpty();
    const b = tasks.addEmpty();
    const c = tasks.addEmpty();
    tasks.dependsOn(c, a);
    expect(() => {
      tasks.dependsOn(c, b);
    }).toThrow(JobsError);
    tasks.submit();
    jobs.wait();
  });

  test('wiring a submitted task, or a completed parent', () => {
    const a = tasks.add(k.spin, 1);
    const b = tasks.addEmpty();
    tasks.submit();
    expect(() => {
      tasks.dependsOn(a, b);
    }).toThrow(JobsError);
    jobs.wait();
    expect(() => {
      tasks.addChild(a, tasks.addEmpty());
    }).toThrow(JobsError);
    expect(() => {
      tasks.wait({ index: -1, serial: 0 });
    }).toThrow(JobsError);
    jobs.wait();
  });

  test('a child with a parent already', () => {
    const p1 = tasks.addEmpty();
    const p2 = tasks.addEmpty();
    const child = tasks.addWith({ parent: p1 }, k.spin, 1);
    expect(() => {
      tasks.addChild(p2, child);
    }).toThrow(JobsError);
    jobs.wait();
  });
});
