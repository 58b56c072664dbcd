// Node: the pool's workers are children of a small supervisor thread rather than of the thread
// that waits. A main thread blocked in wait() runs no event loop, so the 'exit' event of a worker
// killed outright (worker.terminate(), running out of memory, a native crash) would never reach
// it. The supervisor does nothing but start, stop and watch workers; its event loop never blocks,
// so it hears every exit at once and writes it into the dead worker's slot in shared memory, then
// wakes the waiting thread, which reports the lost jobs.
import type { WorkerResourceLimits } from './api.ts';
import { DEATH, H, SLOT, SLOTS_BASE } from './layout.ts';
import { nodeWorkerThreads, type WorkerEvents, type WorkerHandle } from './platform.ts';

interface SpawnMessage {
  type: 'spawn';
  slot: number;
  serial: number;
  url: string;
  port: unknown;
  resourceLimits: WorkerResourceLimits | undefined;
}

interface ExitReport {
  type: 'exit';
  slot: number;
  serial: number;
  code: number;
  reason: number;
  error: string | null;
}

// CommonJS, run with `eval: true`: no file to ship or resolve, the same from source and dist.
const SOURCE = `
const { Worker, parentPort, workerData } = require('node:worker_threads');
const i32 = new Int32Array(workerData.control, 0, workerData.int32Count);
const L = workerData.layout;
const children = new Map();
function markDead(slot, serial, code, reason) {
  if (Atomics.load(i32, L.SHUTDOWN) !== 0) return;
  const at = L.SLOTS_BASE + slot * L.SLOT_SIZE;
  Atomics.store(i32, at + L.EXIT_CODE, code);
  if (reason !== 0) Atomics.store(i32, at + L.REASON, reason);
  // DEAD holds the newest dead serial: a late report of an older worker never hides a newer death.
  for (;;) {
    const seen = Atomics.load(i32, at + L.DEAD);
    if (seen >= serial || Atomics.compareExchange(i32, at + L.DEAD, seen, serial) === seen) break;
  }
  Atomics.add(i32, L.EVENT_SEQ, 1);
  Atomics.notify(i32, L.EVENT_SEQ);
}
parentPort.on('message', (m) => {
  if (m.type === 'spawn') {
    let reason = 0;
    let error = null;
    const url = m.url.startsWith('file:') ? new URL(m.url) : m.url;
    const worker = new Worker(url, { execArgv: [], resourceLimits: m.resourceLimits });
    children.set(m.slot, { worker, serial: m.serial });
    worker.on('error', (e) => {
      reason = e && e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? L.OUT_OF_MEMORY : L.ERROR;
      error = e && e.message ? String(e.message) : String(e);
    });
    worker.on('exit', (code) => {
      markDead(m.slot, m.serial, code, reason);
      const child = children.get(m.slot);
      if (child && child.worker === worker) children.delete(m.slot);
      parentPort.postMessage({ type: 'exit', slot: m.slot, serial: m.serial, code, reason, error });
    });
    worker.postMessage({ type: 'port', port: m.port }, [m.port]);
  } else if (m.type === 'terminate') {
    const child = children.get(m.slot);
    if (child && child.serial === m.serial) child.worker.terminate();
  }
});
`;

type NodeWorkerThreads = Awaited<ReturnType<typeof nodeWorkerThreads>>;
type NodeWorker = InstanceType<NodeWorkerThreads['Worker']>;

export class NodeSupervisor {
  private readonly exits = new Map<string, (report: ExitReport) => void>();
  private readonly exited: Promise<void>;

  private constructor(
    private readonly thread: NodeWorker,
    private readonly threads: NodeWorkerThreads,
  ) {
    thread.on('message', (message: ExitReport) => {
      const key = `${message.slot}:${message.serial}`;
      const onExit = this.exits.get(key);
      this.exits.delete(key);
      onExit?.(message);
    });
    thread.on('error', () => undefined);
    this.exited = new Promise((resolve) => {
      thread.on('exit', () => {
        resolve();
      });
    });
  }

  static async start(control: SharedArrayBuffer, int32Count: number): Promise<NodeSupervisor> {
    const threads = await nodeWorkerThreads();
    const layout = {
      SHUTDOWN: H.SHUTDOWN,
      EVENT_SEQ: H.EVENT_SEQ,
      SLOTS_BASE,
      SLOT_SIZE: SLOT.SIZE,
      DEAD: SLOT.DEAD,
      EXIT_CODE: SLOT.EXIT_CODE,
      REASON: SLOT.REASON,
      OUT_OF_MEMORY: DEATH.OUT_OF_MEMORY,
      ERROR: DEATH.ERROR,
    };
    const thread = new threads.Worker(SOURCE, { eval: true, execArgv: [], workerData: { control, int32Count, layout } });
    return new NodeSupervisor(thread, threads);
  }

  /** Starts worker `serial` in `slot`; the handle talks to it over its own port. */
  spawn(url: string | URL, slot: number, serial: number, resourceLimits: WorkerResourceLimits | undefined, events: WorkerEvents): WorkerHandle {
    const threads = this.threads;
    const channel = new threads.MessageChannel();
    const port = channel.port1;
    port.on('message', (message: unknown) => {
      events.onMessage(message);
    });
    let exited = false;
    const exit = new Promise<void>((resolve) => {
      this.exits.set(`${slot}:${serial}`, (report) => {
        exited = true;
        // Messages the worker posted before it died are still queued: hand them over first.
        for (let message = threads.receiveMessageOnPort(port); message; message = threads.receiveMessageOnPort(port)) {
          events.onMessage(message.message);
        }
        port.close();
        events.onExit(report.code, report.reason, report.error);
        resolve();
      });
    });
    const spawn: SpawnMessage = { type: 'spawn', slot, serial, url: url instanceof URL ? url.href : url, port: channel.port2, resourceLimits };
    this.thread.postMessage(spawn, [channel.port2]);
    return {
      post(message, transfer) {
        port.postMessage(message, transfer as never);
      },
      receiveSync: (): unknown => threads.receiveMessageOnPort(port)?.message as unknown,
      join: () => exit,
      terminate: () => {
        if (!exited) this.thread.postMessage({ type: 'terminate', slot, serial });
      },
    };
  }

  /** Stops the supervisor itself (after the workers have exited). */
  async close(): Promise<void> {
    await this.thread.terminate();
    await this.exited;
  }
}
