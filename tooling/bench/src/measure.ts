// Wall-clock helpers for CPU cases. Each Measure call is one sample; the runner interleaves
// contenders and takes medians, which is what makes a noisy shared machine usable.

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Keeps results alive so the JIT cannot drop the work that made them. */
export let sink: unknown;

/**
 * Calls `fn` repeatedly for at least `minMs` (after a short warm-up) and returns calls per
 * second. `opsPerCall` scales the figure when one call does many operations.
 */
export function opsPerSecond(fn: () => unknown, options: { minMs?: number; opsPerCall?: number } = {}): number {
  const minMs = options.minMs ?? 100;
  const opsPerCall = options.opsPerCall ?? 1;
  const warmUntil = performance.now() + Math.min(20, minMs / 4);
  while (performance.now() < warmUntil) sink = fn();
  let calls = 0;
  const start = performance.now();
  let elapsed = 0;
  // Check the clock every few calls only: cheap calls would otherwise measure performance.now().
  let batch = 1;
  while (elapsed < minMs) {
    for (let i = 0; i < batch; i++) sink = fn();
    calls += batch;
    elapsed = performance.now() - start;
    if (elapsed < minMs / 10) batch *= 2;
  }
  return (calls * opsPerCall * 1000) / elapsed;
}

/** Milliseconds one call of `fn` takes (one sample; the runner repeats it). */
export async function timeMs(fn: () => unknown): Promise<number> {
  const start = performance.now();
  sink = await fn();
  return performance.now() - start;
}
