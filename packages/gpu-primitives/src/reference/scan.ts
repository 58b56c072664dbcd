// The plain TypeScript version of shaders/scan.wgsl: tile totals (the aggregates the tiles
// publish), each tile's prefix as the sum of the totals before it (what the look-back adds up),
// then each tile scanned from its prefix. u32 addition wraps at 2^32 on both sides, so the result
// also equals a sequential exclusive scan; the tests check both.
import { SCAN_BLOCK } from '../scan-plan.ts';

/** Exclusive prefix sum of `input`, wrapping at 2^32, computed as the GPU does: tile totals, prefixes, tiles. */
export function exclusiveScanReference(input: Uint32Array): Uint32Array {
  const blocks = Math.ceil(input.length / SCAN_BLOCK);
  const totals = new Uint32Array(blocks);
  for (let block = 0; block < blocks; block++) {
    let sum = 0;
    const end = Math.min(input.length, (block + 1) * SCAN_BLOCK);
    for (let i = block * SCAN_BLOCK; i < end; i++) sum = (sum + input[i]!) >>> 0;
    totals[block] = sum;
  }
  const offsets = blocks > 1 ? exclusiveScanReference(totals) : new Uint32Array(1);
  const output = new Uint32Array(input.length);
  for (let block = 0; block < blocks; block++) {
    let running = offsets[block]!;
    const end = Math.min(input.length, (block + 1) * SCAN_BLOCK);
    for (let i = block * SCAN_BLOCK; i < end; i++) {
      output[i] = running;
      running = (running + input[i]!) >>> 0;
    }
  }
  return output;
}
