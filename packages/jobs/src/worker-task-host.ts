// A worker's side of the task graph: a kernel running on a worker creates tasks (children of the
// running task, continuations that depend on it) straight into the shared record table, staged
// until it calls submit() or returns, as on the pool's thread.
import type { JobArgument, Priority } from './api.ts';
import { ArgumentEncoder, type ArgumentDecoder } from './arguments.ts';
import { JobsError } from './errors.ts';
import type { KernelRegistry } from './kernel-registry.ts';
import { H } from './layout.ts';
import { fillAndPublishLocked } from './publish-record.ts';
import type { Scheduler } from './scheduler.ts';
import type { TaskHost } from './task-host.ts';

/** How long a worker waits for a free record before it gives up on a full table. */
const FULL_TABLE_MS = 2000;

export class WorkerTaskHost implements TaskHost {
  readonly capacity: number;
  private readonly encoder: ArgumentEncoder;
  private readonly staged: number[] = [];

  constructor(
    readonly scheduler: Scheduler,
    readonly registry: KernelRegistry,
    decoder: ArgumentDecoder,
  ) {
    this.capacity = scheduler.capacity;
    this.encoder = new ArgumentEncoder(decoder);
  }

  assertOpen(): void {
    if (Atomics.load(this.scheduler.i32, H.SHUTDOWN) !== 0) throw new JobsError('The job system is shutting down: no new tasks.');
  }

  validate(kernel: string, args: readonly unknown[]): void {
    this.encoder.validate(kernel, args);
  }

  record(priority: Priority, mode: number, jobCount: number, groupSize: number, kernel: number, args: readonly JobArgument[], stage: boolean): number {
    const record = this.allocateLocked();
    fillAndPublishLocked(this.scheduler, this.encoder, this.staged, record, priority, mode, jobCount, groupSize, kernel, args, stage);
    return record;
  }

  /**
   * Takes a free record with the lock held. A worker does not run other work from inside a
   * kernel: on a full table it publishes what it staged and waits for records to free.
   */
  private allocateLocked(): number {
    const scheduler = this.scheduler;
    const i32 = scheduler.i32;
    const deadline = performance.now() + FULL_TABLE_MS;
    for (;;) {
      scheduler.lock();
      const record = scheduler.allocate();
      if (record >= 0) return record;
      scheduler.unlock();
      this.submitStaged();
      if (performance.now() > deadline) {
        throw new JobsError(
          `The job system's ${this.capacity} records stayed in use for ${FULL_TABLE_MS} ms while a kernel added tasks: ` +
            'raise capacity in JobSystem.initialize.',
        );
      }
      Atomics.wait(i32, H.EVENT_SEQ, Atomics.load(i32, H.EVENT_SEQ), 1);
    }
  }

  submitStaged(): void {
    if (this.staged.length === 0) return;
    const scheduler = this.scheduler;
    scheduler.lock();
    for (const record of this.staged) scheduler.submit(record);
    scheduler.unlock();
    this.staged.length = 0;
    scheduler.flush();
  }

  waitUntil(): void {
    throw new JobsError(
      'A kernel on a worker cannot wait for tasks: add a continuation instead (tasks.addWith({ dependency: task }, ...)), ' +
        'which runs once the task and its children are done.',
    );
  }

  waitUntilAsync(): Promise<void> {
    return Promise.reject(new JobsError('A kernel on a worker cannot wait for tasks: add a continuation instead.'));
  }
}
