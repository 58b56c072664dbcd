import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { JobFailedError, JobSystem, JobsError, WorkerDiedError } from '../src/index.ts';
import { startJobs, type Kernels } from './support/bundle.ts';

let jobs: JobSystem;
let k: Kernels;

beforeAll(async () => {
  ({ jobs, k } = await startJobs({ workerCount: 3 }));
});

afterAll(async () => {
  await jobs.shutdown();
});

function shared<T>(Type: new (buffer: SharedArrayBuffer) => T, bytes: number): T {
  return new Type(new SharedArrayBuffer(bytes));
}

describe('Dispatch', () => {
  test('matches the serial loop of the post (Data::Compute over 16 floats)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 1, max: 700 }), (jobCount, groupSize) => {
        const data = new Float32Array(new SharedArrayBuffer(Math.max(1, jobCount) * 16 * 4));
        jobs.dispatch(jobCount, groupSize, k.compute, data);
        jobs.wait();
        for (let j = 0; j < jobCount; j++) {
          for (let i = 0; i < 16; i++) if (data[j * 16 + i] !== j + i) return false;
        }
        return true;
      }),
      { numRuns: 25 },
    );
  });

  test('runs every job once; a group runs serially on one thread', () => {
    const jobCount = 5000;
    const groupSize = 64;
    const groups = shared(Int32Array, jobCount * 4);
    const threads = shared(Int32Array, jobCount * 4).fill(-1);
    const order = shared(Int32Array, jobCount * 4);
    const counter = shared(Int32Array, 8);
    jobs.dispatch(jobCount, groupSize, k.trace, groups, threads, order, counter);
    jobs.wait();
    expect(counter[1]).toBe(jobCount);
    for (let j = 0; j < jobCount; j++) {
      expect(groups[j]).toBe(Math.floor(j / groupSize));
      if (j % groupSize !== 0) {
        expect(threads[j]).toBe(threads[j - 1]);
        expect(order[j]).toBeGreaterThan(order[j - 1]!);
      }
    }
  });

  test('passes numbers by value and gives each job its index', () => {
    const out = shared(Float64Array, 100 * 8);
    jobs.dispatch(100, 7, k.add, out, 1.5, 2);
    jobs.wait();
    expect(Array.from(out)).toEqual(Array.from({ length: 100 }, (_, i) => 3.5 + i));
  });

  test('accepts kernels by export name', () => {
    const out = shared(Float64Array, 10 * 8);
    jobs.dispatch(10, 3, 'add', out, 0, 0);
    jobs.wait();
    expect(out[9]).toBe(9);
  });

  test('waitAsync helps and resolves when idle', async () => {
    const data = shared(Float32Array, 2000 * 16 * 4);
    jobs.dispatch(2000, 100, k.compute, data);
    await jobs.waitAsync();
    expect(jobs.isBusy()).toBe(false);
    expect(data[1999 * 16]).toBe(1999);
  });

  test('jobCount 0 schedules nothing', () => {
    jobs.dispatch(0, 1, k.compute, shared(Float32Array, 16));
    expect(jobs.isBusy()).toBe(false);
  });
});

describe('Execute, IsBusy, priorities', () => {
  test('each execute runs once; isBusy until wait returns', () => {
    const log = shared(Int32Array, 64 * 4);
    for (let i = 1; i <= 20; i++) jobs.execute(k.appendAfter, log, i, 2);
    expect(jobs.isBusy()).toBe(true);
    jobs.wait();
    expect(jobs.isBusy()).toBe(false);
    expect(Array.from(log.subarray(1, 21)).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  test('high-priority work is taken before low', async () => {
    const { jobs: single, k: kernels } = await startJobs({ workerCount: 1 });
    try {
      const log = shared(Int32Array, 16 * 4);
      // Keep the only worker busy, so this thread runs the rest in queue order inside wait().
      const flag = shared(Int32Array, 4);
      single.execute(kernels.spinFlagged, flag, 300);
      while (Atomics.load(flag, 0) === 0) Atomics.wait(flag, 0, 0, 1);
      single.at('low').execute(kernels.append, log, 1);
      single.at('low').execute(kernels.append, log, 2);
      single.execute(kernels.append, log, 3);
      single.at('high').execute(kernels.append, log, 4);
      single.wait();
      expect(Array.from(log.subarray(1, 5))).toEqual([3, 4, 1, 2]);
    } finally {
      await single.shutdown();
    }
  });
});

describe('bad arguments throw JobsError', () => {
  test.each([
    ['negative jobCount', () => { jobs.dispatch(-1, 1, k.compute, shared(Float32Array, 64)); }],
    ['fractional jobCount', () => { jobs.dispatch(1.5, 1, k.compute, shared(Float32Array, 64)); }],
    ['groupSize 0', () => { jobs.dispatch(10, 0, k.compute, shared(Float32Array, 64)); }],
    ['unknown kernel function', () => { jobs.execute(() => undefined); }],
    ['unknown kernel name', () => { jobs.execute('nope'); }],
    ['typed array on a plain ArrayBuffer', () => { jobs.dispatch(1, 1, k.compute, new Float32Array(16)); }],
    ['an object argument', () => { jobs.execute(k.append as never, {} as never); }],
    ['bad priority', () => { jobs.at('urgent' as never); }],
  ])('%s', (_, call) => {
    expect(call).toThrow(JobsError);
    expect(jobs.isBusy()).toBe(false);
  });

  test('initialize rejects a bad workerCount and missing kernels', async () => {
    await expect(JobSystem.initialize({ kernels: [], workerCount: 1 })).rejects.toThrow(JobsError);
    await expect(JobSystem.initialize({ kernels: ['x'], workerCount: 0 })).rejects.toThrow(JobsError);
  });
});

describe('failures', () => {
  test('a throwing job rejects wait with the original error, naming kernel and job; the pool stays usable', () => {
    jobs.dispatch(1000, 10, k.failAt, 437);
    let caught: unknown;
    try {
      jobs.wait();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(JobFailedError);
    const failure = caught as JobFailedError;
    expect(failure.kernel).toBe('failAt');
    expect(failure.jobIndex).toBe(437);
    expect(failure.groupIndex).toBe(43);
    expect(failure.message).toContain('job 437');
    expect(failure.cause).toBeInstanceOf(RangeError);
    expect((failure.cause as Error).message).toBe('job 437 refuses');
    const data = shared(Float32Array, 100 * 16 * 4);
    jobs.dispatch(100, 1, k.compute, data);
    jobs.wait();
    expect(data[99 * 16]).toBe(99);
  });

  test('waitAsync rejects the same way', async () => {
    jobs.dispatch(50, 5, k.failAt, 12);
    await expect(jobs.waitAsync()).rejects.toThrow(/Kernel "failAt" failed at job 12/);
  });

  test('a dying worker is replaced and its group reported', async () => {
    const counter = shared(Int32Array, 8);
    // The streaming queue is for workers only, so a worker (not this thread) runs job 5000.
    jobs.at('streaming').dispatch(20000, 100, k.dieAt, 5000);
    let caught: unknown;
    try {
      jobs.wait();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(WorkerDiedError);
    const died = caught as WorkerDiedError;
    expect(died.kernel).toBe('dieAt');
    expect(died.exitCode).toBe(7);
    expect(died.groupIndex).toBe(50);
    expect([died.firstJob, died.endJob]).toEqual([5000, 5100]);
    expect(died.message).toContain('group 50 (jobs 5000..5099)');
    // The same through waitAsync, where the exit event can land too.
    jobs.at('streaming').dispatch(300, 10, k.dieAt, 123);
    await expect(jobs.waitAsync()).rejects.toThrow(WorkerDiedError);
    // The replacement takes work: all three workers and this thread run a long dispatch.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const threads = shared(Int32Array, 4000 * 4);
    jobs.dispatch(4000, 1, k.trace, shared(Int32Array, 4000 * 4), threads, shared(Int32Array, 4000 * 4), counter);
    jobs.wait();
    expect(counter[1]).toBe(4000);
  });
});
