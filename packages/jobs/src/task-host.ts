// What a TaskManager needs from the thread it runs on: the pool's own thread (Pool) or a worker
// running a kernel (WorkerTaskHost). Both write records into the same shared table.
import type { JobArgument, Priority } from './api.ts';
import type { KernelRegistry } from './kernel-registry.ts';
import type { Scheduler } from './scheduler.ts';

export interface TaskHost {
  readonly scheduler: Scheduler;
  readonly registry: KernelRegistry;
  readonly capacity: number;
  /** Throws a JobsError when the pool can take no more work. */
  assertOpen(): void;
  /** Throws a JobsError naming the first argument that cannot reach every thread from here. */
  validate(kernel: string, args: readonly unknown[]): void;
  /** Writes a record; staged (a task) or published at once. Returns its index. */
  record(priority: Priority, mode: number, jobCount: number, groupSize: number, kernel: number, args: readonly JobArgument[], stage: boolean): number;
  /** Publishes every record this thread staged. */
  submitStaged(): void;
  /** Blocks, helping, until `done()`; throws the first failure since the last wait. */
  waitUntil(done: () => boolean): void;
  waitUntilAsync(done: () => boolean): Promise<void>;
}
