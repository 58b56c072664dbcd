/** Elements one workgroup scans: 256 invocations x 4 elements. */
export const SCAN_BLOCK = 1024;

/** Element counts of each level: the input, its block totals, their block totals, ... down to one block. */
export function scanLevels(count: number): number[] {
  const levels = [count];
  let current = count;
  while (current > SCAN_BLOCK) {
    current = Math.ceil(current / SCAN_BLOCK);
    levels.push(current);
  }
  return levels;
}
