// How a compile worker hands a resource's outcome back: the outcome as JSON in a shared byte
// arena (a bump pointer taken with Atomics.add), where it lies in a shared table, and the
// resource's index appended to a completion list the main thread follows for progress. An
// outcome too big for the arena is marked, and the main thread compiles that resource itself.
import { CompileError } from '../../errors.ts';
import type { ResourceOutcome } from '../compile-resource.ts';
import type { ManifestEntry } from '../manifest.ts';

const USED = 0;
const COMPLETED = 1;
const HEADER = 2;
/** A span length that says: the outcome did not fit. */
export const DID_NOT_FIT = -1;

export interface SharedResults {
  /** [used bytes, completions, completion order (index + 1) × n, (start, length) × n] */
  table: Int32Array;
  bytes: Uint8Array;
}

export function createResults(count: number, arenaBytes: number): SharedResults {
  return { table: new Int32Array(new SharedArrayBuffer((HEADER + count * 3) * 4)), bytes: new Uint8Array(new SharedArrayBuffer(arenaBytes)) };
}

/** The outcome of `path`'s compile, as a worker sends it. */
interface OutcomeJson {
  ok: boolean;
  ms: number;
  writeMs?: number;
  entry?: ManifestEntry;
  error?: { file: string; line: number; column: number; problem: string; fix: string };
}

export function writeOutcome(results: SharedResults, count: number, index: number, outcome: ResourceOutcome, ms: number): void {
  const json: OutcomeJson = outcome.ok ? { ok: true, ms, writeMs: outcome.writeMs, entry: outcome.entry } : { ok: false, ms, error: { file: outcome.error.file, line: outcome.error.line, column: outcome.error.column, problem: outcome.error.problem, fix: outcome.error.fix } };
  const encoded = new TextEncoder().encode(JSON.stringify(json));
  const { table, bytes } = results;
  const start = Atomics.add(table, USED, encoded.length);
  const span = HEADER + count + index * 2;
  if (start + encoded.length <= bytes.length) {
    bytes.set(encoded, start);
    table[span] = start;
    table[span + 1] = encoded.length;
  } else {
    table[span + 1] = DID_NOT_FIT;
  }
  const order = Atomics.add(table, COMPLETED, 1);
  // The store publishes the span writes above (Atomics are sequentially consistent).
  Atomics.store(table, HEADER + order, index + 1);
  Atomics.notify(table, HEADER + order);
}

/** The index of the `order`-th resource to complete, or -1 while it has not. */
export function completedAt(results: SharedResults, order: number): number {
  return Atomics.load(results.table, HEADER + order) - 1;
}

/** Waits until the `order`-th completion is published or `ms` pass. */
export async function waitForCompletion(results: SharedResults, order: number, ms: number): Promise<void> {
  const waited = (Atomics as unknown as AtomicsWithWaitAsync).waitAsync(results.table, HEADER + order, 0, ms);
  if (waited.async) await waited.value;
}

// In Node since 16 and in every current browser, but not in TypeScript's ES2022 library.
interface AtomicsWithWaitAsync {
  waitAsync(array: Int32Array, index: number, value: number, timeout: number): { async: false; value: string } | { async: true; value: Promise<string> };
}

export type ReadOutcome = { outcome: ResourceOutcome; ms: number } | typeof DID_NOT_FIT;

export function readOutcome(results: SharedResults, count: number, index: number): ReadOutcome {
  const span = HEADER + count + index * 2;
  const length = Atomics.load(results.table, span + 1);
  if (length === DID_NOT_FIT) return DID_NOT_FIT;
  const start = results.table[span]!;
  const json = JSON.parse(new TextDecoder().decode(results.bytes.slice(start, start + length))) as OutcomeJson;
  if (json.ok) return { outcome: { ok: true, entry: json.entry!, writeMs: json.writeMs ?? 0 }, ms: json.ms };
  const e = json.error!;
  return { outcome: { ok: false, error: new CompileError(e.file, e.line, e.column, e.problem, e.fix) }, ms: json.ms };
}
