// One KTX2 file's levels transcoded by the Basis module, the part that runs on any thread: it
// reports how it ended as a number (no Error crosses a worker's shared memory) and imports
// nothing but the module, so the frame workers' kernel bundle stays small.
import type { BasisModule, TranscodeTarget } from './basis-module.ts';

/**
 * How transcodeLevels ended: a small integer, so a frame worker can report it through shared
 * memory; the failed level sits above the low 4 bits. 0 is left for "not run".
 */
export const TranscodeOutcome = { ok: 1, notAccepted: 2, notStarted: 3, wrongSize: 4, levelFailed: 5 } as const;

const outcome = (code: number, level = 0): number => code | (level << 4);

/**
 * Transcodes every level of a checked KTX2 file to `target`, each into its own array of exactly
 * that level's bytes (fresh ones, or views of shared memory on a worker). Returns a
 * TranscodeOutcome code; transcodeFailure says what a failure code means.
 */
export function transcodeLevels(basis: BasisModule, ktx2: Uint8Array, target: TranscodeTarget, levels: readonly Uint8Array[]): number {
  const file = new basis.KTX2File(ktx2);
  try {
    if (!file.isValid() || !(file.isETC1S() || file.isUASTC())) return outcome(TranscodeOutcome.notAccepted);
    if (!file.startTranscoding()) return outcome(TranscodeOutcome.notStarted);
    for (let level = 0; level < levels.length; level++) {
      const out = levels[level]!;
      if (file.getImageTranscodedSizeInBytes(level, 0, 0, target) !== out.byteLength) return outcome(TranscodeOutcome.wrongSize, level);
      if (!file.transcodeImage(out, level, 0, 0, target, 0, -1, -1)) return outcome(TranscodeOutcome.levelFailed, level);
    }
    return outcome(TranscodeOutcome.ok);
  } finally {
    file.close();
    file.delete();
  }
}

