/** Keys one workgroup handles per pass: 256 invocations x 4 keys. */
export const RADIX_BLOCK = 1024;
/** Bits sorted per pass, and the digit values per pass (2^4). */
export const RADIX_BITS = 4;
export const RADIX = 16;

/** Passes needed for `keyBits` bits of key (a multiple of 4 in 4..32). */
export function radixPasses(keyBits: number): number {
  return keyBits / RADIX_BITS;
}
