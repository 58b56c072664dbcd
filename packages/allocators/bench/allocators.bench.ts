import { defineSuite, opsPerSecond, type BenchCase } from '@cuttle/bench';
import { MemPool } from '@thi.ng/malloc';
import { allocateView, FrameAllocator, HeapAllocator, PoolAllocator } from '../src/index.ts';

// Every contender gets the same buffer size and replays the same pre-generated trace, so the
// loop does no random-number work and both sides see identical requests.
const BUFFER = 64 * 1024 * 1024;
const LIVE = 1000;
const TRACE = 1 << 16;
const STEPS_PER_CALL = 1000;

/** Deterministic xorshift so runs are comparable. */
function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 0x1_0000_0000;
  };
}

/** Log-uniform sizes from 16 B to 64 KiB: many small requests, a long tail of big ones. */
function mixedSizes(count: number, seed: number): Uint32Array {
  const next = random(seed);
  const sizes = new Uint32Array(count);
  for (let i = 0; i < count; i++) sizes[i] = Math.round(16 * Math.pow(4096, next()));
  return sizes;
}

function victims(count: number, seed: number): Uint32Array {
  const next = random(seed);
  const picks = new Uint32Array(count);
  for (let i = 0; i < count; i++) picks[i] = Math.floor(next() * LIVE);
  return picks;
}

const SIZES = mixedSizes(TRACE, 1234);
const VICTIMS = victims(TRACE, 5678);

/** A churning workload: LIVE slots, each step frees one slot's block and allocates a new one into it. */
interface Churn {
  step(count: number): number;
}

function churn(alloc: (size: number) => number, free: (offset: number) => void, sizes: Uint32Array): Churn {
  const slots = new Int32Array(LIVE).fill(-1);
  let cursor = 0;
  for (let i = 0; i < LIVE; i++) slots[i] = alloc(sizes[i]!);
  return {
    step(count) {
      let sum = 0;
      for (let n = 0; n < count; n++) {
        const i = cursor;
        cursor = (cursor + 1) & (TRACE - 1);
        const slot = VICTIMS[i]!;
        const old = slots[slot]!;
        if (old >= 0) free(old);
        const offset = alloc(sizes[i]!);
        slots[slot] = offset;
        sum += offset;
      }
      return sum;
    },
  };
}

function ourHeapChurn(sizes: Uint32Array): Churn {
  const heap = new HeapAllocator({ size: BUFFER });
  return churn(
    (size) => heap.tryAllocate(size, 8) ?? -1,
    (offset) => {
      heap.deallocate(offset);
    },
    sizes,
  );
}

function thingChurn(sizes: Uint32Array): Churn {
  const pool = new MemPool({ size: BUFFER, align: 8 });
  return churn(
    (size) => pool.malloc(size) || -1,
    (offset) => {
      pool.free(offset);
    },
    sizes,
  );
}

/** Largest block that still allocates, by bisection: the same probe for every allocator. */
function largestAllocatable(tryAlloc: (size: number) => number, free: (offset: number) => void, upper: number): number {
  let lo = 0;
  let hi = upper;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi + 1) / 2 / 16) * 16;
    if (mid > hi) break;
    const offset = tryAlloc(mid);
    if (offset >= 0) {
      free(offset);
      lo = mid;
    } else {
      hi = mid - 16;
    }
  }
  return lo;
}

/** Replays a long trace with ~3x the live set of the speed runs, then asks how usable the free space is. */
type Contender = () => { alloc: (size: number) => number; free: (offset: number) => void; freeBytes: () => number };

/** Mean over four seeded traces: one trace alone swings a point or two either way. */
function fragmentation(make: Contender): number {
  const seeds = [99, 11, 12345, 777];
  return seeds.reduce((sum, seed) => sum + fragmentationAfterTrace(make, seed), 0) / seeds.length;
}

function fragmentationAfterTrace(make: Contender, seed: number): number {
  const { alloc, free, freeBytes } = make();
  const live = 3000;
  const sizes = mixedSizes(200_000 + live, seed);
  const next = random(seed + 1);
  const slots = new Int32Array(live).fill(-1);
  for (let i = 0; i < live; i++) slots[i] = alloc(sizes[i]!);
  for (let i = live; i < sizes.length; i++) {
    const slot = Math.floor(next() * live);
    if (slots[slot]! >= 0) free(slots[slot]!);
    slots[slot] = alloc(sizes[i]!);
  }
  const free_ = freeBytes();
  return (100 * largestAllocatable(alloc, free, free_)) / free_;
}

const ourFragmentation = (): number =>
  fragmentation(() => {
    const heap = new HeapAllocator({ size: BUFFER });
    return {
      alloc: (size) => heap.tryAllocate(size, 8) ?? -1,
      free: (offset) => {
        heap.deallocate(offset);
      },
      freeBytes: () => heap.stats().freeBytes,
    };
  });

const thingFragmentation = (): number =>
  fragmentation(() => {
    const pool = new MemPool({ size: BUFFER, align: 8 });
    return {
      alloc: (size) => pool.malloc(size) || -1,
      free: (offset) => {
        pool.free(offset);
      },
      freeBytes: () => pool.stats().available,
    };
  });

const FIXED = new Uint32Array(TRACE).fill(64);

/**
 * A 64-float array per op: ours from a FrameAllocator reset every 1000, against new
 * Float32Array and thi.ng's pool. new Float32Array zero-fills and the others do not, so the
 * `zeroed` row makes every contender hand back zeros (ours fills the view, thi.ng's callocAs
 * fills its array).
 */
function float32ArrayCase(thingViews: MemPool, zeroed: boolean): BenchCase {
  const frame = new FrameAllocator({ size: 1024 * 1024 });
  let count = 0;
  const thingAllocate = zeroed ? (): Float32Array | undefined => thingViews.callocAs('f32', 64) : (): Float32Array | undefined => thingViews.mallocAs('f32', 64);
  return {
    name: zeroed ? 'Float32Array(64) per op, zeroed' : 'Float32Array(64) per op',
    unit: 'ops/s',
    higherIsBetter: true,
    ours: () =>
      opsPerSecond(() => {
        if (++count === 1000) {
          frame.reset();
          count = 0;
        }
        const view = allocateView(frame, Float32Array, 64);
        return zeroed ? view.fill(0) : view;
      }),
    peers: {
      'new Float32Array': () => opsPerSecond(() => new Float32Array(64)),
      [zeroed ? '@thi.ng/malloc callocAs' : '@thi.ng/malloc mallocAs']: () =>
        opsPerSecond(() => {
          const view = thingAllocate();
          if (view) thingViews.free(view);
          return view;
        }),
    },
  };
}

export const suite = defineSuite({
  package: '@cuttle/allocators',
  rounds: 5,
  notes:
    `Buffer ${BUFFER / 1024 / 1024} MiB for every contender. Mixed: ${LIVE} live allocations, each step frees a random one and ` +
    'allocates a log-uniform size in 16 B..64 KiB (one op = one free + one allocate). Fixed-size churn: the same with 64 B blocks ' +
    '(ours: PoolAllocator; heap row: HeapAllocator). Frame bump: 1000 allocations of 16..1024 B, then reset (thi.ng: freeAll). ' +
    'Float32Array: a 64-float array per op (ours: allocateView on a FrameAllocator reset every 1000; GC: new Float32Array). ' +
    'new Float32Array zero-fills while allocateView and mallocAs hand back the memory as it was, so the zeroed row makes every ' +
    'contender return zeros (ours: allocateView then fill(0); thi.ng: callocAs). ' +
    'Fragmentation: mean over 4 seeds; after a 200k-step trace with 3000 live mixed allocations, the largest block that still allocates as % of free bytes (higher is better).',
  cases: (): BenchCase[] => {
    const ours = ourHeapChurn(SIZES);
    const thing = thingChurn(SIZES);
    const poolChurn = (() => {
      const pool = new PoolAllocator({ blockSize: 64, blockCount: BUFFER / 64 });
      return churn(
        () => pool.tryAllocate() ?? -1,
        (offset) => {
          pool.deallocate(offset);
        },
        FIXED,
      );
    })();
    const heapFixed = ourHeapChurn(FIXED);
    const thingFixed = thingChurn(FIXED);
    const frameSizes = mixedSizes(1000, 42).map((s) => 16 + (s % 1009));
    const frame = new FrameAllocator({ size: BUFFER });
    const thingFrame = new MemPool({ size: BUFFER, align: 8 });
    const thingViews = new MemPool({ size: 1024 * 1024, align: 8 });
    return [
      {
        name: 'mixed 16 B-64 KiB allocate+free',
        unit: 'ops/s',
        higherIsBetter: true,
        ours: () => opsPerSecond(() => ours.step(STEPS_PER_CALL), { opsPerCall: STEPS_PER_CALL }),
        peers: { '@thi.ng/malloc': () => opsPerSecond(() => thing.step(STEPS_PER_CALL), { opsPerCall: STEPS_PER_CALL }) },
      },
      {
        name: 'fixed 64 B churn (pool)',
        unit: 'ops/s',
        higherIsBetter: true,
        ours: () => opsPerSecond(() => poolChurn.step(STEPS_PER_CALL), { opsPerCall: STEPS_PER_CALL }),
        peers: { '@thi.ng/malloc': () => opsPerSecond(() => thingFixed.step(STEPS_PER_CALL), { opsPerCall: STEPS_PER_CALL }) },
      },
      {
        name: 'fixed 64 B churn (heap)',
        unit: 'ops/s',
        higherIsBetter: true,
        ours: () => opsPerSecond(() => heapFixed.step(STEPS_PER_CALL), { opsPerCall: STEPS_PER_CALL }),
        peers: { '@thi.ng/malloc': () => opsPerSecond(() => thingFixed.step(STEPS_PER_CALL), { opsPerCall: STEPS_PER_CALL }) },
      },
      {
        name: 'frame bump 1000 + reset',
        unit: 'allocs/s',
        higherIsBetter: true,
        ours: () =>
          opsPerSecond(
            () => {
              let sum = 0;
              for (let i = 0; i < 1000; i++) sum += frame.tryAllocate(frameSizes[i]!, 8) ?? 0;
              frame.reset();
              return sum;
            },
            { opsPerCall: 1000 },
          ),
        peers: {
          '@thi.ng/malloc': () =>
            opsPerSecond(
              () => {
                let sum = 0;
                for (let i = 0; i < 1000; i++) sum += thingFrame.malloc(frameSizes[i]!);
                thingFrame.freeAll();
                return sum;
              },
              { opsPerCall: 1000 },
            ),
        },
      },
      float32ArrayCase(thingViews, false),
      float32ArrayCase(thingViews, true),
      {
        name: 'fragmentation after 200k-step trace',
        unit: '% free usable',
        higherIsBetter: true,
        rounds: 1,
        ours: ourFragmentation,
        peers: { '@thi.ng/malloc': thingFragmentation },
      },
    ];
  },
});
