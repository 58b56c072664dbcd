export { JobSystem, type JobQueue } from './job-system.ts';
export { TaskManager } from './task-manager.ts';
export { startJobWorker } from './worker-main.ts';
export { taskContext } from './task-context.ts';
export { JobsError, JobFailedError, WorkerDiedError } from './errors.ts';
export type {
  DispatchKernel,
  ExecuteKernel,
  JobArgument,
  JobDispatchArgs,
  JobSystemOptions,
  KernelModule,
  Priority,
  SharedTypedArray,
  TaskId,
  TaskContext,
  TaskManagerLike,
  TaskOptions,
  WorkerResourceLimits,
} from './api.ts';
