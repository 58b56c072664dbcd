import type { TaskId } from './api.ts';

/** Thrown for bad arguments to a public function of `@cuttle/jobs`; the message says what to do. */
export class JobsError extends Error {
  /** Always `'JobsError'`. */
  override readonly name: string = 'JobsError';
}

/** A kernel threw. `cause` is the error it threw (a structured clone when it ran on a worker). */
export class JobFailedError extends Error {
  /** Always `'JobFailedError'`. */
  override readonly name: string = 'JobFailedError';
  constructor(
    /** Name of the kernel that threw. */
    readonly kernel: string,
    /** Index of the job that threw (0 for an Execute). */
    readonly jobIndex: number,
    /** Index of the group that job ran in (0 for an Execute). */
    readonly groupIndex: number,
    cause: unknown,
  ) {
    const reason = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
    super(`Kernel "${kernel}" failed at job ${jobIndex} (group ${groupIndex}): ${reason}`, { cause });
  }
}

/** How a worker's death reads in a message, from the DEATH code of layout.ts. */
function describeDeath(exitCode: number, reason: number): string {
  switch (reason) {
    case 1:
      return `exited with code ${exitCode}`;
    case 2:
      return 'ran out of memory (raise resourceLimits, or allocate less in the kernel)';
    case 3:
      return `crashed (exit code ${exitCode})`;
    default:
      return `was terminated (exit code ${exitCode})`;
  }
}

/**
 * A worker thread died (a kernel called process.exit, it was terminated, ran out of memory or
 * crashed) while running a group; the group did not finish and was not retried, nor were the
 * `skippedGroups` groups after it that the same worker had claimed, nor the `droppedTasks` tasks
 * its kernel had created and not yet submitted (they complete without running, so their parents
 * and continuations go on). With `groupIndex` -1 the worker died holding the pool's lock: the
 * pool cannot go on; shut it down.
 */
export class WorkerDiedError extends Error {
  /** Always `'WorkerDiedError'`. */
  override readonly name: string = 'WorkerDiedError';
  constructor(
    /** Name of the kernel whose group was running when the worker died. */
    readonly kernel: string,
    /** Index of the group that did not finish, or -1 when the worker died holding the pool's lock. */
    readonly groupIndex: number,
    /** First job index of the lost group. */
    readonly firstJob: number,
    /** One past the last job index of the lost group. */
    readonly endJob: number,
    /** Groups after the lost one that the same worker had claimed and that did not run. */
    readonly skippedGroups: number,
    /** The worker thread's exit code. */
    readonly exitCode: number,
    /** Why it died, as a DEATH code: 0 unknown or terminated, 1 exit, 2 out of memory, 3 crash. */
    readonly reason = 0,
    /** Tasks the kernel had created and not submitted; they completed without running. */
    readonly droppedTasks = 0,
    /** The job or task whose group was lost. */
    readonly task: TaskId | null = null,
  ) {
    super(
      groupIndex < 0
        ? `A worker ${describeDeath(exitCode, reason)} while holding the job system's lock; its queues may be half-updated. ` +
            'Shut the job system down and initialize a new one.'
        : `A worker ${describeDeath(exitCode, reason)} while running group ${groupIndex} (jobs ${firstJob}..${endJob - 1}) ` +
            `of kernel "${kernel}"${skippedGroups > 0 ? `; groups ${groupIndex + 1}..${groupIndex + skippedGroups}, claimed with it, did not run` : ''}` +
            `${droppedTasks > 0 ? `; ${droppedTasks} task(s) its kernel had created and not submitted were completed without running` : ''}. ` +
            'The worker was replaced and the pool is usable; jobs of that group may be partly done.',
    );
  }
}

/** How async kernels may be used; ends the message of a refused one. */
export const ASYNC_KERNELS = "run async kernels with execute or a task at the 'streaming' priority (jobs.at('streaming').execute, tasks.addWith({ priority: 'streaming' }, ...)): only workers take streaming work, and a worker holds the job until the promise settles.";
