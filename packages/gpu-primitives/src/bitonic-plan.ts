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
  entry: 'local_sort' | 'global_step' | 'local_merge';
  k: number;
  j: number;
}

/** The dispatches that sort `n` (a power of two >= 512) pairs, in order. */
export function bitonicSchedule(n: number): BitonicDispatch[] {
  const steps: BitonicDispatch[] = [{ entry: 'local_sort', k: BITONIC_BLOCK, j: 0 }];
  for (let k = 2 * BITONIC_BLOCK; k <= n; k *= 2) {
    for (let j = k / 2; j >= BITONIC_BLOCK; j /= 2) steps.push({ entry: 'global_step', k, j });
    steps.push({ entry: 'local_merge', k, j: BITONIC_BLOCK / 2 });
  }
  return steps;
}
