import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  AllocationArgumentError,
  InvalidFreeError,
  PageAllocator,
  SharedFrameAllocator,
  SharedPoolAllocator,
} from '../src/index.ts';

const WORKERS = 4;
let dir = '';
let entry = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cuttle-allocators-'));
  entry = join(dir, 'shared-worker.mjs');
  await build({
    entryPoints: [join(import.meta.dirname, 'fixtures/shared-worker.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile: entry,
    logLevel: 'silent',
  });
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Starts one worker per job, releases them together, and collects their replies. */
async function runWorkers<T>(jobs: Record<string, unknown>[]): Promise<T[]> {
  const start = new SharedArrayBuffer(4);
  const workers = jobs.map((job) => new Worker(entry, { workerData: { ...job, start } }));
  const replies = workers.map(
    (worker) =>
      new Promise<T>((resolve, reject) => {
        worker.once('message', (message: T) => {
          resolve(message);
        });
        worker.once('error', reject);
      }),
  );
  // Give every worker time to reach Atomics.wait, then wake them all at once.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const go = new Int32Array(start);
  Atomics.store(go, 0, 1);
  Atomics.notify(go, 0);
  try {
    return await Promise.all(replies);
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}

describe('SharedPoolAllocator', () => {
  test('workers allocate and free concurrently without ever sharing a block', async () => {
    const pool = new SharedPoolAllocator({ blockSize: 16, blockCount: 48, name: 'jobs' });
    const replies = await runWorkers<{ allocations: number; corrupted: number; kept: number[] }>(
      Array.from({ length: WORKERS }, (_, id) => ({ kind: 'pool', handle: pool.share(), id: id + 1, rounds: 4000, keep: 10 })),
    );
    const words = new Int32Array(pool.memory!);
    const kept = replies.flatMap((reply, i) => reply.kept.map((offset) => [offset, i + 1] as const));
    for (const reply of replies) {
      expect(reply.corrupted).toBe(0);
      expect(reply.allocations).toBeGreaterThan(0);
    }
    // Every kept block is distinct, still holds its owner's stamp, and the count agrees.
    expect(new Set(kept.map(([offset]) => offset)).size).toBe(kept.length);
    for (const [offset, id] of kept) expect(words[offset / 4]).toBe(id);
    expect(pool.allocationCount).toBe(kept.length);
    expect(pool.liveAllocations().map((a) => a.offset).sort((a, b) => a - b)).toEqual(kept.map(([offset]) => offset).sort((a, b) => a - b));
    for (const [offset] of kept) pool.deallocate(offset);
    // After all that churn the free list still holds every block exactly once.
    const all = new Set<number>();
    for (let i = 0; i < 48; i++) all.add(pool.allocate());
    expect(all.size).toBe(48);
    expect(pool.tryAllocate()).toBeNull();
    for (const offset of all) pool.deallocate(offset);
    pool.destroy();
  });

  test('bad use: double free, foreign offsets, oversize requests', () => {
    const pool = new SharedPoolAllocator({ blockSize: 32, blockCount: 4 });
    const a = pool.allocate();
    pool.deallocate(a);
    for (const bad of [a, 8, 4096, Number.NaN]) {
      expect(() => {
        pool.deallocate(bad);
      }).toThrow(InvalidFreeError);
    }
    expect(() => pool.allocate(33)).toThrow(AllocationArgumentError);
    expect(() => pool.allocate(0)).toThrow(AllocationArgumentError);
    expect(pool.allocationCount).toBe(0);
  });

  test('can take its blocks from a shared PageAllocator', () => {
    const pages = new PageAllocator({ pageSize: 4096, initialPages: 2, shared: true });
    const pool = new SharedPoolAllocator({ blockSize: 64, blockCount: 10, backing: pages });
    expect(pool.memory).toBe(pages.memory);
    pool.deallocate(pool.allocate());
    pool.destroy();
    expect(pages.allocationCount).toBe(0);
    expect(() => new SharedPoolAllocator({ blockSize: 64, blockCount: 10, backing: new PageAllocator() })).toThrow(AllocationArgumentError);
  });
});

describe('SharedFrameAllocator', () => {
  test('workers bump-allocate concurrently: disjoint, aligned, intact, counted', async () => {
    const frame = new SharedFrameAllocator({ size: 1 << 20, maxAllocations: 8192, name: 'frame' });
    const replies = await runWorkers<{ made: [number, number, number][]; freed: number }>(
      Array.from({ length: WORKERS }, (_, id) => ({ kind: 'frame', handle: frame.share(), id: id + 1, allocations: 1500 })),
    );
    const bytes = new Uint8Array(frame.memory!);
    const spans: [number, number][] = [];
    let freed = 0;
    replies.forEach((reply, i) => {
      freed += reply.freed;
      for (const [offset, size, align] of reply.made) {
        expect(offset % align).toBe(0);
        spans.push([offset, size]);
        for (let b = offset; b < offset + size; b++) {
          if (bytes[b] !== i + 1) throw new Error(`byte ${b} of worker ${i + 1}'s allocation was overwritten`);
        }
      }
    });
    spans.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < spans.length; i++) expect(spans[i]![0]).toBeGreaterThanOrEqual(spans[i - 1]![0] + spans[i - 1]![1]);
    expect(spans.length).toBe(WORKERS * 1500);
    expect(frame.allocationCount).toBe(spans.length - freed);
    const live = frame.liveAllocations();
    expect(frame.allocatedBytes).toBe(live.reduce((sum, a) => sum + a.size, 0));
    expect(() => {
      frame.destroy();
    }).toThrow(/live allocation/);
    frame.reset();
    expect(frame.allocationCount).toBe(0);
    frame.destroy();
  });

  test('bad use and exhaustion', () => {
    const frame = new SharedFrameAllocator({ size: 256, maxAllocations: 3 });
    const a = frame.allocate(16, 16);
    expect(frame.allocatedSize(a)).toBe(16);
    frame.deallocate(a);
    for (const bad of [a, a + 4, 3, 1000, -4]) {
      expect(() => {
        frame.deallocate(bad);
      }).toThrow(InvalidFreeError);
    }
    expect(frame.tryAllocate(1000)).toBeNull();
    expect(() => frame.allocate(8, 24)).toThrow(AllocationArgumentError);
    frame.allocate(8);
    expect(frame.tryAllocate(8)).toBeNull(); // record slots used up
    frame.reset();
    expect(frame.allocate(200)).toBeGreaterThan(0);
  });
});
