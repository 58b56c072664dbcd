// The last step of creating work, shared by the pool's thread and a worker's task host: fill an
// allocated record, then publish it (Execute/Dispatch) or stage it (tasks, published together
// once their links are wired). Called with the scheduler's lock held; releases it.
import type { JobArgument, Priority } from './api.ts';
import type { ArgumentEncoder } from './arguments.ts';
import { PRIORITY_INDEX, R } from './layout.ts';
import type { Scheduler } from './scheduler.ts';

/** Positional on purpose: this runs once per record on the hot path, so no options object. */
export function fillAndPublishLocked(
  scheduler: Scheduler,
  encoder: ArgumentEncoder,
  staged: number[],
  record: number,
  priority: Priority,
  mode: number,
  jobCount: number,
  groupSize: number,
  kernel: number,
  args: readonly JobArgument[],
  stage: boolean,
): void {
  const i32 = scheduler.i32;
  const base = scheduler.base(record);
  i32[base + R.KERNEL] = kernel;
  i32[base + R.MODE] = mode;
  i32[base + R.JOB_COUNT] = jobCount;
  i32[base + R.GROUP_SIZE] = groupSize;
  // A negative kernel is a record with no work of its own (a task group): no groups to run.
  i32[base + R.GROUP_COUNT] = kernel < 0 ? 0 : Math.ceil(jobCount / groupSize);
  i32[base + R.PRIORITY] = PRIORITY_INDEX[priority];
  if (kernel >= 0) encoder.encode(scheduler, record, args);
  if (stage) staged.push(record);
  else scheduler.submit(record);
  scheduler.unlock();
  scheduler.flush();
}
