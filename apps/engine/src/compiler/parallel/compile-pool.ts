// Compile workers kept between compiles (the --watch loop): started by the first compile large
// enough to use them, so a watch over a small project never starts any, then kept warm (their
// code is compiled by V8 once, not for every large rebuild). The owner shuts them down.
import type { JobSystem } from '@cuttle/jobs';
import { startCompileWorkers } from './compile-in-parallel.ts';
import type { KernelUrls } from '../../workers/kernel-bundle.ts';

export class CompilePool {
  #pool: Promise<JobSystem> | undefined;

  constructor(
    readonly workers: number,
    private readonly kernels?: KernelUrls,
  ) {}

  /** The workers, started on the first call. */
  get(): Promise<JobSystem> {
    this.#pool ??= startCompileWorkers(this.workers, this.kernels);
    return this.#pool;
  }

  async shutdown(): Promise<void> {
    const pool = this.#pool;
    this.#pool = undefined;
    await (await pool?.catch(() => undefined))?.shutdown();
  }
}
