// Kernels are known by id on every thread: the exported functions of the kernel modules, in
// module order and then export-name order, so a worker and the main thread number them alike.
import type { KernelModule, Priority } from './api.ts';
import { ASYNC_KERNELS, JobsError } from './errors.ts';
import { MODE } from './layout.ts';

export type KernelFunction = (...args: never[]) => unknown;

export class KernelRegistry {
  readonly names: string[] = [];
  readonly functions: KernelFunction[] = [];
  private readonly byFunction = new Map<unknown, number>();
  private readonly byName = new Map<string, number>();

  constructor(modules: readonly KernelModule[]) {
    for (const module of modules) {
      for (const name of Object.keys(module).sort()) {
        const value = module[name];
        if (typeof value !== 'function') continue;
        const id = this.functions.length;
        this.functions.push(value as KernelFunction);
        this.names.push(name);
        if (!this.byFunction.has(value)) this.byFunction.set(value, id);
        // -1 marks a name two modules export: such kernels must be passed as functions.
        this.byName.set(name, this.byName.has(name) ? -1 : id);
      }
    }
  }

  /** The id of a kernel given as a function or an export name; throws a JobsError if unknown. */
  idOf(kernel: unknown): number {
    if (typeof kernel === 'string') {
      const id = this.byName.get(kernel);
      if (id === undefined) {
        throw new JobsError(`Unknown kernel "${kernel}": export it from one of the kernel modules given to JobSystem.initialize.`);
      }
      if (id < 0) throw new JobsError(`Kernel name "${kernel}" is exported by several modules: pass the function instead.`);
      return id;
    }
    const id = this.byFunction.get(kernel);
    if (id === undefined) {
      const name = typeof kernel === 'function' ? kernel.name || '(anonymous)' : typeof kernel;
      throw new JobsError(
        `Unknown kernel ${name}: a job must be a function exported by a kernel module given to JobSystem.initialize ` +
          '(import it from that same module; closures cannot cross threads).',
      );
    }
    return id;
  }

  /** Async kernels run only as streaming work: workers await them, a waiting thread cannot. */
  checkAsync(id: number, priority: Priority, mode: number): void {
    if (this.functions[id]?.constructor.name !== 'AsyncFunction') return;
    if (priority !== 'streaming' || mode !== MODE.EXECUTE) throw new JobsError(`${this.names[id]} is an async function: ${ASYNC_KERNELS}`);
  }
}
