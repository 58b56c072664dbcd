/** Elements one workgroup scans: 256 invocations x 8 vec4 loads x 4 lanes. */
export const SCAN_BLOCK = 8192;

/** Tiles (workgroups) a scan of `count` elements takes. */
export function scanTiles(count: number): number {
  return Math.ceil(count / SCAN_BLOCK);
}

/** Words of a scan's status (a ticket counter and two words per tile) for `count` elements. */
export function scanStatusWords(count: number): number {
  return 1 + 2 * scanTiles(count);
}
