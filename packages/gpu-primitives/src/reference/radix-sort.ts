// The plain TypeScript version of shaders/radix-sort.wgsl: per pass, digit counts per block of
// RADIX_BLOCK keys laid out digit-major, an exclusive scan of that table, then each block's keys
// scattered to offset[digit, block] + their rank among the block's keys with that digit.
import { RADIX, RADIX_BITS, RADIX_BLOCK, radixPasses } from '../radix-plan.ts';
import { exclusiveScanReference } from './scan.ts';

/** Sorts (keys, values) pairs by the low `keyBits` bits of the key, stably, as GpuRadixSort does. */
export function radixSortReference(keys: Uint32Array, values: Uint32Array, keyBits = 32): { keys: Uint32Array; values: Uint32Array } {
  let srcKeys = keys.slice();
  let srcValues = values.slice();
  let dstKeys = new Uint32Array(keys.length);
  let dstValues = new Uint32Array(keys.length);
  const blocks = Math.ceil(keys.length / RADIX_BLOCK);
  const counts = new Uint32Array(RADIX * blocks);
  const seen = new Uint32Array(RADIX);
  for (let pass = 0; pass < radixPasses(keyBits); pass++) {
    const shift = pass * RADIX_BITS;
    counts.fill(0);
    for (let i = 0; i < srcKeys.length; i++) {
      const block = Math.floor(i / RADIX_BLOCK);
      counts[((srcKeys[i]! >>> shift) & (RADIX - 1)) * blocks + block]!++;
    }
    const offsets = exclusiveScanReference(counts);
    for (let block = 0; block < blocks; block++) {
      seen.fill(0);
      const end = Math.min(srcKeys.length, (block + 1) * RADIX_BLOCK);
      for (let i = block * RADIX_BLOCK; i < end; i++) {
        const digit = (srcKeys[i]! >>> shift) & (RADIX - 1);
        const target = offsets[digit * blocks + block]! + seen[digit]!++;
        dstKeys[target] = srcKeys[i]!;
        dstValues[target] = srcValues[i]!;
      }
    }
    [srcKeys, dstKeys] = [dstKeys, srcKeys];
    [srcValues, dstValues] = [dstValues, srcValues];
  }
  return { keys: srcKeys, values: srcValues };
}
