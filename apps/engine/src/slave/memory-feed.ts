// The memory overview over the protocol: tools that subscribe get the engine's allocator tree
// (runtime/memory-tree.ts) about twice a second. The tree is built and serialized once for every
// subscriber, and sent as droppable data like profiler samples: a tool that falls behind misses
// trees (counted in `dropped.profiler`), never queues them.
import { describeError } from '../describe-error.ts';
import { EngineError } from '../errors.ts';
import type { Outbound } from './outbound.ts';
import type { SlaveEngine } from './slave-engine.ts';
import type { LogFn } from '../runtime/world.ts';

/** Milliseconds between two trees. */
export const MEMORY_INTERVAL_MS = 500;

export class MemoryFeed {
  readonly #engine: SlaveEngine;
  readonly #report: LogFn;
  readonly #subscribers = new Set<Outbound>();
  #seq = 0;
  #nextDue = 0;

  /** `report` takes failures to build the tree (rate-limited by the caller). */
  constructor(engine: SlaveEngine, report: LogFn) {
    this.#engine = engine;
    this.#report = report;
  }

  /** Whether anyone subscribed: the pump asks this and nothing else while nobody has. */
  get active(): boolean {
    return this.#subscribers.size > 0;
  }

  /** Adds a subscriber, which gets a tree at once; throws an EngineError when the engine keeps no overview. */
  subscribe(out: Outbound): void {
    if (!this.#engine.memoryTree) throw new EngineError('this engine keeps no memory overview; run the engine built from apps/engine (cuttle-engine run --slave).');
    this.#subscribers.add(out);
    this.#nextDue = 0;
  }

  unsubscribe(out: Outbound): void {
    this.#subscribers.delete(out);
  }

  /** Sends the tree to every subscriber when one is due. */
  poll(now: number): void {
    if (now < this.#nextDue || !this.#engine.memoryTree) return;
    this.#nextDue = now + MEMORY_INTERVAL_MS;
    let text: string;
    try {
      text = JSON.stringify({ type: 'memory', seq: ++this.#seq, tree: this.#engine.memoryTree() });
    } catch (error) {
      this.#report('error', 'memory', `the memory overview failed: ${describeError(error)}`);
      return;
    }
    for (const out of this.#subscribers) {
      if (out.open) out.offer('profiler', text);
      else this.#subscribers.delete(out);
    }
  }
}
