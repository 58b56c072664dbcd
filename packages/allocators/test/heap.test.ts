import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  AllocationArgumentError,
  HeapAllocator,
  InvalidFreeError,
  MemoryLeakError,
  OutOfMemoryError,
  PageAllocator,
  type Allocator,
} from '../src/index.ts';

/** Live allocations never overlap, every one is aligned, and the totals add up. */
function checkInvariants(allocator: Allocator, live: Map<number, number>): void {
  const spans = [...live.keys()].map((offset) => [offset, offset + allocator.allocatedSize(offset)] as const).sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < spans.length; i++) expect(spans[i]![0]).toBeGreaterThanOrEqual(spans[i - 1]![1]);
  for (const [offset, align] of live) expect(offset % align).toBe(0);
  expect(allocator.allocationCount).toBe(live.size);
  expect(allocator.allocatedBytes).toBe(spans.reduce((sum, [start, end]) => sum + end - start, 0));
}

describe('HeapAllocator', () => {
  test('allocates aligned, non-overlapping blocks and answers allocatedSize', () => {
    const heap = new HeapAllocator({ size: 4096 });
    const a = heap.allocate(10);
    const b = heap.allocate(100, 64);
    expect(b % 64).toBe(0);
    expect(heap.allocatedSize(a)).toBe(16);
    expect(heap.allocatedSize(b)).toBe(112);
    expect(heap.allocationCount).toBe(2);
    expect(heap.allocatedBytes).toBe(128);
    heap.deallocate(a);
    heap.deallocate(b);
    expect(heap.stats()).toMatchObject({ freeBytes: 4096, largestFreeBlock: 4096, freeBlockCount: 1, fragmentation: 0 });
    heap.destroy();
  });

  test('coalesces neighbours in any free order', () => {
    const heap = new HeapAllocator({ size: 1024 });
    const blocks = [0, 1, 2, 3].map(() => heap.allocate(256));
    expect(heap.tryAllocate(16)).toBeNull();
    heap.deallocate(blocks[1]!);
    heap.deallocate(blocks[3]!);
    expect(heap.stats().freeBlockCount).toBe(2);
    expect(heap.stats().fragmentation).toBeCloseTo(0.5);
    expect(heap.tryAllocate(512)).toBeNull();
    heap.deallocate(blocks[2]!);
    expect(heap.allocate(768)).toBe(256);
  });

  test('exhaustion: tryAllocate answers null, allocate throws OutOfMemoryError, state unchanged', () => {
    const heap = new HeapAllocator({ size: 256 });
    const a = heap.allocate(200);
    expect(heap.tryAllocate(100)).toBeNull();
    expect(() => heap.allocate(100)).toThrow(OutOfMemoryError);
    expect(heap.allocationCount).toBe(1);
    heap.deallocate(a);
    expect(heap.allocate(256)).toBe(0);
  });

  test('fills the heap exactly, even where the good-fit search would round past the last block', () => {
    const heap = new HeapAllocator({ size: 16 * 1000 });
    const a = heap.allocate(16 * 999);
    heap.deallocate(a);
    expect(heap.allocate(16 * 1000)).toBe(0);
  });

  test('rejects bad sizes and alignments with AllocationArgumentError, leaving the heap consistent', () => {
    const heap = new HeapAllocator({ size: 1024 });
    for (const size of [0, -1, Number.NaN, 1.5, Infinity]) expect(() => heap.allocate(size)).toThrow(AllocationArgumentError);
    for (const align of [0, 3, 12, -8, Number.NaN, 2 ** 31]) expect(() => heap.allocate(8, align)).toThrow(AllocationArgumentError);
    expect(heap.allocationCount).toBe(0);
    expect(heap.stats().freeBytes).toBe(1024);
    expect(() => new HeapAllocator({ size: 0 })).toThrow(AllocationArgumentError);
    expect(() => new HeapAllocator({ size: 64, granule: 3 })).toThrow(AllocationArgumentError);
  });

  test('double free and foreign offsets throw InvalidFreeError and change nothing', () => {
    const heap = new HeapAllocator({ size: 1024 });
    const a = heap.allocate(32);
    const b = heap.allocate(32);
    heap.deallocate(a);
    expect(() => {
      heap.deallocate(a);
    }).toThrow(InvalidFreeError);
    for (const bad of [b + 16, b + 1, -16, 4096, Number.NaN, 0.5]) expect(() => {
      heap.deallocate(bad);
    }).toThrow(InvalidFreeError);
    expect(() => heap.allocatedSize(a)).toThrow(InvalidFreeError);
    expect(heap.allocationCount).toBe(1);
    expect(heap.allocatedSize(b)).toBe(32);
  });

  test('destroy with live allocations throws a leak report listing each one', () => {
    const heap = new HeapAllocator({ size: 1024, name: 'level' });
    const a = heap.allocate(48);
    const b = heap.allocate(16);
    let leak: MemoryLeakError | undefined;
    try {
      heap.destroy();
    } catch (error) {
      leak = error as MemoryLeakError;
    }
    expect(leak).toBeInstanceOf(MemoryLeakError);
    expect(leak!.allocations).toEqual([
      { offset: a, size: 48 },
      { offset: b, size: 16 },
    ]);
    expect(leak!.message).toContain('level');
    heap.deallocate(a);
    heap.deallocate(b);
    heap.destroy();
    expect(() => heap.allocate(8)).toThrow(/destroyed/);
  });

  test('over a PageAllocator it takes its chunk from the backing, grows by more chunks and gives them back', () => {
    const pages = new PageAllocator({ pageSize: 4096, initialPages: 2, maxPages: 64 });
    const heap = new HeapAllocator({ size: 8192, backing: pages, grow: true, name: 'heap' });
    expect(heap.memory).toBe(pages.memory);
    const big = [0, 1, 2].map(() => heap.allocate(6000));
    expect(pages.allocationCount).toBe(3);
    expect(pages.capacityBytes).toBeGreaterThan(8192);
    for (const offset of big) heap.deallocate(offset);
    heap.destroy();
    expect(pages.allocationCount).toBe(0);
    pages.destroy();
  });

  test('property: a growing heap over pages keeps chunks apart and frees back to one block per chunk', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 6000 }), { maxLength: 80 }), fc.array(fc.nat(), { maxLength: 80 }), (sizes, picks) => {
        const pages = new PageAllocator({ pageSize: 1024, initialPages: 4, maxPages: 1024 });
        const heap = new HeapAllocator({ size: 4096, backing: pages, grow: true });
        const live = new Map<number, number>();
        sizes.forEach((size, i) => {
          live.set(heap.allocate(size), 8);
          const pick = picks[i];
          if (pick !== undefined && pick % 3 === 0) {
            const keys = [...live.keys()];
            const offset = keys[pick % keys.length]!;
            heap.deallocate(offset);
            live.delete(offset);
          }
        });
        checkInvariants(heap, live);
        for (const offset of live.keys()) heap.deallocate(offset);
        expect(heap.stats().freeBlockCount).toBe(pages.allocationCount);
        expect(heap.stats().freeBytes).toBe(heap.capacityBytes);
        heap.destroy();
        expect(pages.allocationCount).toBe(0);
      }),
      { numRuns: 40 },
    );
  });

  test('a bare range (memory: null) allocates without any CPU bytes', () => {
    const heap = new HeapAllocator({ size: 1 << 20, memory: null, granule: 256 });
    expect(heap.memory).toBeNull();
    expect(heap.allocate(1) % 256).toBe(0);
  });

  test('property: random traces keep blocks disjoint, aligned, totals exact, and free back to one block', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('alloc' as const), size: fc.integer({ min: 1, max: 9000 }), alignLog: fc.integer({ min: 0, max: 9 }) }),
      fc.record({ kind: fc.constant('free' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('bad' as const), pick: fc.nat(), delta: fc.integer({ min: 1, max: 64 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 300 }), fc.constantFrom(8, 16, 64), (ops, granule) => {
        const heap = new HeapAllocator({ size: 64 * 1024, granule });
        const live = new Map<number, number>();
        for (const o of ops) {
          if (o.kind === 'alloc') {
            const align = 1 << o.alignLog;
            const offset = heap.tryAllocate(o.size, align);
            if (offset !== null) {
              expect(live.has(offset)).toBe(false);
              expect(heap.allocatedSize(offset)).toBeGreaterThanOrEqual(o.size);
              live.set(offset, align);
            } else if (align <= granule) {
              // Exhaustion is honest: null only when no free block could hold the request.
              expect(heap.stats().largestFreeBlock).toBeLessThan(Math.ceil(o.size / granule) * granule);
            }
          } else if (live.size > 0) {
            const keys = [...live.keys()];
            const offset = keys[o.pick % keys.length]!;
            if (o.kind === 'free') {
              heap.deallocate(offset);
              live.delete(offset);
              expect(() => {
      heap.deallocate(offset);
    }).toThrow(InvalidFreeError);
            } else if (!live.has(offset + o.delta)) {
              const before = heap.allocatedBytes;
              expect(() => {
      heap.deallocate(offset + o.delta);
    }).toThrow(InvalidFreeError);
              expect(heap.allocatedBytes).toBe(before);
            }
          }
        }
        checkInvariants(heap, live);
        const stats = heap.stats();
        expect(stats.freeBytes + heap.allocatedBytes).toBe(64 * 1024);
        for (const offset of live.keys()) heap.deallocate(offset);
        expect(heap.stats()).toMatchObject({ freeBytes: 64 * 1024, freeBlockCount: 1, usedBlockCount: 0, largestFreeBlock: 64 * 1024 });
        heap.destroy();
      }),
      { numRuns: 150 },
    );
  });
});
