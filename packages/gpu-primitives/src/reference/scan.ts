// The plain TypeScript version of shaders/scan.wgsl: blocks of 1024 scanned locally, block
// totals scanned level by level, offsets added back. Integer addition wraps at 2^32, as u32 does
// on the GPU, so the result equals a sequential exclusive scan; the tests check both.
import { SCAN_BLOCK } from '../scan-plan.ts';

/** Exclusive prefix sum of `input`, wrapping at 2^32, computed block-wise as on the GPU. */
export function exclusiveScanReference(input: Uint32Array): Uint32Array {
  const output = new Uint32Array(input.length);
  const blocks = Math.ceil(input.length / SCAN_BLOCK);
  const sums = new Uint32Array(blocks);
  for (let block = 0; block < blocks; block++) {
    let running = 0;
    const end = Math.min(input.length, (block + 1) * SCAN_BLOCK);
    for (let i = block * SCAN_BLOCK; i < end; i++) {
      output[i] = running;
      running = (running + input[i]!) >>> 0;
    }
    sums[block] = running;
  }
  if (blocks > 1) {
    const offsets = exclusiveScanReference(sums);
    for (let i = 0; i < input.length; i++) output[i] = (output[i]! + offsets[Math.floor(i / SCAN_BLOCK)]!) >>> 0;
  }
  return output;
}
