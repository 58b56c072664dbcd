import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { JobSystem} from '../src/index.ts';
import { JobFailedError, JobsError } from '../src/index.ts';
import { startJobs, type Kernels } from './support/bundle.ts';

let jobs: JobSystem;
let k: Kernels;

beforeAll(async () => {
  ({ jobs, k } = await startJobs({ workerCount: 2 }));
});

afterAll(async () => {
  await jobs.shutdown();
});

const shared = (count: number): Int32Array => new Int32Array(new SharedArrayBuffer(count * 4));

describe('async kernels (streaming work)', () => {
  test('a worker holds each job until its promise settles; wait() returns after all of them', () => {
    const out = shared(8);
    for (let i = 0; i < 8; i++) jobs.at('streaming').execute(k.storeLater, out, i, 100 + i, 20);
    jobs.wait();
    expect([...out]).toEqual([100, 101, 102, 103, 104, 105, 106, 107]);
  });

  test('a task whose kernel is async completes when its promise does: its continuation sees the result', () => {
    const out = shared(2);
    const first = jobs.tasks.addWith({ priority: 'streaming' }, k.storeLater, out, 0, 7, 30);
    const next = jobs.tasks.addWith({ priority: 'streaming', dependency: first }, k.storeLater, out, 1, 8, 0);
    jobs.tasks.wait(next);
    expect([...out]).toEqual([7, 8]);
  });

  test('a rejected promise is a JobFailedError naming the kernel, with the rejection as its cause', () => {
    jobs.at('streaming').execute(k.rejectLater, 5);
    let caught: unknown;
    try {
      jobs.wait();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(JobFailedError);
    expect((caught as JobFailedError).message).toContain('rejectLater');
    expect((caught as JobFailedError).cause).toBeInstanceOf(RangeError);
    // The pool goes on.
    const out = shared(1);
    jobs.at('streaming').execute(k.storeLater, out, 0, 1, 0);
    jobs.wait();
    expect(out[0]).toBe(1);
  });

  test('an async kernel below the streaming priority, or as a dispatch, is refused at the call', () => {
    const out = shared(1);
    expect(() => { jobs.execute(k.storeLater, out, 0, 1, 0); }).toThrow(/storeLater is an async function: .*'streaming' priority/);
    expect(() => { jobs.at('low').execute(k.storeLater, out, 0, 1, 0); }).toThrow(JobsError);
    // A Dispatch passes JobDispatchArgs first; an async one is refused whatever it takes.
    expect(() => { jobs.at('streaming').dispatch(4, 1, k.storeLater as never, out, 0, 1); }).toThrow(JobsError);
    expect(() => jobs.tasks.add(k.storeLater, out, 0, 1, 0)).toThrow(JobsError);
    jobs.wait();
    expect(out[0]).toBe(0);
  });

  test('a promise returned to a thread that helps inside wait() fails the job with a clear error', async () => {
    const one = await startJobs({ workerCount: 1 });
    try {
      // The worker takes the long spin; once it surely has, the main thread, waiting, takes
      // the next job itself.
      one.jobs.execute(one.k.spin, 400);
      one.k.spin(100);
      const out = shared(1);
      one.jobs.execute(one.k.promiseReturning, out);
      let caught: unknown;
      try {
        one.jobs.wait();
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(JobFailedError);
      expect(String((caught as JobFailedError).cause)).toMatch(/promiseReturning returned a promise on a thread that helps inside wait\(\), which cannot await it/);
    } finally {
      await one.jobs.shutdown();
    }
  });
});
