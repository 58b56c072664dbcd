// The shared-memory layout of a parallel texture load: every KTX2 file one after another in
// `files`, every transcoded level one after another in `output`, and one record per texture in
// `table` (a Float64Array: byte offsets past 2^31 stay exact), `stride` numbers apart:
//   [file offset, file length, transcoder target, level count, output offset, level 0 bytes, level 1 bytes, ...]
// The main thread plans every offset and size; a kernel only transcodes into its ranges.
import type { BasisModule, TranscodeTarget } from '../../textures/basis-module.ts';
import { transcodeLevels } from '../../textures/transcode-levels.ts';

export const RECORD_HEAD = 5;

/** Numbers per record for textures of at most `maxLevels` levels. */
export const recordStride = (maxLevels: number): number => RECORD_HEAD + maxLevels;

/**
 * Transcodes texture record `index` into its ranges of `output`; returns the TranscodeOutcome
 * code. A record that points outside the buffers is a planning bug, not bad data: it throws.
 */
export function transcodeRecord(basis: BasisModule, files: Uint8Array, table: Float64Array, stride: number, output: Uint8Array, index: number): number {
  const at = index * stride;
  const fileOffset = table[at]!;
  const fileEnd = fileOffset + table[at + 1]!;
  const levelCount = table[at + 3]!;
  let offset = table[at + 4]!;
  if (fileEnd > files.length || levelCount > stride - RECORD_HEAD) throw new RangeError(`texture record ${index} points outside the load's shared buffers (file bytes ${fileOffset}-${fileEnd} of ${files.length}, ${levelCount} levels)`);
  const levels: Uint8Array[] = [];
  for (let level = 0; level < levelCount; level++) {
    const end = offset + table[at + RECORD_HEAD + level]!;
    if (end > output.length) throw new RangeError(`texture record ${index}'s level ${level} ends at byte ${end}, past the ${output.length} of the load's output buffer`);
    levels.push(output.subarray(offset, end));
    offset = end;
  }
  return transcodeLevels(basis, files.subarray(fileOffset, fileEnd), table[at + 2] as TranscodeTarget, levels);
}
