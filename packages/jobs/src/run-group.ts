// Runs one claimed group on whichever thread claimed it: the post's group lambda, jobs of a
// group serially, one reused JobDispatchArgs, no allocation per job.
import type { JobArgument, JobDispatchArgs, TaskManagerLike } from './api.ts';
import type { ArgumentDecoder } from './arguments.ts';
import type { KernelRegistry } from './kernel-registry.ts';
import { MODE, R } from './layout.ts';
import type { Scheduler } from './scheduler.ts';
import { enterWorkItem, leaveWorkItem } from './task-context.ts';

type AnyKernel = (...args: unknown[]) => unknown;

export interface GroupFailure {
  kernel: string;
  jobIndex: number;
  groupIndex: number;
  error: unknown;
}

export class GroupRunner {
  private readonly job: JobDispatchArgs = { jobIndex: 0, groupIndex: 0 };
  /** What the last `run` left running: an async kernel's promise (only streaming work has one). */
  private pendingWork: PromiseLike<unknown> | null = null;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly decoder: ArgumentDecoder,
    private readonly registry: KernelRegistry,
    /** This thread's task manager, handed to kernels through taskContext(). */
    private readonly tasks: TaskManagerLike,
  ) {}

  /** Runs group `group` of `record`; returns what failed, or null. Does not finish the group. */
  run(record: number, group: number): GroupFailure | null {
    const i32 = this.scheduler.i32;
    const base = this.scheduler.base(record);
    const kernelId = i32[base + R.KERNEL]!;
    const kernel = this.registry.functions[kernelId] as AnyKernel;
    const args = this.decoder.decode(this.scheduler, record);
    const groupSize = i32[base + R.GROUP_SIZE]!;
    const first = group * groupSize;
    const end = Math.min(first + groupSize, i32[base + R.JOB_COUNT]!);
    const job = this.job;
    job.groupIndex = group;
    job.jobIndex = first;
    const previous = enterWorkItem(this.tasks, this.scheduler, record);
    this.pendingWork = null;
    try {
      if (i32[base + R.MODE] === MODE.EXECUTE) {
        const result = callExecute(kernel, args);
        if (isThenable(result)) this.pendingWork = result;
      } else {
        runJobs(kernel, job, first, end, args);
      }
    } catch (error) {
      return { kernel: this.registry.names[kernelId]!, jobIndex: job.jobIndex, groupIndex: group, error };
    } finally {
      leaveWorkItem(previous);
    }
    return null;
  }

  /** The promise an async kernel returned from the last `run`, once (null when it was synchronous). */
  takePending(): PromiseLike<unknown> | null {
    const pending = this.pendingWork;
    this.pendingWork = null;
    return pending;
  }

  /** Waits for an async kernel of `record`'s group `group`; returns what failed, or null. */
  async settle(pending: PromiseLike<unknown>, record: number, group: number): Promise<GroupFailure | null> {
    try {
      await pending;
      return null;
    } catch (error) {
      const kernelId = this.scheduler.i32[this.scheduler.base(record) + R.KERNEL]!;
      return { kernel: this.registry.names[kernelId]!, jobIndex: group, groupIndex: group, error };
    }
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

// The post's inner loop. Arguments are read once per group, and one loop per argument count
// keeps the per-job work to a counter store and a call (spreading per job would allocate).
function runJobs(kernel: AnyKernel, job: JobDispatchArgs, first: number, end: number, a: readonly JobArgument[]): void {
  const [a0, a1, a2, a3] = a;
  switch (a.length) {
    case 0:
      for (let i = first; i < end; i++) {
        job.jobIndex = i;
        kernel(job);
      }
      break;
    case 1:
      for (let i = first; i < end; i++) {
        job.jobIndex = i;
        kernel(job, a0);
      }
      break;
    case 2:
      for (let i = first; i < end; i++) {
        job.jobIndex = i;
        kernel(job, a0, a1);
      }
      break;
    case 3:
      for (let i = first; i < end; i++) {
        job.jobIndex = i;
        kernel(job, a0, a1, a2);
      }
      break;
    case 4:
      for (let i = first; i < end; i++) {
        job.jobIndex = i;
        kernel(job, a0, a1, a2, a3);
      }
      break;
    default:
      for (let i = first; i < end; i++) {
        job.jobIndex = i;
        kernel(job, ...a);
      }
  }
}

function callExecute(kernel: AnyKernel, a: readonly JobArgument[]): unknown {
  return kernel(...a);
}
