// The plain TypeScript version of shaders/scan-common.wgsl: tile totals (the aggregates the tiles
// publish), each tile's prefix as the sum of the totals before it (what the look-back adds up),
// then each tile scanned from its prefix. u32 addition wraps at 2^32 on both sides, so the result
// also equals a sequential exclusive scan; the tests check both.
import { scanBlockFor } from '../scan-plan.ts';

/**
 * Exclusive prefix sum of `input`, wrapping at 2^32, computed as the subgroup GPU scan does: tile
 * totals, prefixes, tiles (of scanBlockFor(input.length) elements).
 */
export function exclusiveScanReference(input: Uint32Array): Uint32Array {
  const size = scanBlockFor(input.length);
  const tiles = Math.ceil(input.length / size);
  const totals = new Uint32Array(tiles);
  for (let tile = 0; tile < tiles; tile++) {
    let sum = 0;
    const end = Math.min(input.length, (tile + 1) * size);
    for (let i = tile * size; i < end; i++) sum = (sum + input[i]!) >>> 0;
    totals[tile] = sum;
  }
  const offsets = tiles > 1 ? exclusiveScanReference(totals) : new Uint32Array(1);
  const output = new Uint32Array(input.length);
  for (let tile = 0; tile < tiles; tile++) {
    let running = offsets[tile]!;
    const end = Math.min(input.length, (tile + 1) * size);
    for (let i = tile * size; i < end; i++) {
      output[i] = running;
      running = (running + input[i]!) >>> 0;
    }
  }
  return output;
}
