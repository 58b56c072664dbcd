// The plain TypeScript version of the radix sort kernels: per pass, digit counts per block of
// `plan.block` keys laid out digit-major, an exclusive scan of that table, then each block's
// keys scattered to offset[digit, block] + their rank among the block's keys with that digit.
// Both kernels (portable and subgroups) compute exactly this; they differ in how they rank.
import { PORTABLE_RADIX_PLAN, type RadixPlan, radixPasses } from '../radix-plan.ts';
import { exclusiveScanReference } from './scan.ts';

/** Sorts (keys, values) pairs by the low `keyBits` bits of the key, stably, as GpuRadixSort does. */
export function radixSortReference(
  keys: Uint32Array,
  values: Uint32Array,
  keyBits = 32,
  plan: RadixPlan = PORTABLE_RADIX_PLAN,
): { keys: Uint32Array; values: Uint32Array } {
  let srcKeys = keys.slice();
  let srcValues = values.slice();
  let dstKeys = new Uint32Array(keys.length);
  let dstValues = new Uint32Array(keys.length);
  const blocks = Math.ceil(keys.length / plan.block);
  const counts = new Uint32Array(plan.radix * blocks);
  const seen = new Uint32Array(plan.radix);
  const passes = radixPasses(keyBits, plan.bits);
  for (let pass = 0; pass < passes; pass++) {
    const shift = pass * plan.bits;
    // The last pass sorts only the bits left when keyBits is not a multiple of plan.bits.
    const mask = (1 << Math.min(plan.bits, keyBits - shift)) - 1;
    counts.fill(0);
    for (let i = 0; i < srcKeys.length; i++) {
      const block = Math.floor(i / plan.block);
      counts[((srcKeys[i]! >>> shift) & mask) * blocks + block]!++;
    }
    const offsets = exclusiveScanReference(counts);
    for (let block = 0; block < blocks; block++) {
      seen.fill(0);
      const end = Math.min(srcKeys.length, (block + 1) * plan.block);
      for (let i = block * plan.block; i < end; i++) {
        const digit = (srcKeys[i]! >>> shift) & mask;
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
