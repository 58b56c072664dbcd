import { expect, test } from 'vitest';
import {
  AllocationArgumentError,
  AllocatorError,
  FrameAllocator,
  HeapAllocator,
  allocateRecords,
  allocateView,
  deallocateRecords,
  deallocateView,
  defineRecord,
  recordViews,
  viewOf,
} from '../src/index.ts';

test('views alias the allocator memory without copying', () => {
  const heap = new HeapAllocator({ size: 1024 });
  const offset = heap.allocate(64, 16);
  const floats = viewOf(heap, offset, Float32Array);
  expect(floats.length).toBe(16);
  expect(floats.buffer).toBe(heap.memory);
  floats[3] = 1.5;
  expect(new Float32Array(heap.memory!, offset, 16)[3]).toBe(1.5);
  expect(viewOf(heap, offset, Uint8Array, 10).length).toBe(10);
  expect(() => viewOf(heap, offset, Float64Array, 9)).toThrow(AllocationArgumentError);
  heap.deallocate(offset);
  expect(() => viewOf(heap, offset, Float32Array)).toThrow(AllocatorError);
});

test('allocateView / deallocateView pair like make_new / make_delete', () => {
  const frame = new FrameAllocator({ size: 4096 });
  const positions = allocateView(frame, Float64Array, 12);
  expect(positions.byteOffset % 8).toBe(0);
  positions.fill(2);
  expect(frame.allocatedSize(positions.byteOffset)).toBe(96);
  deallocateView(frame, positions);
  expect(frame.allocationCount).toBe(0);
  expect(() => allocateView(frame, Float32Array, 0)).toThrow(AllocationArgumentError);
  expect(() => viewOf(new HeapAllocator({ size: 64, memory: null }), 0, Uint8Array)).toThrow(AllocatorError);
});

test('fixed-layout records: aligned fields, stride, views per record', () => {
  const Particle = defineRecord({ position: ['f32', 3], alive: 'u8', id: 'u32', mass: 'f64' });
  expect(Particle.fields).toEqual({
    position: { type: 'f32', offset: 0, count: 3 },
    alive: { type: 'u8', offset: 12, count: 1 },
    id: { type: 'u32', offset: 16, count: 1 },
    mass: { type: 'f64', offset: 24, count: 1 },
  });
  expect(Particle.size).toBe(32);
  expect(Particle.align).toBe(8);

  const heap = new HeapAllocator({ size: 4096 });
  const particles = allocateRecords(heap, Particle, 4);
  expect(heap.allocatedSize(particles)).toBe(128);
  for (let i = 0; i < 4; i++) {
    const p = recordViews(heap, Particle, particles, i);
    p.position.set([i, i + 1, i + 2]);
    p.id[0] = 100 + i;
    p.mass[0] = i / 2;
  }
  const third = recordViews(heap.memory!, Particle, particles, 2);
  expect(Array.from(third.position)).toEqual([2, 3, 4]);
  expect(third.id[0]).toBe(102);
  expect(third.mass[0]).toBe(1);
  expect(() => recordViews(heap, Particle, particles + 4)).toThrow(AllocationArgumentError);
  deallocateRecords(heap, particles);
  heap.destroy();
  expect(() => defineRecord({})).toThrow(AllocationArgumentError);
  expect(() => defineRecord({ bad: ['f32', 0] })).toThrow(AllocationArgumentError);
});

test('allocateView does not zero: a frame reused after reset hands back what it held', () => {
  const frame = new FrameAllocator({ size: 1024 });
  allocateView(frame, Float32Array, 64).fill(7);
  frame.reset();
  const again = allocateView(frame, Float32Array, 64);
  expect(again[0]).toBe(7);
  expect(again.fill(0).every((x) => x === 0)).toBe(true);
});
