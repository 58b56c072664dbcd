// The loop every worker runs: claim a group from shared memory, run it, publish the tasks its
// kernel staged, finish it; when the queues are empty spin for `spinMicroseconds`, then sleep on
// Atomics.wait until the pool bumps WORK_SEQ.
import type { KernelModule } from './api.ts';
import { ArgumentDecoder } from './arguments.ts';
import { KernelRegistry } from './kernel-registry.ts';
import { DEATH, H, SLOT } from './layout.ts';
import { isNode, nodeWorkerThreads } from './platform.ts';
import type { FailureMessage, FromWorker, InitMessage, ToWorker } from './protocol.ts';
import { GroupRunner } from './run-group.ts';
import { Scheduler } from './scheduler.ts';
import { TaskManager } from './task-manager.ts';
import { WorkerTaskHost } from './worker-task-host.ts';

/** Polls between two looks at the clock while spinning. */
const POLLS_PER_CLOCK_READ = 64;

interface Channel {
  send(message: FromWorker): void;
  listen(handler: (message: ToWorker) => void): void;
  close(): void;
}

interface NodePort {
  postMessage(message: unknown): void;
  on(event: 'message', handler: (message: unknown) => void): void;
  close(): void;
}

async function openChannel(): Promise<Channel> {
  if (isNode) {
    const { parentPort } = await nodeWorkerThreads();
    if (!parentPort) throw new Error('startJobWorker must run inside a worker thread.');
    let port: NodePort | null = null;
    const handlers: ((message: ToWorker) => void)[] = [];
    // The supervisor that started this worker hands over the port to the pool first; the pool
    // talks to this worker over it (init, buffers) and hears its failures on it.
    parentPort.on('message', (message: ToWorker | { type: 'port'; port: unknown }) => {
      if (message.type === 'port') {
        port = message.port as NodePort;
        port.on('message', (inner) => {
          for (const handler of handlers) handler(inner as ToWorker);
        });
        return;
      }
      for (const handler of handlers) handler(message);
    });
    return {
      send(message) {
        (port ?? parentPort).postMessage(message);
      },
      listen(handler) {
        handlers.push(handler);
      },
      close() {
        port?.close();
        parentPort.close();
      },
    };
  }
  const scope = globalThis as unknown as {
    postMessage(message: unknown): void;
    close(): void;
    addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  };
  return {
    send(message) {
      scope.postMessage(message);
    },
    listen(handler) {
      scope.addEventListener('message', (event) => {
        handler(event.data as ToWorker);
      });
    },
    close() {
      scope.close();
    },
  };
}

/**
 * Turns this thread into a job worker. The default Node worker calls it with no modules
 * (it imports the URLs the pool sends); a worker script made for a bundler passes the kernel
 * modules it imported, in the same order as the pool's `kernels` option.
 */
export async function startJobWorker(modules?: readonly KernelModule[]): Promise<void> {
  const channel = await openChannel();
  const init = await new Promise<InitMessage>((resolve) => {
    channel.listen((message) => {
      if (message.type === 'init') resolve(message);
    });
  });
  const decoder = new ArgumentDecoder(init.capacity);
  for (let id = 0; id < init.buffers.length; id++) {
    const buffer = init.buffers[id];
    if (buffer !== undefined) decoder.addBuffer(id, buffer);
  }
  let bufferArrived: (() => void) | null = null;
  channel.listen((message) => {
    if (message.type === 'release') {
      for (const id of message.ids) decoder.dropBuffer(id);
      return;
    }
    if (message.type !== 'buffer') return;
    decoder.addBuffer(message.id, message.buffer);
    bufferArrived?.();
  });

  let registry: KernelRegistry;
  try {
    const loaded = init.kernelUrls ? await Promise.all(init.kernelUrls.map((url) => import(/* @vite-ignore */ url) as Promise<KernelModule>)) : modules ?? [];
    registry = new KernelRegistry(loaded);
    if (registry.names.join('\n') !== init.kernelNames.join('\n')) {
      throw new Error(`the worker's kernels (${registry.names.join(', ')}) differ from the pool's (${init.kernelNames.join(', ')}); pass the same modules in the same order`);
    }
  } catch (error) {
    channel.send({ type: 'init-failed', slot: init.slot, message: error instanceof Error ? error.message : String(error) });
    channel.close();
    return;
  }

  const scheduler = new Scheduler(init.control, init.slotCount, init.capacity, true, init.slot + 1);
  const host = new WorkerTaskHost(scheduler, registry, decoder);
  const runner = new GroupRunner(scheduler, decoder, registry, new TaskManager(host));
  const i32 = scheduler.i32;
  const slotAt = scheduler.slotBase(init.slot);
  if (isNode) {
    // A kernel calling process.exit() ends only this thread; say so in shared memory at once.
    // (A worker killed outright runs no handler: the supervisor reports that one.)
    process.on('exit', (code) => {
      if (Atomics.load(i32, H.SHUTDOWN) !== 0) return;
      Atomics.store(i32, slotAt + SLOT.EXIT_CODE, code);
      Atomics.store(i32, slotAt + SLOT.REASON, DEATH.EXIT);
      for (;;) {
        const seen = Atomics.load(i32, slotAt + SLOT.DEAD);
        if (seen >= init.serial || Atomics.compareExchange(i32, slotAt + SLOT.DEAD, seen, init.serial) === seen) break;
      }
      scheduler.signalEvent();
    });
  }
  channel.send({ type: 'ready', slot: init.slot });
  const spinMs = init.spinMicroseconds / 1000;

  for (;;) {
    if (Atomics.load(i32, H.SHUTDOWN) !== 0) break;
    if (scheduler.claim(true, slotAt)) {
      const record = scheduler.claimedRecord;
      const first = scheduler.claimedGroup;
      const end = first + scheduler.claimedCount;
      // A buffer first used by this record may still be in flight: let its message land.
      while (decoder.missingBuffer(scheduler, record) >= 0) {
        await new Promise<void>((resolve) => {
          bufferArrived = resolve;
        });
        bufferArrived = null;
      }
      for (let group = first; group < end; group++) {
        Atomics.store(i32, slotAt + SLOT.GROUP, group);
        let failure = runner.run(record, group);
        // An async kernel (streaming work only) holds this worker until its promise settles.
        const pending = runner.takePending();
        if (pending) failure = await runner.settle(pending, record, group);
        if (failure) report(channel, failure, i32);
        // The end of the work item is a submit: the tasks its kernel staged may start now.
        host.submitStaged();
      }
      scheduler.finishClaimed(slotAt, record, end - first);
      continue;
    }
    if (spinMs > 0 && spin(i32, spinMs)) continue;
    Atomics.add(i32, H.SLEEPERS, 1);
    const seq = Atomics.load(i32, H.WORK_SEQ);
    if (Atomics.load(i32, H.READY_COUNT) === 0 && Atomics.load(i32, H.SHUTDOWN) === 0) Atomics.wait(i32, H.WORK_SEQ, seq);
    Atomics.sub(i32, H.SLEEPERS, 1);
  }
  channel.close();
}

/** Polls for ready work for up to `ms`; true when some arrived (or shutdown began). */
function spin(i32: Int32Array, ms: number): boolean {
  const until = performance.now() + ms;
  for (let polls = 1; ; polls++) {
    if (Atomics.load(i32, H.READY_COUNT) !== 0 || Atomics.load(i32, H.SHUTDOWN) !== 0) return true;
    if (polls % POLLS_PER_CLOCK_READ === 0 && performance.now() >= until) return false;
  }
}

function report(channel: Channel, failure: FailureMessage | Omit<FailureMessage, 'type'>, i32: Int32Array): void {
  const message: FailureMessage = { ...failure, type: 'failure' };
  try {
    channel.send(message);
  } catch {
    // The error held something structured clone cannot copy: send its text.
    const error = failure.error;
    const plain = error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error);
    channel.send({ ...message, error: plain });
  }
  Atomics.add(i32, H.ERRORS, 1);
}
