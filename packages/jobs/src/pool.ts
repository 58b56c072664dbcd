// The main thread's side of the job system: starts workers, writes records, helps while
// waiting, collects failures, replaces dead workers, and joins everything on shutdown.
// JobSystem and TaskManager are thin public faces over one Pool.
import type { JobArgument, JobSystemOptions, KernelModule, Priority, WorkerResourceLimits } from './api.ts';
import { AnnouncingBufferIds, ArgumentDecoder, ArgumentEncoder } from './arguments.ts';
import { ASYNC_KERNELS, JobFailedError, JobsError, WorkerDiedError } from './errors.ts';
import { KernelRegistry } from './kernel-registry.ts';
import { H, MAX_WORKERS, R, SLOT, controlLayout } from './layout.ts';
import { NodeSupervisor } from './node-supervisor.ts';
import { defaultWorkerCount, isNode, nodeWorkerThreads, threadCanBlock, wrapWebWorker, type WorkerHandle } from './platform.ts';
import type { FromWorker, InitMessage } from './protocol.ts';
import { GroupRunner } from './run-group.ts';
import { fillAndPublishLocked } from './publish-record.ts';
import { Scheduler } from './scheduler.ts';
import type { TaskHost } from './task-host.ts';
import { TaskManager } from './task-manager.ts';

const DEFAULT_CAPACITY = 4096;
// 0.x spun a fixed 2000 polls, about 15 µs: the default keeps that. bench/round-trip.ts measures
// the others; on the shared 2-core machine no setting won consistently (see BENCHMARKS.md).
const DEFAULT_SPIN_MICROSECONDS = 15;
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
  supervisor: NodeSupervisor | null;
  resourceLimits: WorkerResourceLimits | undefined;
  spinMicroseconds: number;
  waitSpinMicroseconds: number;
}

export class Pool implements TaskHost {
  readonly scheduler: Scheduler;
  readonly registry: KernelRegistry;
  readonly encoder: ArgumentEncoder;
  /** The task graph as the pool's thread builds it (also what its kernels get from taskContext). */
  readonly tasks: TaskManager;
  private readonly bufferIds: AnnouncingBufferIds;
  private readonly decoder: ArgumentDecoder;
  private readonly runner: GroupRunner;
  private readonly workers: WorkerState[] = [];
  private readonly serials: number[] = [];
  private readonly failures: Error[] = [];
  private readonly ready = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  private errorsReceived = 0;
  private closed = false;
  /** Set when a worker died holding the scheduler's lock: the shared queues cannot be trusted. */
  private broken: Error | null = null;
  /** Task records created since the last submit (BitSquid's tasks being wired up). */
  readonly staged: number[] = [];

  private constructor(
    readonly workerCount: number,
    readonly capacity: number,
    modules: readonly KernelModule[],
    private readonly setup: Setup,
    control: SharedArrayBuffer,
  ) {
    this.scheduler = new Scheduler(control, workerCount, capacity, threadCanBlock());
    this.scheduler.format();
    this.scheduler.onLockStall = () => {
      this.checkLockHolder();
    };
    this.registry = new KernelRegistry(modules);
    this.decoder = new ArgumentDecoder(capacity);
    this.bufferIds = new AnnouncingBufferIds((id, buffer) => {
      this.decoder.addBuffer(id, buffer);
      for (const worker of this.workers) worker.handle.post({ type: 'buffer', id, buffer });
    });
    this.encoder = new ArgumentEncoder(this.bufferIds);
    this.tasks = new TaskManager(this);
    this.runner = new GroupRunner(this.scheduler, this.decoder, this.registry, this.tasks);
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
    const spinMicroseconds = options.spinMicroseconds ?? DEFAULT_SPIN_MICROSECONDS;
    const waitSpinMicroseconds = options.waitSpinMicroseconds ?? 0;
    for (const [name, value] of [['spinMicroseconds', spinMicroseconds], ['waitSpinMicroseconds', waitSpinMicroseconds]] as const) {
      if (!Number.isFinite(value) || value < 0 || value > 1_000_000) {
        throw new JobsError(`${name} must be a number of microseconds from 0 to 1000000, got ${value}.`);
      }
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
    const layout = controlLayout(workerCount, capacity);
    const control = new SharedArrayBuffer(layout.bytes);
    const supervisor = createWorker ? null : await NodeSupervisor.start(control, layout.int32Count);
    const setup: Setup = { kernelUrls, createWorker, workerUrl, supervisor, resourceLimits: options.resourceLimits, spinMicroseconds, waitSpinMicroseconds };
    const pool = new Pool(workerCount, capacity, modules, setup, control);
    if (pool.registry.names.length === 0) {
      await supervisor?.close();
      throw new JobsError('The kernel modules export no functions: export each kernel by name.');
    }
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
      onExit: (code: number, reason: number, error: string | null) => {
        this.onWorkerExit(slot, state, code, reason, error);
      },
    };
    const serial = (this.serials[slot] ?? 0) + 1;
    this.serials[slot] = serial;
    this.scheduler.clearSlot(slot);
    Atomics.store(this.scheduler.i32, this.scheduler.slotBase(slot) + SLOT.SERIAL, serial);
    const handle: WorkerHandle = this.setup.supervisor
      ? this.setup.supervisor.spawn(this.setup.workerUrl!, slot, serial, this.setup.resourceLimits, events)
      : wrapWebWorker(this.setup.createWorker!(slot), events);
    state = { handle, gone: false };
    this.workers[slot] = state;
    const init: InitMessage = {
      type: 'init',
      control: this.scheduler.buffer,
      slotCount: this.workerCount,
      capacity: this.capacity,
      slot,
      serial,
      spinMicroseconds: this.setup.spinMicroseconds,
      kernelUrls: this.setup.kernelUrls,
      kernelNames: this.registry.names,
      buffers: this.bufferIds.buffers,
    };
    const started = new Promise<void>((resolve, reject) => {
      this.ready.set(slot, { resolve, reject });
    });
    handle.post(init);
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

  private onWorkerExit(slot: number, state: WorkerState | null, code: number, reason: number, error: string | null): void {
    // A replaced worker's exit arrives late: only the slot's current worker counts.
    if (state !== this.workers[slot]) return;
    const pending = this.ready.get(slot);
    if (pending) {
      this.ready.delete(slot);
      const why = error ? ` (${error})` : '';
      pending.reject(new JobsError(`A worker exited with code ${code} while starting${why}: check that workerUrl points at a JavaScript worker entry.`));
    }
    if (this.closed) return;
    this.handleDeath(slot, code, reason);
  }

  /**
   * Reports the jobs a dead worker held, finishes them so nothing waits forever, completes the
   * tasks its kernel had staged (as empty: they never ran), and replaces the worker.
   */
  private handleDeath(slot: number, code: number, reason: number): void {
    const state = this.workers[slot];
    if (!state || state.gone) return;
    state.gone = true;
    state.handle.terminate();
    const scheduler = this.scheduler;
    const i32 = scheduler.i32;
    const at = scheduler.slotBase(slot);
    // Taken out of the slot the way the worker itself would: a claim is counted exactly once.
    const record = Atomics.exchange(i32, at + SLOT.RECORD, -1);
    const group = Atomics.load(i32, at + SLOT.GROUP);
    const batchFirst = Atomics.load(i32, at + SLOT.BATCH_FIRST);
    const batchEnd = Atomics.load(i32, at + SLOT.BATCH_END);
    scheduler.lock();
    const dropped = scheduler.releaseStaged(slot + 1);
    scheduler.unlock();
    scheduler.flush();
    if (record >= 0) {
      const base = scheduler.base(record);
      const groupSize = i32[base + R.GROUP_SIZE]!;
      const first = group * groupSize;
      const end = Math.min(first + groupSize, i32[base + R.JOB_COUNT]!);
      const kernel = this.registry.names[i32[base + R.KERNEL]!] ?? '?';
      const task = { index: record, serial: i32[base + R.SERIAL]! };
      this.failures.push(new WorkerDiedError(kernel, group, first, end, batchEnd - group - 1, code, reason, dropped, task));
      // The whole claim is counted: groups before the dying one ran, the rest never will.
      scheduler.finishGroups(record, batchEnd - batchFirst);
    }
    // At once, not on a later turn of the event loop: a wait() blocked on work only workers may
    // run (the streaming queue) needs the replacement now. In Node the supervisor starts it.
    this.spawn(slot).catch((error: unknown) => {
      this.failures.push(error instanceof Error ? error : new Error(String(error)));
    });
    this.scheduler.signalEvent();
  }

  /** Whether the worker now in `slot` has been reported dead in shared memory. */
  private slotDied(slot: number): boolean {
    const i32 = this.scheduler.i32;
    const at = this.scheduler.slotBase(slot);
    const serial = Atomics.load(i32, at + SLOT.SERIAL);
    return serial !== 0 && Atomics.load(i32, at + SLOT.DEAD) === serial;
  }

  private checkDeadWorkers(): void {
    const i32 = this.scheduler.i32;
    for (let slot = 0; slot < this.workers.length; slot++) {
      if (!this.slotDied(slot)) continue;
      const at = this.scheduler.slotBase(slot);
      this.handleDeath(slot, Atomics.load(i32, at + SLOT.EXIT_CODE), Atomics.load(i32, at + SLOT.REASON));
    }
  }

  /**
   * Called while this thread waits long for the scheduler's lock: if its holder is a worker that
   * died, nobody will ever release it, and the queues it was changing may be half-changed.
   */
  private checkLockHolder(): void {
    const owner = Atomics.load(this.scheduler.i32, H.LOCK_OWNER);
    if (owner === 0 || !this.slotDied(owner - 1)) return;
    const at = this.scheduler.slotBase(owner - 1);
    const i32 = this.scheduler.i32;
    this.broken = new WorkerDiedError('?', -1, 0, 0, 0, Atomics.load(i32, at + SLOT.EXIT_CODE), Atomics.load(i32, at + SLOT.REASON));
    throw this.broken;
  }

  assertOpen(): void {
    if (this.broken) throw this.broken;
    if (this.closed) throw new JobsError('The job system was shut down: initialize a new one.');
  }

  validate(kernel: string, args: readonly unknown[]): void {
    this.encoder.validate(kernel, args);
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
    fillAndPublishLocked(this.scheduler, this.encoder, this.staged, record, priority, mode, jobCount, groupSize, kernel, args, stage);
    return record;
  }

  /** Publishes the staged records from index `from` on (all of them by default). */
  submitStaged(from = 0): void {
    if (this.staged.length <= from) return;
    const scheduler = this.scheduler;
    scheduler.lock();
    for (let i = from; i < this.staged.length; i++) scheduler.submit(this.staged[i]!);
    scheduler.unlock();
    this.staged.length = from;
    scheduler.flush();
  }

  /** Runs one ready (non-streaming) group on this thread; false when there is none. */
  helpOnce(): boolean {
    const scheduler = this.scheduler;
    if (!scheduler.claim(false)) return false;
    const record = scheduler.claimedRecord;
    const first = scheduler.claimedGroup;
    const end = first + scheduler.claimedCount;
    // Tasks staged before this (a graph the caller is still wiring) stay staged; those the
    // kernels stage here are published when their work item ends, as on a worker.
    const ownStaged = this.staged.length;
    for (let group = first; group < end; group++) {
      const failure = this.runner.run(record, group);
      if (failure) this.failures.push(new JobFailedError(failure.kernel, failure.jobIndex, failure.groupIndex, failure.error));
      // Submission refuses async kernels below the streaming priority, which this thread never
      // runs; a kernel that returns a promise without being declared async still lands here.
      else if (this.runner.takePending()) {
        const kernel = this.registry.names[scheduler.i32[scheduler.base(record) + R.KERNEL]!]!;
        this.failures.push(new JobFailedError(kernel, group, group, new JobsError(`${kernel} returned a promise on a thread that helps inside wait(), which cannot await it. ${ASYNC_KERNELS}`)));
      }
      if (this.staged.length > ownStaged) this.submitStaged(ownStaged);
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
    const spinMs = this.setup.waitSpinMicroseconds / 1000;
    while (!done()) {
      if (this.helpOnce()) continue;
      this.checkDeadWorkers();
      // Off by default: a spinning main thread slows the worker it waits for whenever cores are
      // scarce (see BENCHMARKS.md, "spinning").
      if (spinMs > 0 && spinUntil(done, i32, spinMs)) continue;
      Atomics.add(i32, H.MAIN_WAITING, 1);
      const seq = Atomics.load(i32, H.EVENT_SEQ);
      if (!done()) Atomics.wait(i32, H.EVENT_SEQ, seq, WAIT_SLICE_MS);
      Atomics.sub(i32, H.MAIN_WAITING, 1);
    }
    this.drainFailuresSync();
    this.flushReleases();
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
    this.flushReleases();
    this.throwFailures();
  }

  /** Ids forgotten by release() whose workers have not been told yet (work was still open). */
  private readonly releasing: number[] = [];

  /**
   * Forgets `buffers`: this thread and the workers let go of them once no work is open (now, or
   * at the end of the next wait). Returns how many of them the pool held.
   */
  release(buffers: readonly SharedArrayBuffer[]): number {
    // A pool that is shut down or broken holds nothing for workers any more: nothing to do.
    if (this.closed || this.broken) return 0;
    let held = 0;
    for (const buffer of buffers) {
      const id = this.bufferIds.forget(buffer);
      if (id < 0) continue;
      this.releasing.push(id);
      held++;
    }
    this.flushReleases();
    return held;
  }

  /** Buffers the pool keeps for its workers now: every one passed and not released. */
  get heldBuffers(): number {
    let held = 0;
    for (const buffer of this.bufferIds.buffers) if (buffer !== undefined) held++;
    return held;
  }

  private flushReleases(): void {
    if (this.releasing.length === 0 || this.isBusy()) return;
    const ids = this.releasing.splice(0);
    for (const id of ids) this.decoder.dropBuffer(id);
    for (const worker of this.workers) if (!worker.gone) worker.handle.post({ type: 'release', ids });
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
    this.scheduler.onLockStall = null;
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
    await this.setup.supervisor?.close();
  }
}

/** Polls `done` and new ready work for up to `ms`; true when either turned up. */
function spinUntil(done: () => boolean, i32: Int32Array, ms: number): boolean {
  const until = performance.now() + ms;
  for (let polls = 1; ; polls++) {
    if (done() || Atomics.load(i32, H.READY_HELPABLE) !== 0) return true;
    if (polls % 64 === 0 && performance.now() >= until) return false;
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
