import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  AllocationArgumentError,
  FrameAllocator,
  HeapAllocator,
  InvalidFreeError,
  MemoryLeakError,
  PageAllocator,
  PoolAllocator,
  ProxyAllocator,
  ScratchAllocator,
  TraceAllocator,
  formatMemoryReport,
  memoryReport,
  type Allocator,
} from '../src/index.ts';

function leakOf(allocator: Allocator): MemoryLeakError {
  try {
    allocator.destroy();
  } catch (error) {
    if (error instanceof MemoryLeakError) return error;
    throw error;
  }
  throw new Error('expected a MemoryLeakError');
}

/** Random allocate/free traces: blocks never overlap, stay aligned, totals match. */
function propertyTrace(make: () => Allocator, maxSize: number, maxAlignLog: number, fixedSize?: number): void {
  const op = fc.oneof(
    fc.record({ free: fc.constant(false), size: fc.integer({ min: 1, max: maxSize }), alignLog: fc.integer({ min: 0, max: maxAlignLog }) }),
    fc.record({ free: fc.constant(true), pick: fc.nat() }),
  );
  fc.assert(
    fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
      const allocator = make();
      const live = new Map<number, number>();
      for (const o of ops) {
        if (!o.free) {
          const align = 1 << o.alignLog;
          const offset = allocator.tryAllocate(fixedSize ?? o.size, align);
          if (offset !== null) {
            expect(offset % align).toBe(0);
            live.set(offset, allocator.allocatedSize(offset));
          }
        } else if (live.size > 0) {
          const keys = [...live.keys()];
          const offset = keys[o.pick % keys.length]!;
          allocator.deallocate(offset);
          live.delete(offset);
          expect(() => {
            allocator.deallocate(offset);
          }).toThrow(InvalidFreeError);
        }
      }
      const spans = [...live].sort((a, b) => a[0] - b[0]);
      for (let i = 1; i < spans.length; i++) expect(spans[i]![0]).toBeGreaterThanOrEqual(spans[i - 1]![0] + spans[i - 1]![1]);
      expect(allocator.allocationCount).toBe(live.size);
      expect(allocator.allocatedBytes).toBe(spans.reduce((sum, [, size]) => sum + size, 0));
      for (const offset of live.keys()) allocator.deallocate(offset);
      expect(allocator.allocatedBytes).toBe(0);
      allocator.destroy();
    }),
    { numRuns: 60 },
  );
}

describe('PoolAllocator', () => {
  test('hands out fixed blocks, reuses freed ones, answers null when empty', () => {
    const pool = new PoolAllocator({ blockSize: 24, blockCount: 3, align: 16 });
    expect(pool.stride).toBe(32);
    const blocks = [pool.allocate(), pool.allocate(), pool.allocate()];
    expect(blocks).toEqual([0, 32, 64]);
    expect(pool.tryAllocate()).toBeNull();
    pool.deallocate(32);
    expect(pool.allocate(10)).toBe(32);
    expect(pool.allocatedSize(64)).toBe(32);
    expect(pool.allocatedBytes).toBe(96);
  });

  test('bad use: too big, over-aligned, double free, foreign offsets', () => {
    const pool = new PoolAllocator({ blockSize: 16, blockCount: 4 });
    expect(() => pool.allocate(17)).toThrow(AllocationArgumentError);
    expect(() => pool.allocate(8, 64)).toThrow(AllocationArgumentError);
    expect(() => pool.allocate(0)).toThrow(AllocationArgumentError);
    const a = pool.allocate();
    pool.deallocate(a);
    for (const bad of [a, 8, 64, -16, Number.NaN]) {
      expect(() => {
        pool.deallocate(bad);
      }).toThrow(InvalidFreeError);
    }
    expect(pool.allocationCount).toBe(0);
    expect(() => new PoolAllocator({ blockSize: 0, blockCount: 4 })).toThrow(AllocationArgumentError);
    expect(() => new PoolAllocator({ blockSize: 8, blockCount: 4, align: 6 })).toThrow(AllocationArgumentError);
  });

  test('property: random traces', () => {
    propertyTrace(() => new PoolAllocator({ blockSize: 48, blockCount: 40, align: 16 }), 48, 4);
  });
});

describe('FrameAllocator', () => {
  test('bumps, still answers allocatedSize, and resets per frame', () => {
    const frame = new FrameAllocator({ size: 1024 });
    const a = frame.allocate(10);
    const b = frame.allocate(20, 64);
    expect([a, b]).toEqual([0, 64]);
    expect(frame.allocatedSize(a)).toBe(10);
    expect(frame.allocatedSize(b)).toBe(20);
    expect(frame.usedBytes).toBe(84);
    frame.deallocate(a);
    expect(frame.allocationCount).toBe(1);
    expect(() => {
      frame.deallocate(a);
    }).toThrow(InvalidFreeError);
    expect(frame.tryAllocate(2000)).toBeNull();
    frame.reset();
    expect(frame.allocationCount).toBe(0);
    expect(() => frame.allocatedSize(b)).toThrow(InvalidFreeError);
    expect(frame.allocate(1000)).toBe(0);
    frame.reset();
    frame.destroy();
  });

  test('property: random traces (per frame)', () => {
    propertyTrace(() => new FrameAllocator({ size: 8192 }), 300, 6);
  });
});

describe('PageAllocator', () => {
  test('hands out whole pages and grows the buffer in place, keeping views valid', () => {
    const pages = new PageAllocator({ pageSize: 4096, initialPages: 2, maxPages: 8 });
    const a = pages.allocate(100);
    expect(pages.allocatedSize(a)).toBe(4096);
    const view = new Uint32Array(pages.memory!, a, 4);
    view[0] = 42;
    const b = pages.allocate(3 * 4096);
    expect(pages.capacityBytes).toBeGreaterThanOrEqual(4 * 4096);
    expect(pages.memory!.byteLength).toBe(pages.capacityBytes);
    expect(view[0]).toBe(42);
    expect(pages.tryAllocate(64 * 4096)).toBeNull();
    expect(() => pages.allocate(8, 8192)).toThrow(AllocationArgumentError);
    pages.deallocate(a);
    pages.deallocate(b);
    expect(() => {
      pages.deallocate(b);
    }).toThrow(InvalidFreeError);
    pages.destroy();
  });

  test('shared pages live in a growable SharedArrayBuffer', () => {
    const pages = new PageAllocator({ pageSize: 4096, initialPages: 1, maxPages: 4, shared: true });
    expect(pages.memory).toBeInstanceOf(SharedArrayBuffer);
    const a = pages.allocate(3 * 4096);
    expect(pages.memory!.byteLength).toBeGreaterThanOrEqual(a + 3 * 4096);
  });

  test('property: random traces', () => {
    propertyTrace(() => new PageAllocator({ pageSize: 256, initialPages: 4, maxPages: 64 }), 2000, 8);
  });
});

describe('ScratchAllocator', () => {
  test('rings around, reclaims when the oldest is freed, falls back to its backing when full', () => {
    const heap = new HeapAllocator({ size: 8192 });
    const scratch = new ScratchAllocator({ size: 1024, backing: heap, name: 'scratch' });
    const a = scratch.allocate(400);
    const b = scratch.allocate(400);
    expect(scratch.inRing(a) && scratch.inRing(b)).toBe(true);
    const c = scratch.allocate(400);
    expect(scratch.inRing(c)).toBe(false);
    expect(heap.allocationCount).toBe(2);
    scratch.deallocate(a);
    const d = scratch.allocate(300);
    expect(scratch.inRing(d)).toBe(true);
    expect(d).toBeLessThan(b);
    expect(scratch.allocatedSize(c)).toBe(400);
    for (const offset of [b, c, d]) scratch.deallocate(offset);
    expect(() => {
      scratch.deallocate(d);
    }).toThrow(InvalidFreeError);
    scratch.destroy();
    expect(heap.allocationCount).toBe(0);
  });

  test('without a backing, a full ring answers null', () => {
    const scratch = new ScratchAllocator({ size: 256 });
    scratch.allocate(200);
    expect(scratch.tryAllocate(100)).toBeNull();
  });

  test('property: random traces', () => {
    propertyTrace(() => new ScratchAllocator({ size: 2048, backing: new HeapAllocator({ size: 1 << 16 }) }), 500, 6);
    propertyTrace(() => new ScratchAllocator({ size: 2048 }), 500, 6);
  });
});

describe('ProxyAllocator, TraceAllocator and the memory report', () => {
  test('proxies track per-subsystem totals, reject frees of other subsystems, and report a tree', () => {
    const pages = new PageAllocator({ pageSize: 4096, initialPages: 16, name: 'pages' });
    const heap = new HeapAllocator({ size: 32768, backing: pages, name: 'heap' });
    const sound = new ProxyAllocator('sound', heap);
    const physics = new ProxyAllocator('physics', heap);
    const s = sound.allocate(1000);
    const p = physics.allocate(200);
    expect(sound.allocatedBytes).toBe(1008);
    expect(physics.allocationCount).toBe(1);
    expect(heap.allocationCount).toBe(2);
    expect(() => {
      sound.deallocate(p);
    }).toThrow(InvalidFreeError);
    expect(heap.allocationCount).toBe(2);
    const report = memoryReport(pages);
    expect(report).toMatchObject({ name: 'pages', kind: 'PageAllocator', allocationCount: 1, allocatedBytes: 32768 });
    expect(report.children[0]!.children.map((c) => [c.name, c.allocatedBytes, c.allocationCount])).toEqual([
      ['sound', 1008, 1],
      ['physics', 208, 1],
    ]);
    const text = formatMemoryReport(report);
    expect(text).toContain('pages (PageAllocator)');
    expect(text).toContain('├─ sound (ProxyAllocator)  1008 B  in 1 allocation(s)');
    expect(text).toContain('└─ physics');
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
    const leak = leakOf(sound);
    expect(leak.allocations).toEqual([{ offset: s, size: 1008 }]);
    expect(leakOf(heap).message).toContain('still backing: sound, physics');
    sound.deallocate(s);
    physics.deallocate(p);
    sound.destroy();
    physics.destroy();
    heap.destroy();
    pages.destroy();
    expect(pages.children).toEqual([]);
  });

  test('TraceAllocator puts the allocating stack in the leak report', () => {
    const heap = new HeapAllocator({ size: 4096 });
    const trace = new TraceAllocator('hunt', heap);
    function loadLevel(): number {
      return trace.allocate(64);
    }
    const leaked = loadLevel();
    expect(trace.stackOf(leaked)!.split('\n')[0]).toContain('loadLevel');
    const leak = leakOf(trace);
    expect(leak.allocations[0]!.stack).toContain('loadLevel');
    expect(leak.message).toContain('loadLevel');
    trace.deallocate(leaked);
    expect(trace.stackOf(leaked)).toBeUndefined();
    trace.destroy();
  });

  test('property: random traces through a proxy', () => {
    propertyTrace(() => new ProxyAllocator('p', new HeapAllocator({ size: 1 << 16 })), 3000, 8);
  });
});
