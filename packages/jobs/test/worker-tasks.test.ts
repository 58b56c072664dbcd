// BitSquid's tasks spawn subtasks while they run: a kernel adds children to its own task and
// continuations that depend on it, on a worker or on the thread that helps inside wait().
import { isMainThread } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { JobSystem} from '../src/index.ts';
import { JobFailedError, JobsError, taskContext } from '../src/index.ts';
import { startJobs, type Kernels } from './support/bundle.ts';

let jobs: JobSystem;
let k: Kernels;

beforeAll(async () => {
  ({ jobs, k } = await startJobs({ workerCount: 3 }));
});

afterAll(async () => {
  await jobs.shutdown();
});

function ints(count: number): Int32Array {
  return new Int32Array(new SharedArrayBuffer(count * 4));
}

function entries(log: Int32Array): number[] {
  return Array.from(log.subarray(1, 1 + log[0]!));
}

describe('tasks created inside a running kernel', () => {
  test('on a worker: children complete before their parent, the continuation runs after both', () => {
    const log = ints(64);
    const where = ints(1);
    // Streaming work runs on workers only, so the kernel that spawns runs on a worker.
    const root = jobs.tasks.addWith({ priority: 'streaming' }, k.spawnChildren, log, 8, where);
    jobs.tasks.wait(root);
    expect(where[0]).toBeGreaterThan(0);
    // The parent completed only after every child it added while running.
    const done = entries(log);
    expect(done[0]).toBe(1);
    expect(done.slice(1, 9).sort((a, b) => a - b)).toEqual([10, 11, 12, 13, 14, 15, 16, 17]);
    jobs.wait();
    // The continuation, added while the parent ran, ran once the parent and its children were done.
    expect(entries(log)).toHaveLength(10);
    expect(entries(log)[9]).toBe(99);
    expect(jobs.isBusy()).toBe(false);
  });

  test('the staging rule holds on a worker: nothing starts before submit() or the kernel returns', () => {
    const log = ints(8);
    const flags = ints(2);
    jobs.tasks.addWith({ priority: 'streaming' }, k.stageThenSubmit, log, flags);
    jobs.wait();
    expect(flags[0]).toBe(1); // 30 ms with idle workers, and the staged task had not started
    expect(flags[1]).toBe(1); // after submit() another worker ran it while this kernel still ran
    expect(entries(log)).toEqual([7]);
  });

  test('every group of a Dispatch task adds children; a continuation sees them all', () => {
    const counter = ints(1);
    const out = ints(1);
    const fan = jobs.tasks.addDispatch(200, 1, k.fanOut, counter);
    const check = jobs.tasks.addWith({ dependency: fan }, k.snapshot, counter, out);
    jobs.tasks.wait(check);
    expect(out[0]).toBe(200);
  });

  test('on the thread helping inside wait(): tasks its kernel adds start when the work item ends', async () => {
    const { jobs: single, k: kernels } = await startJobs({ workerCount: 1 });
    try {
      // Keep the only worker busy, so this thread runs the spawning kernel itself.
      const flag = ints(1);
      single.execute(kernels.spinFlagged, flag, 200);
      while (Atomics.load(flag, 0) === 0) Atomics.wait(flag, 0, 0, 1);
      const log = ints(64);
      const where = ints(1);
      const root = single.tasks.add(kernels.spawnChildren, log, 4, where);
      single.tasks.wait(root);
      expect(where[0]).toBe(-1);
      single.wait();
      expect(entries(log)[0]).toBe(1);
      expect(entries(log).slice(1, 5).sort((a, b) => a - b)).toEqual([10, 11, 12, 13]);
      expect(entries(log)[5]).toBe(99);
    } finally {
      await single.shutdown();
    }
  });
});

describe('misuse inside and outside kernels', () => {
  test('taskContext() outside a kernel throws JobsError', () => {
    expect(isMainThread).toBe(true);
    expect(() => taskContext()).toThrow(JobsError);
  });

  test('a kernel on a worker cannot wait: it is told to add a continuation', () => {
    jobs.tasks.addWith({ priority: 'streaming' }, k.waitInside);
    let caught: unknown;
    try {
      jobs.wait();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(JobFailedError);
    expect((caught as JobFailedError).kernel).toBe('waitInside');
    expect((caught as Error).message).toMatch(/continuation/);
    expect(jobs.isBusy()).toBe(false);
  });

  test('a kernel on a worker cannot pass a buffer the pool never saw', () => {
    jobs.tasks.addWith({ priority: 'streaming' }, k.passNewBuffer);
    expect(() => {
      jobs.wait();
    }).toThrow(/has not been given/);
    expect(jobs.isBusy()).toBe(false);
  });
});
