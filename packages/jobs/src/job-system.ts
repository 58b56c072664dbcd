// Wicked Engine's JobSystem interface (Initialize, Execute, Dispatch, IsBusy, Wait) over the
// shared-memory pool. Kernels stand in for the post's lambdas; what a lambda captured is
// passed after the kernel as arguments.
import type { DispatchKernel, ExecuteKernel, JobArgument, JobSystemOptions, Priority, SharedTypedArray } from './api.ts';
import { JobsError } from './errors.ts';
import { checkDispatch } from './validate.ts';
import { H, MODE } from './layout.ts';
import { Pool } from './pool.ts';
import type { TaskManager } from './task-manager.ts';

/** Execute and Dispatch at one priority (see `JobSystem.at`). */
export interface JobQueue {
  /** Runs `kernel(...args)` once on any thread, at this queue's priority. */
  execute<A extends JobArgument[]>(kernel: ExecuteKernel<A> | string, ...args: A): void;
  /** Runs `kernel` for `jobCount` jobs in groups of `groupSize` (positive integers), one group per claim, at this queue's priority. */
  dispatch<A extends JobArgument[]>(jobCount: number, groupSize: number, kernel: DispatchKernel<A> | string, ...args: A): void;
}

/** Wicked Engine's job system (Initialize, Execute, Dispatch, IsBusy, Wait) over a pool of worker threads sharing memory; make one with {@link JobSystem.initialize}. */
export class JobSystem implements JobQueue {
  /** BitSquid's task graph on the same workers and queues. */
  readonly tasks: TaskManager;
  private readonly queues = new Map<Priority, JobQueue>();

  private constructor(private readonly pool: Pool) {
    this.tasks = pool.tasks;
  }

  /**
   * Starts the workers and loads the kernel modules on every thread (this one too, so that
   * `wait` can help). Resolves when every worker is ready.
   */
  static async initialize(options: JobSystemOptions): Promise<JobSystem> {
    return new JobSystem(await Pool.create(options));
  }

  /** Worker threads in the pool (the calling thread, which helps inside `wait`, not counted). */
  get workerCount(): number {
    return this.pool.workerCount;
  }

  /** Runs `kernel(...args)` once on any thread: the post's `Execute([] { ... })`. */
  execute<A extends JobArgument[]>(kernel: ExecuteKernel<A> | string, ...args: A): void {
    this.submit('high', kernel, args, MODE.EXECUTE, 1, 1);
  }

  /**
   * Runs `kernel({ jobIndex, groupIndex }, ...args)` for jobIndex 0..jobCount-1. Jobs are cut
   * into groups of `groupSize`; a group runs serially on one thread.
   */
  dispatch<A extends JobArgument[]>(jobCount: number, groupSize: number, kernel: DispatchKernel<A> | string, ...args: A): void {
    this.submit('high', kernel, args, MODE.DISPATCH, jobCount, groupSize);
  }

  /** Execute and Dispatch at another priority: `jobs.at('low').dispatch(...)`. */
  at(priority: Priority): JobQueue {
    if (!(['high', 'low', 'streaming'] as unknown[]).includes(priority)) {
      throw new JobsError(`priority must be 'high', 'low' or 'streaming', got ${priority as string}.`);
    }
    let queue = this.queues.get(priority);
    if (!queue) {
      queue = {
        execute: (kernel, ...args) => {
          this.submit(priority, kernel, args, MODE.EXECUTE, 1, 1);
        },
        dispatch: (jobCount, groupSize, kernel, ...args) => {
          this.submit(priority, kernel, args, MODE.DISPATCH, jobCount, groupSize);
        },
      };
      this.queues.set(priority, queue);
    }
    return queue;
  }

  private submit(priority: Priority, kernel: unknown, args: readonly JobArgument[], mode: number, jobCount: number, groupSize: number): void {
    const pool = this.pool;
    pool.assertOpen();
    checkDispatch(jobCount, groupSize);
    const id = pool.registry.idOf(kernel);
    pool.registry.checkAsync(id, priority, mode);
    pool.validate(pool.registry.names[id]!, args);
    if (jobCount === 0) return;
    pool.record(priority, mode, jobCount, groupSize, id, args, false);
  }

  /**
   * Lets go of buffers that no job will be given again (those of a level that was unloaded, say):
   * the pool sends every SharedArrayBuffer to its workers once and keeps it, so without this a
   * program that makes new ones as it goes holds them all. Takes buffers or views of them; the
   * pool and its workers drop them once no work is open (at once, or at the end of the next
   * `wait`). A buffer passed again later is sent again. Returns how many the pool held (0 once
   * it is shut down).
   */
  release(...buffers: readonly (SharedArrayBuffer | SharedTypedArray)[]): number {
    const list = buffers.map((value, index) => {
      if (value instanceof SharedArrayBuffer) return value;
      if (ArrayBuffer.isView(value) && value.buffer instanceof SharedArrayBuffer) return value.buffer;
      throw new JobsError(`release: argument ${index} is neither a SharedArrayBuffer nor a typed array on one.`);
    });
    return this.pool.release(list);
  }

  /** Buffers the pool keeps for its workers: every one passed to a job and not released. */
  get heldBuffers(): number {
    return this.pool.heldBuffers;
  }

  /** Whether any job or task is still open. */
  isBusy(): boolean {
    return this.pool.isBusy();
  }

  /**
   * Blocks until every job and task is done, running ready work on this thread meanwhile.
   * Throws the first failure (JobFailedError, WorkerDiedError) since the last wait. Not on
   * a browser main thread: use `waitAsync` there.
   */
  wait(): void {
    const i32 = this.pool.scheduler.i32;
    this.pool.waitUntil(() => Atomics.load(i32, H.PENDING) === 0);
  }

  /** `wait` for threads that must not block; it still helps between sleeps. */
  waitAsync(): Promise<void> {
    const i32 = this.pool.scheduler.i32;
    return this.pool.waitUntilAsync(() => Atomics.load(i32, H.PENDING) === 0);
  }

  /**
   * Stops and joins every worker; resolves when all have exited, so the process can end.
   * Work still queued is dropped: `wait` first.
   */
  shutdown(): Promise<void> {
    return this.pool.shutdown();
  }
}
