/** Elements one workgroup sorts in workgroup memory: 256 invocations x 2. */
export const BITONIC_BLOCK = 512;

/** The padded length a bitonic sort of `count` pairs works on: a power of two, at least one block. */
export function bitonicLength(count: number): number {
  let n = BITONIC_BLOCK;
  while (n < count) n *= 2;
  return n;
}

/** One dispatch of the sort network. */
export interface BitonicDispatch {
  /** The kernel entry point: `'local_sort'` sorts each block in workgroup memory, `'global_step'` runs one compare-exchange step across blocks, `'local_merge'` finishes a merge inside each block. */
  entry: 'local_sort' | 'global_step' | 'local_merge';
  /** Size of the bitonic sequences being merged (a power of two, at least {@link BITONIC_BLOCK}). */
  k: number;
  /** Distance between compared elements (a power of two below `k`; for `'local_merge'` the first of the in-block steps; 0 for `'local_sort'`). */
  j: number;
}

/** The dispatches that sort `n` (a power of two, at least 512) pairs, in order. */
export function bitonicSchedule(n: number): BitonicDispatch[] {
  const steps: BitonicDispatch[] = [{ entry: 'local_sort', k: BITONIC_BLOCK, j: 0 }];
  for (let k = 2 * BITONIC_BLOCK; k <= n; k *= 2) {
    for (let j = k / 2; j >= BITONIC_BLOCK; j /= 2) steps.push({ entry: 'global_step', k, j });
    steps.push({ entry: 'local_merge', k, j: BITONIC_BLOCK / 2 });
  }
  return steps;
}
