// The plain TypeScript version of shaders/bitonic-sort.wgsl: the same padding to a power of
// two with all-ones pairs, the same network of compare-exchanges, the same (key, value) order.
import { bitonicLength } from '../bitonic-plan.ts';

/** Sorts (key, value) pairs by key then value with the bitonic network GpuBitonicSort runs. */
export function bitonicSortReference(keys: Uint32Array, values: Uint32Array): { keys: Uint32Array; values: Uint32Array } {
  const n = bitonicLength(keys.length);
  const k = new Uint32Array(n).fill(0xffffffff);
  const v = new Uint32Array(n).fill(0xffffffff);
  k.set(keys);
  v.set(values);
  for (let stage = 2; stage <= n; stage *= 2) {
    for (let stride = stage >> 1; stride >= 1; stride >>= 1) {
      for (let t = 0; t < n / 2; t++) {
        const i = 2 * stride * Math.floor(t / stride) + (t % stride);
        const partner = i + stride;
        const ascending = (i & stage) === 0;
        const greater = k[i]! > k[partner]! || (k[i] === k[partner] && v[i]! > v[partner]!);
        if (greater === ascending) {
          [k[i], k[partner]] = [k[partner]!, k[i]!];
          [v[i], v[partner]] = [v[partner]!, v[i]!];
        }
      }
    }
  }
  return { keys: k.slice(0, keys.length), values: v.slice(0, keys.length) };
}
