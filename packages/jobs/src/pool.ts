// The main thread's side of the job system: starts workers, writes records, helps while
// waiting, collects failures, replaces dead workers, and joins everything on shutdown.
// JobSystem and TaskManager are thin public faces over one Pool.
import type { JobArgument, JobSystemOptions, KernelModule, Priority } from './api.ts';
import { ArgumentDecoder, ArgumentEncoder } from './arguments.ts';
import { JobFailedError, JobsError, WorkerDiedError } from './errors.ts';
import { KernelRegistry } from './kernel-registry.ts';
import { H, MAX_WORKERS, PRIORITY_INDEX, R, SLOT, controlLayout } from './layout.ts';
import { defaultWorkerCount, isNode, nodeWorkerThreads, spawnNodeWorker, threadCanBlock, wrapWebWorker, type WorkerHandle } from './platform.ts';
import type { FromWorker, InitMessage } from './protocol.ts';
import { GroupRunner } from './run-group.ts';
import { Scheduler } from './scheduler.ts';

const DEFAULT_CAPACITY = 4096;
/** A blocked wait re-checks for dead workers this often even if nothing signals. */
const WAIT_SLICE_MS = 250;

interface WorkerState {
  handle: WorkerHandle;
  /** Set once its death was handled, so the shared-memory flag and the exit event count once. */
  gone: boolean;
}

interface Setup {
  kernelUrls: string[] | null;
  createWorker: ((index: number) => Worker) | null;
  workerUrl: string | URL | null;
}

export class Pool {
  readonly scheduler: Scheduler;
  readonly registry: KernelRegistry;
  readonly encoder: ArgumentEncoder;
  private readonly decoder: ArgumentDecoder;
  private readonly runner: GroupRunner;
  private readonly workers: WorkerState[] = [];
  private readonly failures: Error[] = [];
  private readonly ready = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  private errorsReceived = 0;
  private closed = false;
  /** Task records created since the last submit (BitSquid's tasks being wired up). */
  readonly staged: number[] = [];

  private constructor(
    readonly workerCount: number,
    readonly capacity: number,
    modules: readonly KernelModule[],
    private readonly setup: Setup,
  ) {
    const layout = controlLayout(workerCount, capacity);
    this.scheduler = new Scheduler(new SharedArrayBuffer(layout.bytes), workerCount, capacity, threadCanBlock());
    this.scheduler.format();
    this.registry = new KernelRegistry(modules);
    this.decoder = new ArgumentDecoder(capacity);
    this.encoder = new ArgumentEncoder((id, buffer) => {
      this.decoder.buffers[id] = buffer;
      for (const worker of this.workers) worker.handle.post({ type: 'buffer', id, buffer });
    });
    this.runner = new GroupRunner(this.scheduler, this.decoder, this.registry);
  }

  static async create(options: JobSystemOptions): Promise<Pool> {
    if (typeof SharedArrayBuffer === 'undefined') {
      throw new JobsError('SharedArrayBuffer is not available: serve the page cross-origin isolated (COOP: same-origin, COEP: require-corp).');
    }
    if (!Array.isArray(options.kernels) || options.kernels.length === 0) {
      throw new JobsError('kernels must list at least one kernel module (a URL, or a module object with createWorker).');
    }
    const workerCount = options.workerCount ?? (await defaultWorkerCount());
    if (!Number.isInteger(workerCount) || workerCount < 1 || workerCount > MAX_WORKERS) {
      throw new JobsError(`workerCount must be an integer from 1 to ${MAX_WORKERS}, got ${workerCount}.`);
    }
    const capacity = options.capacity ?? DEFAULT_CAPACITY;
    if (!Number.isInteger(capacity) || capacity < 1 || capacity > 1 << 20) {
      throw new JobsError(`capacity must be an integer from 1 to ${1 << 20}, got ${capacity}.`);
    }
    const createWorker = options.createWorker ?? null;
    let kernelUrls: string[] | null = null;
    let modules: KernelModule[];
    if (createWorker) {
      modules = options.kernels.map((entry, i): KernelModule => {
        if (typeof entry === 'string' || entry instanceof URL) {
          throw new JobsError(`kernels[${i}] is a URL; with createWorker pass the imported module objects (the worker script imports them too).`);
        }
        return entry as KernelModule;
      });
    } else {
      if (!isNode) throw new JobsError('In a browser pass createWorker: () => new Worker(new URL(\'./worker.js\', import.meta.url), { type: \'module\' }).');
      kernelUrls = options.kernels.map((entry, i): string => {
        if (typeof entry === 'string') return entry;
        if (entry instanceof URL) return entry.href;
        throw new JobsError(`kernels[${i}] is a module object; without createWorker pass module URLs so the workers can import them.`);
      });
      modules = await Promise.all(kernelUrls.map((url) => import(/* @vite-ignore */ url) as Promise<KernelModule>));
      await nodeWorkerThreads();
    }
    const workerUrl = options.workerUrl ?? (createWorker ? null : new URL('./worker.js', import.meta.url));
    const pool = new Pool(workerCount, capacity, modules, { kernelUrls, createWorker, workerUrl });
    if (pool.registry.names.length === 0) throw new JobsError('The kernel modules export no functions: export each kernel by name.');
    try {
      await Promise.all(Array.from({ length: workerCount }, (_, slot) => pool.spawn(slot)));
    } catch (error) {
      await pool.shutdown();
      throw error;
    }
    return pool;
  }

  private spawn(slot: number): Promise<void> {
    let state: WorkerState | null = null;
    const events = {
      onMessage: (message: unknown) => {
        this.onMessage(message as FromWorker);
      },
      onExit: (code: number) => {
        this.onWorkerExit(slot, state, code);
      },
    };
    let handle: WorkerHandle;
    let port: unknown = null;
    if (this.setup.createWorker) handle = wrapWebWorker(this.setup.createWorker(slot), events);
    else {
      const spawned = spawnNodeWorker(this.setup.workerUrl!, events);
      handle = spawned.handle;
      port = spawned.port;
    }
    state = { handle, gone: false };
    this.workers[slot] = state;
    this.scheduler.clearSlot(slot);
    const init: InitMessage = {
      type: 'init',
      control: this.scheduler.buffer,
      slotCount: this.workerCount,
      capacity: this.capacity,
      slot,
      kernelUrls: this.setup.kernelUrls,
      kernelNames: this.registry.names,
      buffers: this.encoder.buffers,
      port,
    };
    const started = new Promise<void>((resolve, reject) => {
      this.ready.set(slot, { resolve, reject });
    });
    handle.post(init, port ? [port as Transferable] : []);
    return started;
  }

  private onMessage(message: FromWorker): void {
    if (message.type === 'ready') {
      this.ready.get(message.slot)?.resolve();
      this.ready.delete(message.slot);
    } else if (message.type === 'init-failed') {
      this.ready.get(message.slot)?.reject(new JobsError(`A worker could not load the kernels: ${message.message}.`));
      this.ready.delete(message.slot);
    } else {
      this.errorsReceived++;
      this.failures.push(new JobFailedError(message.kernel, message.jobIndex, message.groupIndex, message.error));
    }
  }

  private onWorkerExit(slot: number, state: WorkerState | null, code: number): void {
    // A replaced worker's exit arrives late: only the slot's current worker counts.
    if (state !== this.workers[slot]) return;
    const pending = this.ready.get(slot);
    if (pending) {
      this.ready.delete(slot);
      pending.reject(new JobsError(`A worker exited with code ${code} while starting: check that workerUrl points at a JavaScript worker entry.`));
    }
    if (this.closed) return;
    this.handleDeath(slot, code);
  }

  /** Reports the group a dead worker held, finishes it so nothing waits forever, replaces it. */
  private handleDeath(slot: number, code: number): void {
    const state = this.workers[slot];
    if (!state || state.gone) return;
    state.gone = true;
    state.handle.terminate();
    const i32 = this.scheduler.i32;
    const at = this.scheduler.slotBase(slot);
    const record = Atomics.load(i32, at + SLOT.RECORD);
    const group = Atomics.load(i32, at + SLOT.GROUP);
    const batchFirst = Atomics.load(i32, at + SLOT.BATCH_FIRST);
    const batchEnd = Atomics.load(i32, at + SLOT.BATCH_END);
    if (record >= 0) {
      const base = this.scheduler.base(record);
      const groupSize = i32[base + R.GROUP_SIZE]!;
      const first = group * groupSize;
      const end = Math.min(first + groupSize, i32[base + R.JOB_COUNT]!);
      const kernel = this.registry.names[i32[base + R.KERNEL]!] ?? '?';
      this.failures.push(new WorkerDiedError(kernel, group, first, end, batchEnd - group - 1, code));
      this.scheduler.clearSlot(slot);
      // The whole claim is counted: groups before the dying one ran, the rest never will.
      this.scheduler.finishGroups(record, batchEnd - batchFirst);
    }
    // Not from here: inside a blocked wait() the dying thread is still being torn down, and
    // starting a Node worker then can wait on it; the event loop's next turn is safe.
    setTimeout(() => {
      if (this.closed) return;
      this.spawn(slot).catch((error: unknown) => {
        this.failures.push(error instanceof Error ? error : new Error(String(error)));
      });
    }, 0);
    this.scheduler.signalEvent();
  }

  private checkDeadWorkers(): void {
    const i32 = this.scheduler.i32;
    for (let slot = 0; slot < this.workers.length; slot++) {
      const at = this.scheduler.slotBase(slot);
      if (Atomics.load(i32, at + SLOT.DEAD) !== 0) this.handleDeath(slot, Atomics.load(i32, at + SLOT.EXIT_CODE));
    }
  }

  assertOpen(): void {
    if (this.closed) throw new JobsError('The job system was shut down: initialize a new one.');
  }

  /**
   * Takes a free record and returns with the lock held, helping with work (or waiting) while
   * the table is full: the post's `while (!jobPool.push_back(job)) { poll(); }`.
   */
  private allocateLocked(): number {
    const scheduler = this.scheduler;
    for (;;) {
      scheduler.lock();
      const record = scheduler.allocate();
      if (record >= 0) return record;
      scheduler.unlock();
      if (this.helpOnce()) continue;
      if (this.staged.length > 0) this.submitStaged();
      this.checkDeadWorkers();
      if (scheduler.canBlock) this.sleep(1);
    }
  }

  /**
   * Writes a record. Execute/Dispatch records are published at once; task records stay
   * staged until submitStaged, so their links can be wired first.
   */
  record(priority: Priority, mode: number, jobCount: number, groupSize: number, kernel: number, args: readonly JobArgument[], stage: boolean): number {
    // One lock for allocate, fill and publish: the fields are tiny and this is the hot path.
    const record = this.allocateLocked();
    const scheduler = this.scheduler;
    const i32 = scheduler.i32;
    const base = scheduler.base(record);
    i32[base + R.KERNEL] = kernel;
    i32[base + R.MODE] = mode;
    i32[base + R.JOB_COUNT] = jobCount;
    i32[base + R.GROUP_SIZE] = groupSize;
    i32[base + R.GROUP_COUNT] = kernel < 0 ? 0 : Math.ceil(jobCount / groupSize);
    i32[base + R.PRIORITY] = PRIORITY_INDEX[priority];
    if (kernel >= 0) this.encoder.encode(scheduler, record, args);
    if (stage) this.staged.push(record);
    else scheduler.submit(record);
    scheduler.unlock();
    scheduler.flush();
    return record;
  }

  submitStaged(): void {
    if (this.staged.length === 0) return;
    const scheduler = this.scheduler;
    scheduler.lock();
    for (const record of this.staged) scheduler.submit(record);
    scheduler.unlock();
    this.staged.length = 0;
    scheduler.flush();
  }

  /** Runs one ready (non-streaming) group on this thread; false when there is none. */
  helpOnce(): boolean {
    const scheduler = this.scheduler;
    if (!scheduler.claim(false)) return false;
    const record = scheduler.claimedRecord;
    const first = scheduler.claimedGroup;
    const end = first + scheduler.claimedCount;
    for (let group = first; group < end; group++) {
      const failure = this.runner.run(record, group);
      if (failure) this.failures.push(new JobFailedError(failure.kernel, failure.jobIndex, failure.groupIndex, failure.error));
    }
    scheduler.finishGroups(record, end - first);
    return true;
  }

  private sleep(ms: number): void {
    const i32 = this.scheduler.i32;
    Atomics.add(i32, H.MAIN_WAITING, 1);
    const seq = Atomics.load(i32, H.EVENT_SEQ);
    Atomics.wait(i32, H.EVENT_SEQ, seq, ms);
    Atomics.sub(i32, H.MAIN_WAITING, 1);
  }

  /** Blocks (helping) until `done()`; then throws the first failure since the last wait. */
  waitUntil(done: () => boolean): void {
    this.assertOpen();
    if (!this.scheduler.canBlock) {
      throw new JobsError('This thread cannot block (a browser main thread): use await waitAsync() instead of wait().');
    }
    this.submitStaged();
    const i32 = this.scheduler.i32;
    while (!done()) {
      if (this.helpOnce()) continue;
      this.checkDeadWorkers();
      // No spin before sleeping: measured, a spinning main thread slows the worker it waits for
      // whenever cores are scarce (round trip 36 µs without, 160+ µs with, on 2 shared cores).
      Atomics.add(i32, H.MAIN_WAITING, 1);
      const seq = Atomics.load(i32, H.EVENT_SEQ);
      if (!done()) Atomics.wait(i32, H.EVENT_SEQ, seq, WAIT_SLICE_MS);
      Atomics.sub(i32, H.MAIN_WAITING, 1);
    }
    this.drainFailuresSync();
    this.throwFailures();
  }

  /** The same, without blocking: sleeps with Atomics.waitAsync (or a timer) between helps. */
  async waitUntilAsync(done: () => boolean): Promise<void> {
    this.assertOpen();
    this.submitStaged();
    const i32 = this.scheduler.i32;
    let helpedSince = performance.now();
    while (!done()) {
      if (this.helpOnce()) {
        // Give the event loop a turn now and then, so worker exits and messages land.
        if (performance.now() - helpedSince > 8) {
          await yieldToEventLoop();
          helpedSince = performance.now();
        }
        continue;
      }
      this.checkDeadWorkers();
      Atomics.add(i32, H.MAIN_WAITING, 1);
      const seq = Atomics.load(i32, H.EVENT_SEQ);
      if (!done()) await sleepAsync(i32, seq);
      Atomics.sub(i32, H.MAIN_WAITING, 1);
      helpedSince = performance.now();
    }
    // Failures travel as messages; they were counted before their groups finished.
    while (this.errorsReceived < Atomics.load(i32, H.ERRORS)) {
      if (!this.receiveOne()) await yieldToEventLoop();
    }
    this.throwFailures();
  }

  private receiveOne(): boolean {
    for (const worker of this.workers) {
      const message = worker.handle.receiveSync?.();
      if (message !== undefined) {
        this.onMessage(message as FromWorker);
        return true;
      }
    }
    return false;
  }

  private drainFailuresSync(): void {
    const i32 = this.scheduler.i32;
    let spins = 0;
    while (this.errorsReceived < Atomics.load(i32, H.ERRORS)) {
      if (this.receiveOne()) continue;
      // The message of a worker that died just after posting can be lost with it.
      if (++spins > 200) break;
      this.sleep(1);
    }
  }

  private throwFailures(): void {
    if (this.failures.length === 0) return;
    const first = this.failures[0]!;
    this.failures.length = 0;
    throw first;
  }

  isBusy(): boolean {
    return Atomics.load(this.scheduler.i32, H.PENDING) > 0;
  }

  async shutdown(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const i32 = this.scheduler.i32;
    Atomics.store(i32, H.SHUTDOWN, 1);
    Atomics.add(i32, H.WORK_SEQ, 1);
    Atomics.notify(i32, H.WORK_SEQ);
    for (const [, pending] of this.ready) pending.reject(new JobsError('The job system was shut down while starting.'));
    this.ready.clear();
    await Promise.all(
      this.workers.map(async (worker) => {
        // A worker stuck in a long kernel is not waited for forever.
        let timer: ReturnType<typeof setTimeout> | undefined;
        const timeout = new Promise<void>((resolve) => {
          timer = setTimeout(() => {
            worker.handle.terminate();
            resolve();
          }, 2000);
        });
        await Promise.race([worker.handle.join(), timeout]);
        clearTimeout(timer);
        await worker.handle.join();
      }),
    );
  }
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

// ES2024's Atomics.waitAsync (Chrome, Node 16+; not yet everywhere), typed here for ES2022.
type WaitAsync = (typedArray: Int32Array, index: number, value: number, timeout?: number) => { async: boolean; value: unknown };
const waitAsync = (Atomics as unknown as { waitAsync?: WaitAsync }).waitAsync;

function sleepAsync(i32: Int32Array, seq: number): Promise<unknown> {
  if (waitAsync) {
    const result = waitAsync(i32, H.EVENT_SEQ, seq, WAIT_SLICE_MS);
    return result.async ? (result.value as Promise<unknown>) : Promise.resolve();
  }
  return new Promise((resolve) => setTimeout(resolve, 1));
}
