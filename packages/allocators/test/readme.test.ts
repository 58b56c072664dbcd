// The README's examples, run as written (only `expect` lines added).
import { expect, test } from 'vitest';
import {
  FrameAllocator,
  HeapAllocator,
  MemoryLeakError,
  PageAllocator,
  PoolAllocator,
  ProxyAllocator,
  allocateView,
  defineRecord,
  allocateRecords,
  recordViews,
  formatMemoryReport,
  memoryReport,
} from '../src/index.ts';

test('README: set up, use and tear down an allocator tree', () => {
  // The bootstrap: one root that owns the memory, everything else backed by it.
  const pages = new PageAllocator({ name: 'pages', pageSize: 64 * 1024, initialPages: 16 });
  const heap = new HeapAllocator({ name: 'heap', backing: pages, size: 512 * 1024, grow: true });

  // Per-subsystem tracking: ProxyAllocator("sound", default_allocator()).
  const sound = new ProxyAllocator('sound', heap);
  const voices = new PoolAllocator({ name: 'voices', backing: sound, blockSize: 48, blockCount: 256 });
  const frame = new FrameAllocator({ name: 'frame', backing: heap, size: 64 * 1024 });

  // allocate(size, align) gives an offset; views alias the memory without copying.
  const samples = sound.allocate(4096, 16);
  const pcm = new Float32Array(sound.memory!, samples, 1024);
  pcm.fill(0.5);

  // make_new / make_delete for fixed-layout records.
  const Voice = defineRecord({ gain: 'f32', pitch: 'f32', sample: 'u32', playing: 'u8' });
  const voice = allocateRecords(voices, Voice);
  const v = recordViews(voices, Voice, voice);
  v.gain[0] = 0.8;
  v.sample[0] = samples;

  // Per frame: bump, then reset.
  const scratch = allocateView(frame, Float32Array, 256);
  scratch[0] = 1;
  frame.reset();

  const overview = formatMemoryReport(memoryReport(pages));
  expect(overview).toContain('   ├─ sound (ProxyAllocator)  16.0 KiB  in 2 allocation(s)');
  const report = memoryReport(pages);
  expect(report.children[0]!.children.map((c) => c.name)).toEqual(['sound', 'frame']);
  expect(report.children[0]!.children[0]!.children[0]).toMatchObject({ name: 'voices', allocationCount: 1 });

  // destroy() is the destructor's assert: a leak names the subsystem and every live block.
  let leak: unknown;
  try {
    sound.destroy();
  } catch (error) {
    leak = error;
  }
  expect(leak).toBeInstanceOf(MemoryLeakError);
  expect((leak as MemoryLeakError).message).toContain('sound (still backing: voices) was destroyed with 2 live allocation(s), 16384 B.');
  expect((leak as MemoryLeakError).allocations.map((a) => [a.offset, a.size])).toEqual([
    [0, 12288],
    [samples, 4096],
  ]);
  expect(samples).toBe(77824);

  voices.deallocate(voice);
  voices.destroy();
  sound.deallocate(samples);
  sound.destroy();
  frame.destroy();
  heap.destroy();
  pages.destroy();
});
