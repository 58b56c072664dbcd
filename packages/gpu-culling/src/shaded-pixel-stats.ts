// What culling buys the shading: the entities a forward+ or tiled-deferred pass walks per pixel
// that holds a surface (sky and cleared pixels shade nothing). The figure to compare 2D with 2.5D
// tiles, tile sizes or techniques on a user's own frames.
import { TILE_INFO_WORDS, type CullReadback } from './tile-culler.ts';

/** Word of a tile's info holding its count of surface pixels (see CullReadback.tileInfo). */
const SURFACE_PIXELS_WORD = 9;

/** Mean entities per surface pixel of a culling readback (0 when no pixel holds a surface). */
export function entitiesPerShadedPixel(readback: Pick<CullReadback, 'entitiesPerTile' | 'tileInfoWords'>): number {
  const { entitiesPerTile, tileInfoWords } = readback;
  let weighted = 0, pixels = 0;
  for (let t = 0; t < entitiesPerTile.length; t++) {
    const surface = tileInfoWords[t * TILE_INFO_WORDS + SURFACE_PIXELS_WORD]!;
    weighted += entitiesPerTile[t]! * surface;
    pixels += surface;
  }
  return pixels === 0 ? 0 : weighted / pixels;
}
