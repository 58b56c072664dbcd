// Sort inputs for the radix sort tests: xorshift32 keys, masked to `bits` so duplicates are
// common; values are the indices.
import { radixSortReference } from '../src/index.ts';

export function pairs(count: number, seed: number, bits = 32): { keys: Uint32Array<ArrayBuffer>; values: Uint32Array<ArrayBuffer> } {
  const keys = new Uint32Array(count);
  const values = Uint32Array.from({ length: count }, (_, i) => i);
  let x = seed || 1;
  const mask = bits === 32 ? 0xffffffff : (1 << bits) - 1;
  for (let i = 0; i < count; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    keys[i] = (x >>> 0) & mask;
  }
  return { keys, values };
}

/** The order a stable descending sort gives: ascending order of the inverted keys, ties by index. */
export function descendingReference(keys: Uint32Array<ArrayBuffer>, values: Uint32Array<ArrayBuffer>, keyBits = 32): { keys: Uint32Array; values: Uint32Array } {
  const order = radixSortReference(keys.map((key) => ~key >>> 0), values, keyBits).values;
  return { keys: Uint32Array.from(order, (i) => keys[i]!), values: order };
}

/**
 * f32 keys for the float-order tests: few distinct magnitudes (ties), both signs, tiny and huge
 * values, both zeros and both infinities; `order(descending)` is the index order a stable sort in
 * float order gives (-0 before +0), worked out with plain comparisons, no bit tricks.
 */
export function floatPairs(count: number): { floats: Float32Array; keys: Uint32Array<ArrayBuffer>; values: Uint32Array<ArrayBuffer>; order: (descending: boolean) => Uint32Array } {
  const floats = new Float32Array(count);
  let x = 12345;
  for (let i = 0; i < count; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    floats[i] = (((x >>> 0) % 2001) - 1000) * (i % 7 === 0 ? 1e-30 : i % 11 === 0 ? 1e30 : 0.125);
  }
  floats.set([-0, 0, Infinity, -Infinity, -0, 0], 100);
  const keys = new Uint32Array(floats.buffer);
  const values = Uint32Array.from({ length: count }, (_, i) => i);
  const compare = (p: number, q: number): number => (p < q ? -1 : p > q ? 1 : Number(Object.is(q, -0)) - Number(Object.is(p, -0)));
  const order = (descending: boolean): Uint32Array => Uint32Array.from(Array.from(values).sort((a, b) => (descending ? compare(floats[b]!, floats[a]!) : compare(floats[a]!, floats[b]!)) || a - b));
  return { floats, keys, values, order };
}
