// A worker that dies while the main thread is blocked in wait() must not hang it: the pool's
// supervisor thread hears the exit and writes it into shared memory, where wait() looks, and
// wait() throws WorkerDiedError naming the lost jobs. Killed here the ways a real worker dies:
// worker.terminate() (a watchdog), a heap limit, and at the worst moment, holding the lock.
import { afterEach, describe, expect, test } from 'vitest';
import type { JobSystem} from '../src/index.ts';
import { WorkerDiedError, type JobSystemOptions } from '../src/index.ts';
import { startJobs, type Kernels } from './support/bundle.ts';
import { poolOf, terminateWorker } from './support/internals.ts';

const open: JobSystem[] = [];

async function start(options: Partial<JobSystemOptions> = {}): Promise<{ jobs: JobSystem; k: Kernels }> {
  const { jobs, k } = await startJobs({ workerCount: 1, ...options });
  open.push(jobs);
  return { jobs, k };
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((jobs) => jobs.shutdown()));
});

function ints(count: number): Int32Array {
  return new Int32Array(new SharedArrayBuffer(count * 4));
}

/** Runs wait() (blocking this thread), returns what it threw and how long it took. */
function blockedWait(wait: () => void): { error: unknown; ms: number } {
  const started = performance.now();
  try {
    wait();
  } catch (error) {
    return { error, ms: performance.now() - started };
  }
  return { error: null, ms: performance.now() - started };
}

describe('a worker killed while wait() blocks', () => {
  test('terminate() mid-job: wait() throws WorkerDiedError naming the job at once, and the pool goes on', async () => {
    const { jobs, k } = await start();
    const flag = ints(1);
    // Streaming work is for workers only: the single worker runs it, this thread never does.
    jobs.at('streaming').execute(k.spinFlaggedLong, flag, 10_000);
    Atomics.wait(flag, 0, 0, 5000);
    expect(flag[0]).toBe(1);
    terminateWorker(jobs, 0); // asynchronous: the kill lands while wait() below is blocked
    const { error, ms } = blockedWait(() => {
      jobs.wait();
    });
    expect(error).toBeInstanceOf(WorkerDiedError);
    const died = error as WorkerDiedError;
    expect(died.kernel).toBe('spinFlaggedLong');
    expect([died.groupIndex, died.firstJob, died.endJob]).toEqual([0, 0, 1]);
    expect(died.message).toMatch(/was terminated/);
    expect(ms).toBeLessThan(2000); // not the 10 s the job would have taken, and not forever
    // A replacement worker takes work again.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const data = new Float32Array(new SharedArrayBuffer(1000 * 16 * 4));
    jobs.at('streaming').dispatch(1000, 10, k.compute, data);
    jobs.wait();
    expect(data[999 * 16]).toBe(999);
  });

  test('out of memory under resourceLimits: the Dispatch group is named, with the reason', async () => {
    const { jobs, k } = await start({ resourceLimits: { maxOldGenerationSizeMb: 24 } });
    const flag = ints(1);
    jobs.at('streaming').dispatch(5000, 100, k.exhaustMemoryAt, 1234, flag);
    const { error } = blockedWait(() => {
      jobs.wait();
    });
    expect(flag[0]).toBe(1);
    expect(error).toBeInstanceOf(WorkerDiedError);
    const died = error as WorkerDiedError;
    expect(died.kernel).toBe('exhaustMemoryAt');
    expect(died.groupIndex).toBe(12);
    expect([died.firstJob, died.endJob]).toEqual([1200, 1300]);
    expect(died.reason).toBe(2);
    expect(died.message).toMatch(/ran out of memory/);
    expect(jobs.isBusy()).toBe(false);
  });

  test('tasks the dying kernel had staged complete without running; its parent task is released', async () => {
    const { jobs, k } = await start();
    const log = ints(16);
    const flag = ints(1);
    const root = jobs.tasks.addWith({ priority: 'streaming' }, k.stageThenSpin, log, flag, 10_000);
    jobs.tasks.submit();
    Atomics.wait(flag, 0, 0, 5000);
    terminateWorker(jobs, 0);
    const { error, ms } = blockedWait(() => {
      jobs.tasks.wait(root);
    });
    expect(error).toBeInstanceOf(WorkerDiedError);
    expect((error as WorkerDiedError).droppedTasks).toBe(3);
    expect((error as WorkerDiedError).task).toEqual(root);
    expect(ms).toBeLessThan(2000);
    expect(jobs.tasks.isDone(root)).toBe(true);
    expect(log[0]).toBe(0); // the three children never ran
    expect(jobs.isBusy()).toBe(false);
  });

  test('a worker that died holding the lock: wait() throws instead of waiting for it forever', async () => {
    const { jobs, k } = await start();
    const pool = poolOf(jobs);
    const i32 = pool.scheduler.i32;
    const at = pool.scheduler.slotBase(0);
    const flag = ints(1);
    jobs.at('streaming').execute(k.spinFlaggedLong, flag, 300);
    Atomics.wait(flag, 0, 0, 5000);
    // Stage the worst moment by hand: the lock taken by worker slot 0 (LOCK 2, LOCK_OWNER 1),
    // and that worker reported dead (DEAD = its serial), while work waits that this thread wants.
    jobs.execute(k.empty);
    Atomics.store(i32, 0, 2);
    Atomics.store(i32, 17, 1);
    Atomics.store(i32, at + 4, Atomics.load(i32, at + 6));
    const { error, ms } = blockedWait(() => {
      jobs.wait();
    });
    expect(error).toBeInstanceOf(WorkerDiedError);
    expect((error as Error).message).toMatch(/holding the job system's lock/);
    expect(ms).toBeLessThan(2000);
    // From then on the pool refuses work rather than trusting half-updated queues.
    expect(() => {
      jobs.execute(k.empty);
    }).toThrow(WorkerDiedError);
    // Let the worker (alive all along) have the lock back, so shutdown joins it.
    Atomics.store(i32, 17, 0);
    Atomics.store(i32, 0, 0);
    Atomics.notify(i32, 0);
  });
});
