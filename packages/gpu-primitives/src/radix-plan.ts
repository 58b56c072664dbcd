/**
 * Keys each invocation ranks per pass. The block-local ranking costs eight scan rounds of the
 * packed digit counters per block whatever the block size, so 16 keys per invocation spreads
 * that cost over four times as many keys as 4 did (16-bit counters still hold a 4096-key block).
 */
export const RADIX_ITEMS = 16;
/** Keys one workgroup handles per pass: 256 invocations x RADIX_ITEMS. */
export const RADIX_BLOCK = 256 * RADIX_ITEMS;
/** Bits sorted per pass, and the digit values per pass (2^4). */
export const RADIX_BITS = 4;
export const RADIX = 16;

/** Passes needed for `keyBits` bits of key (a multiple of 4 in 4..32). */
export function radixPasses(keyBits: number): number {
  return keyBits / RADIX_BITS;
}
