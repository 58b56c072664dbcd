// Which work item this thread is running, for kernels that add tasks while they run. Kept on
// globalThis under a registered symbol: a kernel module bundled with its own copy of this
// package still finds the context the worker loop set.
import type { TaskContext, TaskId, TaskManagerLike } from './api.ts';
import { JobsError } from './errors.ts';
import { R } from './layout.ts';
import type { Scheduler } from './scheduler.ts';

interface Running {
  tasks: TaskManagerLike;
  scheduler: Scheduler;
  record: number;
}

const KEY = Symbol.for('@cuttle/jobs:running');
type Holder = Record<typeof KEY, Running | null | undefined>;

/** Marks `record` as running on this thread; returns what ran before (for nested runs). */
export function enterWorkItem(tasks: TaskManagerLike, scheduler: Scheduler, record: number): Running | null {
  const holder = globalThis as unknown as Holder;
  const previous = holder[KEY] ?? null;
  holder[KEY] = { tasks, scheduler, record };
  return previous;
}

export function leaveWorkItem(previous: Running | null): void {
  (globalThis as unknown as Holder)[KEY] = previous;
}

function taskId(scheduler: Scheduler, record: number): TaskId {
  return { index: record, serial: scheduler.i32[scheduler.base(record) + R.SERIAL]! };
}

/**
 * The running work item and this thread's task manager, for a kernel that adds children or
 * continuations while it runs (BitSquid's tasks do). Call it from inside a kernel; elsewhere it
 * throws a JobsError.
 *
 * ```ts
 * export function animate(bones: Float32Array, count: number): void {
 *   const { tasks, task } = taskContext();
 *   for (let i = 0; i < count; i += 256) tasks.addWith({ parent: task }, blend, bones, i);
 *   tasks.addWith({ dependency: task }, writeBack, bones); // runs after animate and its children
 * }
 * ```
 */
export function taskContext(): TaskContext {
  const running = (globalThis as unknown as Holder)[KEY];
  if (!running) {
    throw new JobsError('taskContext() is for kernels: call it from inside a job or task while it runs.');
  }
  const { scheduler, record } = running;
  const parent = scheduler.i32[scheduler.base(record) + R.PARENT]!;
  return { tasks: running.tasks, task: taskId(scheduler, record), parent: parent >= 0 ? taskId(scheduler, parent) : null };
}
