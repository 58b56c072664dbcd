// What every contender of the benchmarks must have written, checked once before anything is
// timed: a Dispatch adds `index + i` to float i of each item exactly once, a small job writes
// the sum of its 256 ones.
import { FLOATS_PER_ITEM } from './kernels.ts';

export class BenchCheckError extends Error {
  override readonly name = 'BenchCheckError';
}

/** Zeroes `data`, runs `dispatch`, and throws unless every item was computed exactly once. */
export async function checkDispatch(who: string, data: Float32Array, dispatch: () => unknown): Promise<void> {
  data.fill(0);
  await dispatch();
  const items = data.length / FLOATS_PER_ITEM;
  for (let index = 0; index < items; index++) {
    const base = index * FLOATS_PER_ITEM;
    for (let i = 0; i < FLOATS_PER_ITEM; i++) {
      // index + i stays below 2^24, so the float holds it exactly.
      if (data[base + i] !== index + i) throw new BenchCheckError(`${who}: item ${index} float ${i} is ${data[base + i]}, expected ${index + i} (computed not exactly once).`);
    }
  }
}

/** Zeroes `sums`, runs `jobs`, and throws unless every slot holds the sum of its 256 values. */
export async function checkSums(who: string, values: Float32Array, sums: Float32Array, jobs: () => unknown): Promise<void> {
  sums.fill(0);
  await jobs();
  for (let slot = 0; slot < sums.length; slot++) {
    let sum = 0;
    for (let i = 0; i < 256; i++) sum += values[slot * 256 + i]!;
    const want = Math.fround(sum); // what a Float32Array slot holds of the kernel's double sum
    if (sums[slot] !== want) throw new BenchCheckError(`${who}: slot ${slot} sums to ${sums[slot]}, expected ${want}.`);
  }
}
