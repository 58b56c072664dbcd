// Holds a GPU culling result against the reference: every tile's set must lie between the
// reference's certain and possible sets (decisions within f32 rounding of a boundary may go
// either way), compaction lists must be duplicate-free, counted right in their statistics word,
// sorted where they hold decals or probes, and full where they overflowed.
import type { EntityCounts, Technique } from '../api.ts';
import { FLAT_HEADER_WORDS, LIST_FORM, LIST_HEADER_WORDS } from '../shader-source.ts';
import { tileEntities, type CullReferenceResult } from './cull.ts';

/** How the GPU's tile buffer is laid out, to read it back for {@link compareTiles}. */
export interface TileLayout {
  /** The culler's technique. */
  technique: Technique;
  /** Words of entity bits per tile (flat bits): maxEntities / 32. */
  bucketsPerTile: number;
  /** u32 words per tile of the GPU's tile buffer. */
  wordsPerTile: number;
  /** Flat bits: words of bucket mask in front of each tile's buckets. */
  maskWords: number;
  /** Compaction: most entries per tile. */
  maxPerTile: number;
  /** Entity counts of the culled array. */
  counts: EntityCounts;
}

/** The result of {@link compareTiles}. */
export interface TileComparison {
  /** (tile, entity) pairs the reference certainly keeps, and pairs within rounding of a decision. */
  certain: number;
  /** (tile, entity) pairs within rounding of a decision, accepted either way. */
  borderline: number;
  /** What disagrees, one line each (empty when the GPU result is right); at most 20 lines. */
  errors: string[];
}

/** The entity indices of tile `t` in a GPU tile buffer (flat bits or a compaction list). */
export function gpuTileEntities(tiles: Uint32Array, layout: TileLayout, t: number): number[] {
  if (layout.technique === 'flat-bits') {
    const base = t * layout.wordsPerTile;
    const header = tiles[base]!;
    // List form: the header counts each kind (decals and probes in 10 bits, lights in 11), the entries follow it.
    if (header & LIST_FORM) {
      const count = (header & 0x3ff) + ((header >>> 10) & 0x3ff) + ((header >>> 20) & 0x7ff);
      return Array.from(tiles.subarray(base + LIST_HEADER_WORDS, base + LIST_HEADER_WORDS + count));
    }
    // Bits form: buckets count only where the mask says they hold something (the others are not written).
    const out: number[] = [];
    const bits = base + FLAT_HEADER_WORDS;
    for (let b = 0; b < layout.bucketsPerTile; b++) {
      if (((tiles[bits + (b >>> 5)]! >>> (b & 31)) & 1) === 0) continue;
      for (let word = tiles[bits + layout.maskWords + b]!; word !== 0; word &= word - 1) out.push(b * 32 + 31 - Math.clz32(word & -word));
    }
    return out;
  }
  const base = t * layout.wordsPerTile;
  const header = tiles[base]!;
  const count = (header & 0x3ff) + ((header >>> 10) & 0x3ff) + ((header >>> 20) & 0x3ff);
  return Array.from(tiles.subarray(base + 1, base + 1 + Math.min(count, layout.maxPerTile)));
}

/** Checks a GPU culling result (`tiles`, `entitiesPerTile` as read back) against the TypeScript reference's: every entity the reference certainly keeps must be in its tile, and nothing it certainly rejects. */
export function compareTiles(tiles: Uint32Array, entitiesPerTile: Uint32Array, layout: TileLayout, reference: CullReferenceResult): TileComparison {
  const buckets = reference.bucketsPerTile;
  const tileCount = reference.tiles.surfacePixels.length;
  const { decals, probes } = layout.counts;
  const errors: string[] = [];
  const fail = (message: string): void => {
    if (errors.length < 20) errors.push(message);
  };
  let certain = 0, borderline = 0;
  for (let t = 0; t < tileCount; t++) {
    const definite = tileEntities(reference.definite, buckets, t);
    const possible = new Set(tileEntities(reference.possible, buckets, t));
    certain += definite.length;
    borderline += possible.size - definite.length;
    const gpu = gpuTileEntities(tiles, layout, t);
    const seen = new Set(gpu);
    if (seen.size !== gpu.length) fail(`tile ${t} lists an entity twice: ${gpu.join(',')}`);
    for (const e of gpu) if (!possible.has(e)) fail(`tile ${t}: the GPU keeps entity ${e}, which the reference culls`);
    if (entitiesPerTile[t] !== gpu.length) fail(`tile ${t}: the count says ${entitiesPerTile[t]}, the tile holds ${gpu.length}`);
    // Compaction lists and flat-bits tiles in list form count decals and probes in their header alike.
    const header = tiles[t * layout.wordsPerTile]!;
    const compaction = layout.technique === 'compaction';
    const kinds = [gpu.filter((e) => e < decals).length, gpu.filter((e) => e >= decals && e < decals + probes).length];
    if (compaction || header & LIST_FORM) {
      const word = compaction ? 'the statistics word' : "the list form's header";
      if ((header & 0x3ff) !== kinds[0] || ((header >>> 10) & 0x3ff) !== kinds[1]) fail(`tile ${t}: ${word} counts ${header & 0x3ff} decals and ${(header >>> 10) & 0x3ff} probes, the list holds ${kinds[0]} and ${kinds[1]}`);
    }
    if (!compaction && header & LIST_FORM && gpu.some((e, i) => i > 0 && e <= gpu[i - 1]!)) fail(`tile ${t}'s list is not in ascending order: ${gpu.join(',')}`);
    if (compaction) {
      if (kinds[0]! + kinds[1]! > 0 && gpu.some((e, i) => i > 0 && e < gpu[i - 1]!)) fail(`tile ${t} holds decals or probes but its list is not sorted: ${gpu.join(',')}`);
      if ((header >>> 30) & 1) {
        if (gpu.length !== layout.maxPerTile) fail(`tile ${t} overflowed but holds ${gpu.length} of ${layout.maxPerTile}`);
        continue;
      }
    }
    for (const e of definite) if (!seen.has(e)) fail(`tile ${t}: the GPU misses entity ${e}, which the reference certainly keeps`);
  }
  return { certain, borderline, errors };
}
