// jobs.release: the pool sends each SharedArrayBuffer to its workers once and keeps it, so a
// program that makes new buffers as it goes (a level per load) must be able to let go of them.
// Released buffers leave the pool's count, work still open keeps reading them until it is done,
// a buffer passed again is sent again, and a worker started later (a replacement) starts
// without the released ones.
import { afterEach, describe, expect, test } from 'vitest';
import { JobsError, type JobSystem } from '../src/index.ts';
import { startJobs, type Kernels } from './support/bundle.ts';
import { terminateWorker } from './support/internals.ts';

const open: JobSystem[] = [];

async function start(workerCount: number): Promise<{ jobs: JobSystem; k: Kernels }> {
  const started = await startJobs({ workerCount });
  open.push(started.jobs);
  return started;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((jobs) => jobs.shutdown()));
});

const floats = (count: number): Float32Array => new Float32Array(new SharedArrayBuffer(count * 16 * 4));

/** Every job j wrote j + i into its 16 floats. */
function computed(data: Float32Array, count: number): boolean {
  for (let j = 0; j < count; j++) for (let i = 0; i < 16; i++) if (data[j * 16 + i] !== j + i) return false;
  return true;
}

describe('jobs.release', () => {
  test('drops what the pool holds; a released buffer passed again is sent again and read right', async () => {
    const { jobs, k } = await start(3);
    const held = jobs.heldBuffers;
    const levels = Array.from({ length: 5 }, () => floats(800));
    for (const data of levels) {
      jobs.dispatch(800, 16, k.compute, data);
      jobs.wait();
      expect(computed(data, 800)).toBe(true);
    }
    expect(jobs.heldBuffers).toBe(held + 5);
    expect(jobs.release(...levels.slice(0, 4))).toBe(4); // views are taken for their buffers
    expect(jobs.heldBuffers).toBe(held + 1);
    expect(jobs.release(levels[0]!.buffer as SharedArrayBuffer, new SharedArrayBuffer(8))).toBe(0); // not held (any more)
    // The first one again, zeroed: the workers get it anew and write it.
    levels[0]!.fill(0);
    jobs.dispatch(800, 16, k.compute, levels[0]!);
    jobs.wait();
    expect(computed(levels[0]!, 800)).toBe(true);
    expect(jobs.heldBuffers).toBe(held + 2);
    // The pool goes on with new buffers.
    const next = floats(3000);
    jobs.dispatch(3000, 32, k.compute, next);
    jobs.wait();
    expect(computed(next, 3000)).toBe(true);
  });

  test('a buffer released while work on it is open stays readable until that work is done', async () => {
    const { jobs, k } = await start(2);
    const data = floats(4000);
    const flag = new Int32Array(new SharedArrayBuffer(4));
    // The workers are kept busy, so the Dispatch below is still queued when release() is called.
    jobs.at('streaming').execute(k.spinFlagged, flag, 150);
    jobs.at('streaming').execute(k.spinFlagged, flag, 150);
    jobs.dispatch(4000, 8, k.compute, data);
    expect(jobs.isBusy()).toBe(true);
    expect(jobs.release(data)).toBe(1);
    jobs.wait();
    expect(computed(data, 4000)).toBe(true);
    // Then it is gone, and the next work runs.
    const after = floats(100);
    jobs.dispatch(100, 4, k.compute, after);
    jobs.wait();
    expect(computed(after, 100)).toBe(true);
  });

  test('a replacement worker starts without the released buffers and takes work', async () => {
    const { jobs, k } = await start(1);
    const released = floats(50);
    const kept = floats(50);
    jobs.dispatch(50, 5, k.compute, released);
    jobs.dispatch(50, 5, k.compute, kept);
    jobs.wait();
    jobs.release(released);
    const flag = new Int32Array(new SharedArrayBuffer(4));
    jobs.at('streaming').execute(k.spinFlaggedLong, flag, 10_000);
    Atomics.wait(flag, 0, 0, 5000);
    terminateWorker(jobs, 0);
    expect(() => {
      jobs.wait();
    }).toThrow(/terminated/);
    await new Promise((resolve) => setTimeout(resolve, 100));
    kept.fill(0);
    jobs.at('streaming').dispatch(50, 5, k.compute, kept); // streaming: only the new worker runs it
    jobs.wait();
    expect(computed(kept, 50)).toBe(true);
  });

  test('anything but a SharedArrayBuffer or a view of one is refused; after shutdown there is nothing to release', async () => {
    const { jobs, k } = await start(1);
    expect(() => jobs.release(new Float32Array(4) as unknown as Float32Array)).toThrow(JobsError);
    expect(() => jobs.release({} as unknown as SharedArrayBuffer)).toThrow(/argument 0/);
    const data = floats(10);
    jobs.dispatch(10, 5, k.compute, data);
    jobs.wait();
    await jobs.shutdown();
    expect(jobs.release(data)).toBe(0);
  });
});
