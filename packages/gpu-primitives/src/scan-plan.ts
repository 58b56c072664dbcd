/** Which kernel a GpuScan runs: both give the same result. */
export type ScanVariant = 'portable' | 'subgroups';

/** Elements one workgroup scans: 256 invocations x 8 vec4 loads x 4 lanes. */
export const SCAN_BLOCK = 8192;

/**
 * Elements a tile of the subgroup variant holds in scans of at most {@link SMALL_SCAN_MAX}
 * elements: 256 invocations x 4 vec4 loads x 4 lanes. Twice the tiles keep more of a large GPU
 * busy when there are few of them (on an H200, 17% to 20% more bandwidth from 131,072 to
 * 3,145,728 elements; see BENCHMARKS.md).
 */
export const SMALL_SCAN_BLOCK = 4096;

/** The largest count the subgroup variant scans in tiles of {@link SMALL_SCAN_BLOCK}. */
export const SMALL_SCAN_MAX = 3_145_728; // 3 x 2^20

/** Elements per tile in a scan of `count` elements by `variant` (default `'subgroups'`). */
export function scanBlockFor(count: number, variant: ScanVariant = 'subgroups'): number {
  return variant === 'subgroups' && count <= SMALL_SCAN_MAX ? SMALL_SCAN_BLOCK : SCAN_BLOCK;
}

/** Tiles (workgroups) a scan of `count` elements takes with `variant` (default `'subgroups'`). */
export function scanTiles(count: number, variant: ScanVariant = 'subgroups'): number {
  return Math.ceil(count / scanBlockFor(count, variant));
}

/**
 * Words of a scan's status (a ticket counter and two words per tile) for `count` elements with
 * `variant` (default `'subgroups'`).
 */
export function scanStatusWords(count: number, variant: ScanVariant = 'subgroups'): number {
  return 1 + 2 * scanTiles(count, variant);
}

/**
 * Status words enough for a scan of any count up to `maxCount`, by either variant: small tiles
 * make more of them than `maxCount`'s own tiling where `maxCount` is above SMALL_SCAN_MAX.
 */
export function maxScanStatusWords(maxCount: number): number {
  return 1 + 2 * Math.max(scanTiles(maxCount, 'portable'), scanTiles(Math.min(maxCount, SMALL_SCAN_MAX), 'subgroups'));
}
