// The few places where Node's worker_threads and the browser's Web Workers differ. Node
// modules are imported by a computed name so that bundlers for the browser leave them alone.
import type * as Os from 'node:os';
import type * as WorkerThreads from 'node:worker_threads';
import { DEATH } from './layout.ts';

export const isNode = typeof process !== 'undefined' && typeof process.versions === 'object' && typeof process.versions.node === 'string';

type NodeWorkerThreads = typeof WorkerThreads;
type NodeOs = typeof Os;

let workerThreads: NodeWorkerThreads | undefined;

async function importNode<T>(name: string): Promise<T> {
  return (await import(/* @vite-ignore */ name)) as T;
}

export async function nodeWorkerThreads(): Promise<NodeWorkerThreads> {
  workerThreads ??= await importNode<NodeWorkerThreads>('node:worker_threads');
  return workerThreads;
}

/** Cores minus the calling (main) thread, at least 1: BitSquid's worker_thread_count. */
export async function defaultWorkerCount(): Promise<number> {
  let cores = 2;
  if (isNode) {
    const os = await importNode<NodeOs>('node:os');
    cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  } else if (typeof navigator !== 'undefined' && navigator.hardwareConcurrency > 0) {
    cores = navigator.hardwareConcurrency;
  }
  return Math.max(1, cores - 1);
}

/** Whether this thread may Atomics.wait; a browser's main thread may not. */
export function threadCanBlock(): boolean {
  try {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 1, 0);
    return true;
  } catch {
    return false;
  }
}

/** One worker as the pool sees it, whichever platform runs it. */
export interface WorkerHandle {
  post(message: unknown, transfer?: Transferable[]): void;
  /** Node: takes one queued message synchronously (a blocked main thread gets no events). */
  receiveSync: (() => unknown) | null;
  /** Resolves when the worker has exited (joined). */
  join(): Promise<void>;
  terminate(): void;
}

export interface WorkerEvents {
  onMessage(message: unknown): void;
  /** The worker ended: its exit code, why (a DEATH value) and the error it died of, if any. */
  onExit(code: number, reason: number, error: string | null): void;
}

export function wrapWebWorker(worker: Worker, events: WorkerEvents): WorkerHandle {
  let done = false;
  worker.onmessage = (event: MessageEvent) => {
    events.onMessage(event.data);
  };
  worker.onerror = (event: ErrorEvent) => {
    event.preventDefault();
    if (done) return;
    done = true;
    worker.terminate();
    events.onExit(1, DEATH.ERROR, event.message || null);
  };
  return {
    post(message, transfer) {
      worker.postMessage(message, transfer ?? []);
    },
    receiveSync: null,
    join() {
      done = true;
      worker.terminate();
      return Promise.resolve();
    },
    terminate() {
      done = true;
      worker.terminate();
    },
  };
}
