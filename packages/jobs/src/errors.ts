/** Thrown for bad arguments to a public function of @cuttle/jobs; the message says what to do. */
export class JobsError extends Error {
  override readonly name: string = 'JobsError';
}

/** A kernel threw. `cause` is the error it threw (a structured clone when it ran on a worker). */
export class JobFailedError extends Error {
  override readonly name: string = 'JobFailedError';
  constructor(
    readonly kernel: string,
    readonly jobIndex: number,
    readonly groupIndex: number,
    cause: unknown,
  ) {
    const reason = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
    super(`Kernel "${kernel}" failed at job ${jobIndex} (group ${groupIndex}): ${reason}`, { cause });
  }
}

/**
 * A worker thread died while running a group; the group did not finish and was not retried,
 * nor were the `skippedGroups` groups after it that the same worker had claimed.
 */
export class WorkerDiedError extends Error {
  override readonly name: string = 'WorkerDiedError';
  constructor(
    readonly kernel: string,
    readonly groupIndex: number,
    readonly firstJob: number,
    readonly endJob: number,
    readonly skippedGroups: number,
    readonly exitCode: number,
  ) {
    super(
      `A worker died (exit code ${exitCode}) while running group ${groupIndex} (jobs ${firstJob}..${endJob - 1}) ` +
        `of kernel "${kernel}"${skippedGroups > 0 ? `; groups ${groupIndex + 1}..${groupIndex + skippedGroups}, claimed with it, did not run` : ''}. ` +
        'The worker was replaced and the pool is usable; jobs of that group may be partly done.',
    );
  }
}
