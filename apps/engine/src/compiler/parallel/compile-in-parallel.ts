// The parallel compile: every resource to rebuild is a @cuttle/jobs task at the streaming
// priority (workers only; each task is async, since decoders and glTF reading are), reading the
// project from shared memory and writing its own output. Order follows the dependency checker:
// resources of a type another type embeds (units, baked into levels) form a barrier their
// embedders' tasks depend on. Outcomes come back through shared memory, in completion order, so
// progress is reported while the workers run. A worker that dies fails only the resource it
// held; an outcome too big for the shared arena is compiled again on this thread.
import { JobSystem, type TaskId } from '@cuttle/jobs';
import { CompileError } from '../../errors.ts';
import type { ResourceOutcome } from '../compile-resource.ts';
import { compileKernelUrls, type KernelUrls } from '../../workers/kernel-bundle.ts';
import { completedAt, createResults, DID_NOT_FIT, readOutcome, waitForCompletion } from './results.ts';
import { shareProject, type SharedSources } from './shared-project.ts';

export interface ParallelPlan {
  /** Paths to compile, in the order their tasks are submitted. */
  todo: readonly string[];
  /** Whether a todo entry is of a type another type embeds (the barrier's children). */
  embedded: (index: number) => boolean;
  /** Whether a todo entry embeds other types (its task waits for the barrier). */
  embeds: (index: number) => boolean;
}

export interface ParallelCompileOptions {
  workers: number;
  /** Bundled kernels and worker entry; bundled from source when not given. */
  kernels?: KernelUrls;
  out: string;
  fontDirs: readonly string[];
  /** Called on this thread as each resource completes. */
  onOutcome(index: number, outcome: ResourceOutcome, ms: number): void;
  /** Compiles one resource on this thread (an outcome that did not fit the shared arena). */
  compileHere(path: string): Promise<ResourceOutcome>;
}

const KERNEL = 'compileResourceTask';
/** Tasks the compile pool's table holds at once; compileProject submits batches of half that. */
export const COMPILE_CAPACITY = 1 << 16;
const POLL_MS = 200;

/** Starts the workers; resolve it before `compileInParallel`, early, so they load while the project is scanned. */
export async function startCompileWorkers(workers: number, kernels?: KernelUrls): Promise<JobSystem> {
  const urls = kernels ?? (await compileKernelUrls());
  return JobSystem.initialize({ kernels: [urls.kernels], workerUrl: urls.worker, workerCount: workers, capacity: COMPILE_CAPACITY });
}

export async function compileInParallel(jobs: JobSystem, sources: SharedSources, plan: ParallelPlan, options: Omit<ParallelCompileOptions, 'workers' | 'kernels'>): Promise<void> {
  const count = plan.todo.length;
  const project = shareProject(sources, plan.todo, options.out, options.fontDirs);
  const results = createResults(count, (1 << 20) + count * 2048);
  const tasks = jobs.tasks;
  const streaming = { priority: 'streaming' } as const;
  const barrier: TaskId = tasks.addEmpty(streaming);
  for (let i = 0; i < count; i++) {
    if (plan.embeds(i)) continue;
    const task = tasks.addWith(streaming, KERNEL, project.header, project.sources, results.table, results.bytes, i);
    if (plan.embedded(i)) tasks.addChild(barrier, task);
  }
  for (let i = 0; i < count; i++) {
    if (plan.embeds(i)) tasks.addWith({ ...streaming, dependency: barrier }, KERNEL, project.header, project.sources, results.table, results.bytes, i);
  }
  tasks.submit();

  const done = new Uint8Array(count);
  const tooBig: number[] = [];
  let seen = 0;
  while (seen < count) {
    const index = completedAt(results, seen);
    if (index < 0) {
      // Nothing open any more, yet not every outcome came: a worker died holding one.
      if (!jobs.isBusy()) break;
      await waitForCompletion(results, seen, POLL_MS);
      continue;
    }
    seen++;
    done[index] = 1;
    const read = readOutcome(results, count, index);
    if (read === DID_NOT_FIT) tooBig.push(index);
    else options.onOutcome(index, read.outcome, read.ms);
  }
  let failure: unknown;
  try {
    jobs.wait();
  } catch (error) {
    failure = error;
  }
  for (const index of tooBig) {
    const started = performance.now();
    options.onOutcome(index, await options.compileHere(plan.todo[index]!), performance.now() - started);
  }
  for (let index = 0; index < count; index++) {
    if (done[index]) continue;
    const why = failure instanceof Error ? failure.message : 'its worker stopped';
    options.onOutcome(index, { ok: false, error: new CompileError(plan.todo[index]!, 1, 1, `the compiler's worker stopped while compiling it (${why})`, 'Compile again; if it happens again, report it with the file') }, 0);
  }
}
