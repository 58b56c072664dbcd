// Sort inputs for the radix sort tests: xorshift32 keys, masked to `bits` so duplicates are
// common; values are the indices.
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
