/** Elements one workgroup scans: 256 invocations x 8 vec4 loads x 4 lanes. */
export const SCAN_BLOCK = 8192;

/** Tiles (workgroups) a scan of `count` elements takes. */
export function scanTiles(count: number): number {
  return Math.ceil(count / SCAN_BLOCK);
}
