// Reaches into a pool the way an outside event would: a watchdog terminating a worker, or a
// worker dying at an awkward moment. Tests only.
import type { JobSystem } from '../../src/index.ts';

export interface PoolInternals {
  workers: { handle: { terminate(): void } }[];
  scheduler: { i32: Int32Array; slotBase(slot: number): number };
}

export function poolOf(jobs: JobSystem): PoolInternals {
  return (jobs as unknown as { pool: PoolInternals }).pool;
}

/** worker.terminate() on the worker in `slot`, as a watchdog would kill a stuck thread. */
export function terminateWorker(jobs: JobSystem, slot: number): void {
  poolOf(jobs).workers[slot]!.handle.terminate();
}
