// BitSquid's task manager: tasks with a work item, a parent, one dependency and a priority,
// created in immediate mode, on the pool's thread or by a kernel on any thread. New tasks stay
// staged until `submit` (or a wait, or the end of the kernel that made them), so that the
// dependencies and children of a freshly built graph are wired before anything starts.
import type { DispatchKernel, ExecuteKernel, JobArgument, Priority, TaskId, TaskManagerLike, TaskOptions } from './api.ts';
import { JobsError } from './errors.ts';
import { checkDispatch } from './validate.ts';
import { MODE, R, STATE } from './layout.ts';
import type { TaskHost } from './task-host.ts';

const PRIORITIES: readonly Priority[] = ['high', 'low', 'streaming'];

/** BitSquid's task manager: tasks with a work item, a parent, one dependency and a priority, staged until `submit()` (or a wait, or the end of the kernel that made them). Reach it as `JobSystem.tasks`, or `taskContext().tasks` inside a kernel. */
export class TaskManager implements TaskManagerLike {
  constructor(private readonly pool: TaskHost) {}

  /** A task whose work item is `kernel(...args)`. */
  add<A extends JobArgument[]>(kernel: ExecuteKernel<A> | string, ...args: A): TaskId {
    return this.create({}, kernel, args, MODE.EXECUTE, 1, 1);
  }

  /** `add` with BitSquid's other fields set at creation. */
  addWith<A extends JobArgument[]>(options: TaskOptions, kernel: ExecuteKernel<A> | string, ...args: A): TaskId {
    return this.create(options, kernel, args, MODE.EXECUTE, 1, 1);
  }

  /** A task whose work item is a Dispatch; it completes when every group has run. */
  addDispatch<A extends JobArgument[]>(jobCount: number, groupSize: number, kernel: DispatchKernel<A> | string, ...args: A): TaskId {
    return this.create({}, kernel, args, MODE.DISPATCH, jobCount, groupSize);
  }

  /** `addDispatch` with BitSquid's other fields (priority, dependency, parent) set at creation. */
  addDispatchWith<A extends JobArgument[]>(
    options: TaskOptions,
    jobCount: number,
    groupSize: number,
    kernel: DispatchKernel<A> | string,
    ...args: A
  ): TaskId {
    return this.create(options, kernel, args, MODE.DISPATCH, jobCount, groupSize);
  }

  /** A task without work: a join point that completes when its children have. */
  addEmpty(options: TaskOptions = {}): TaskId {
    return this.create(options, null, [], MODE.EXECUTE, 0, 1);
  }

  private create(options: TaskOptions, kernel: unknown, args: readonly JobArgument[], mode: number, jobCount: number, groupSize: number): TaskId {
    const pool = this.pool;
    pool.assertOpen();
    checkDispatch(jobCount, groupSize);
    const priority = options.priority ?? 'high';
    if (!PRIORITIES.includes(priority)) throw new JobsError(`priority must be 'high', 'low' or 'streaming', got ${priority as string}.`);
    let id = -1;
    if (kernel !== null) {
      id = pool.registry.idOf(kernel);
      pool.registry.checkAsync(id, priority, mode);
      pool.validate(pool.registry.names[id]!, args);
    }
    if (options.dependency) this.checkTask(options.dependency, 'dependency');
    if (options.parent) this.checkOpen(options.parent, 'parent');
    const record = pool.record(priority, mode, jobCount, groupSize, jobCount === 0 ? -1 : id, args, true);
    const task: TaskId = { index: record, serial: pool.scheduler.i32[pool.scheduler.base(record) + R.SERIAL]! };
    if (options.dependency) this.dependsOn(task, options.dependency);
    if (options.parent) this.addChild(options.parent, task);
    return task;
  }

  /** `task` starts only after `dependency` completes. One dependency per task, as in BitSquid. */
  dependsOn(task: TaskId, dependency: TaskId): void {
    this.checkTask(dependency, 'dependency');
    const scheduler = this.pool.scheduler;
    this.checkStaged(task, 'dependsOn');
    const base = scheduler.base(task.index);
    if (scheduler.i32[base + R.DEPENDENCY]! >= 0) {
      throw new JobsError('A task has one dependency: make an empty task with the others as children and depend on it.');
    }
    if (dependency.index === task.index) throw new JobsError('A task cannot depend on itself.');
    scheduler.lock();
    scheduler.linkDependency(task.index, dependency.index, dependency.serial);
    scheduler.unlock();
  }

  /** `parent` completes only after `child` does. A child has one parent. */
  addChild(parent: TaskId, child: TaskId): void {
    this.checkOpen(parent, 'parent');
    this.checkTask(child, 'child');
    if (parent.index === child.index) throw new JobsError('A task cannot be its own child.');
    const scheduler = this.pool.scheduler;
    scheduler.lock();
    const open = scheduler.isOpen(child.index, child.serial);
    const hasParent = open && scheduler.i32[scheduler.base(child.index) + R.PARENT]! >= 0;
    if (open && !hasParent) scheduler.linkChild(parent.index, child.index, child.serial);
    scheduler.unlock();
    if (hasParent) throw new JobsError('That child already has a parent: a task has one parent.');
  }

  /**
   * Lets every task this thread created since the last submit start (waits submit too, and so
   * does the end of the kernel that created them).
   */
  submit(): void {
    this.pool.assertOpen();
    this.pool.submitStaged();
  }

  /** Whether `task` has completed (its work and all its children). */
  isDone(task: TaskId): boolean {
    this.checkTask(task, 'task');
    return !this.pool.scheduler.isOpen(task.index, task.serial);
  }

  /**
   * Blocks until `task` completes, running ready work on this thread meanwhile (BitSquid's wait).
   * Not inside a kernel on a worker: add a continuation (a task that depends on it) instead.
   */
  wait(task: TaskId): void {
    this.checkTask(task, 'task');
    const scheduler = this.pool.scheduler;
    this.pool.waitUntil(() => !scheduler.isOpen(task.index, task.serial));
  }

  /** `wait` for threads that must not block. */
  waitAsync(task: TaskId): Promise<void> {
    this.checkTask(task, 'task');
    const scheduler = this.pool.scheduler;
    return this.pool.waitUntilAsync(() => !scheduler.isOpen(task.index, task.serial));
  }

  private checkTask(task: TaskId, role: string): void {
    if (
      typeof task !== 'object' ||
      !Number.isInteger(task.index) ||
      task.index < 0 ||
      task.index >= this.pool.capacity ||
      !Number.isInteger(task.serial)
    ) {
      throw new JobsError(`${role} must be a TaskId returned by this task manager.`);
    }
  }

  private checkOpen(task: TaskId, role: string): void {
    this.checkTask(task, role);
    if (!this.pool.scheduler.isOpen(task.index, task.serial)) {
      throw new JobsError(`The ${role} task has already completed: children must be added to a task that is still open.`);
    }
  }

  private checkStaged(task: TaskId, what: string): void {
    this.checkTask(task, 'task');
    const scheduler = this.pool.scheduler;
    const base = scheduler.base(task.index);
    if (!scheduler.isOpen(task.index, task.serial) || scheduler.i32[base + R.STATE] !== STATE.STAGED) {
      throw new JobsError(`${what} needs a task that is not submitted yet: wire tasks before submit() or wait().`);
    }
    if (scheduler.i32[base + R.OWNER] !== scheduler.owner) {
      throw new JobsError(`${what} needs a task this thread created: another thread is still wiring that one.`);
    }
  }
}
