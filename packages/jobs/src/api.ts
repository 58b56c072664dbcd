/**
 * What a dispatched job receives, as in the post's `JobDispatchArgs`: which job of the
 * Dispatch this is, and which group it runs in. One object per thread is reused for every
 * job, so read it, do not keep it.
 */
export interface JobDispatchArgs {
  /** Index of this job within the Dispatch, in [0, jobCount). */
  jobIndex: number;
  /** Index of the group this job runs in, in [0, ceil(jobCount / groupSize)); `jobIndex` is in `[groupIndex * groupSize, (groupIndex + 1) * groupSize)`. */
  groupIndex: number;
}

/** Typed arrays a job may receive: each must view a SharedArrayBuffer. */
export type SharedTypedArray =
  | Int8Array
  | Uint8Array
  | Uint8ClampedArray
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array
  | BigInt64Array
  | BigUint64Array;

/**
 * One argument of a job. Workers cannot share closures, so what a C++ lambda would capture
 * travels as arguments: numbers by value, typed arrays and SharedArrayBuffers by reference
 * (the same memory on every thread).
 */
export type JobArgument = number | SharedTypedArray | SharedArrayBuffer;

/** A kernel run by `execute` or as a task's work item: the post's `[] { ... }`. */
export type ExecuteKernel<A extends JobArgument[]> = (...args: A) => void | Promise<void>;

/** A kernel run by `dispatch`: the post's `[](JobDispatchArgs args) { ... }`. */
export type DispatchKernel<A extends JobArgument[]> = (job: JobDispatchArgs, ...args: A) => void;

/**
 * A module of kernels: every exported function is a kernel, known by its export name.
 * Workers load the same modules, so a kernel runs the same code wherever it lands.
 */
export type KernelModule = Readonly<Record<string, unknown>>;

/**
 * Where work is queued, as in current Wicked Engine. `high` runs first; `low` runs when no
 * high work is waiting; `streaming` (long background work such as asset loading) runs only
 * on workers, last, so a main thread that helps inside `wait` never picks up a long stream.
 */
export type Priority = 'high' | 'low' | 'streaming';

/** How a pool starts its workers. */
export interface JobSystemOptions {
  /**
   * The kernel modules. Node with the default worker: module URLs (plain JavaScript, e.g.
   * `new URL('./kernels.js', import.meta.url)`), imported by every worker and by this thread.
   * With `createWorker`: the imported module objects, in the order the worker script passes
   * them to `startJobWorker`.
   */
  kernels: readonly (string | URL | KernelModule)[];
  /** Worker threads to start; default: available cores minus this (main) thread, at least 1. */
  workerCount?: number;
  /** Node only: the worker entry module; default: this package's `worker.js`. */
  workerUrl?: string | URL;
  /**
   * Starts one worker (browsers, bundlers): e.g.
   * `() => new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' })`, where
   * the worker script calls `startJobWorker([kernels])`.
   */
  createWorker?: (index: number) => Worker;
  /** Jobs and tasks that may be open at once (records in shared memory); default 4096. */
  capacity?: number;
  /**
   * How long an idle worker keeps polling for work before it sleeps, in microseconds; default 15.
   * A longer spin lets a job that arrives soon after the last one start without a futex wake-up;
   * it costs a core kept busy that long after every burst of work, and where cores are scarce
   * the spinning thread delays the ones it waits for. 0 sleeps at once.
   */
  spinMicroseconds?: number;
  /**
   * How long `wait()` polls for completion before it sleeps, in microseconds; default 0. Same
   * trade as `spinMicroseconds`, on the waiting thread.
   */
  waitSpinMicroseconds?: number;
  /** Node only: heap limits for each worker (as worker_threads' `resourceLimits`). */
  resourceLimits?: WorkerResourceLimits;
}

/** Node's worker `resourceLimits`: a worker that exceeds them dies and is reported. */
export interface WorkerResourceLimits {
  /** Largest main (old generation) heap of a worker, in MB. */
  maxOldGenerationSizeMb?: number;
  /** Largest heap space for recently made objects of a worker, in MB. */
  maxYoungGenerationSizeMb?: number;
  /** Size of the memory range a worker's generated code lives in, in MB. */
  codeRangeSizeMb?: number;
  /** Largest stack of a worker's thread, in MB. */
  stackSizeMb?: number;
}

/** A task of the task graph: an index into shared memory plus its generation. */
export interface TaskId {
  /** Slot of the task in the pool's shared task table. */
  readonly index: number;
  /** Generation of that slot when the task was made, so a stale id of a reused slot is refused. */
  readonly serial: number;
}

/** The fields BitSquid's task struct sets at creation. */
export interface TaskOptions {
  /** Queue the task's work runs from (default `'high'`). */
  priority?: Priority;
  /** The task whose completion this one waits for (one, as in BitSquid). */
  dependency?: TaskId;
  /** The task that completes only after this one does. */
  parent?: TaskId;
}

/**
 * What a kernel can reach while it runs as a task's (or a job's) work item: `taskContext()`
 * returns it. BitSquid's tasks add children and continuations while they run.
 */
export interface TaskContext {
  /** This thread's task manager: tasks added here are staged until `submit()` or the kernel returns. */
  readonly tasks: TaskManagerLike;
  /** The running work item: add children to it, or continuations that depend on it. */
  readonly task: TaskId;
  /** The running task's parent, or null. */
  readonly parent: TaskId | null;
}

/** The task manager's surface, as `taskContext().tasks` gives it on any thread. */
export interface TaskManagerLike {
  /** A task whose work item is `kernel(...args)`; staged until `submit()`. */
  add<A extends JobArgument[]>(kernel: ExecuteKernel<A> | string, ...args: A): TaskId;
  /** `add` with a priority, dependency or parent set at creation. */
  addWith<A extends JobArgument[]>(options: TaskOptions, kernel: ExecuteKernel<A> | string, ...args: A): TaskId;
  /** A task whose work item is a Dispatch of `jobCount` jobs in groups of `groupSize`; it completes when every group has run. */
  addDispatch<A extends JobArgument[]>(jobCount: number, groupSize: number, kernel: DispatchKernel<A> | string, ...args: A): TaskId;
  /** `addDispatch` with a priority, dependency or parent set at creation. */
  addDispatchWith<A extends JobArgument[]>(
    options: TaskOptions,
    jobCount: number,
    groupSize: number,
    kernel: DispatchKernel<A> | string,
    ...args: A
  ): TaskId;
  /** A task without work: a join point that completes when its children have. */
  addEmpty(options?: TaskOptions): TaskId;
  /** `task` starts only after `dependency` completes; one dependency per task. Throws a `JobsError` for a second dependency, a task that depends on itself, or a task already submitted. */
  dependsOn(task: TaskId, dependency: TaskId): void;
  /** `parent` completes only after `child` does; a child has one parent. Throws a `JobsError` for a second parent or a parent that has completed. */
  addChild(parent: TaskId, child: TaskId): void;
  /** Lets every task this thread created since the last submit start (a wait, and the end of the kernel that created them, submit too). */
  submit(): void;
  /** Whether `task` has completed (its work and all its children). */
  isDone(task: TaskId): boolean;
}
