// One glyph's distance field at a time, for atlases filled at run time: the same rectangles and
// field as the whole-font path (distanceFieldFontFromTtf), glyph by glyph.
import type { Font, Glyph } from 'opentype.js';
import type { GuiImage } from './api.ts';
import { distanceFieldImage } from './distance-transform.ts';
import { GuiError } from './errors.ts';
import { outlineDistanceField } from './outline-field.ts';
import { EdgeList, fillNonzero } from './rasterize.ts';
import { checkMethod, flattenGlyph, glyphBox, loadFont, OUTLINE_TOLERANCE, RASTER_TOLERANCE, type GlyphFieldMethod } from './ttf-layout.ts';

/** One glyph's distance field from {@link GlyphDistanceFields.draw}: a 1-channel image plus where to place it and how far to advance. */
export interface GlyphField extends GuiImage {
  /** Pen-relative position of the field's top-left texel, in output pixels (y down from the baseline). */
  left: number;
  /** Pen-relative position of the field's top texel row, in output pixels (negative above the baseline: y grows down). */
  top: number;
  /** Advance in output pixels. */
  advance: number;
}

/**
 * One glyph at a time, for atlases filled at run time (large character sets): each draw()
 * returns the glyph's distance field at `size`, reaching `spread` pixels past the outline. By
 * default (`method: 'outline'`) each texel's distance is measured from the outline itself; with
 * `method: 'raster'` the outline is rasterised at size x scale and transformed, as
 * rasterizeFont + distanceFieldFont do. Either way the same field as distanceFieldFontFromTtf
 * with the same options.
 */
export class GlyphDistanceFields {
  readonly #font: Font;
  readonly #scale: number;
  readonly #spread: number;
  readonly #size: number;
  readonly #method: GlyphFieldMethod;
  readonly #edges = new EdgeList();
  #mask = new Uint8Array(0);

  constructor(data: ArrayBuffer | Uint8Array, options: { size: number; scale?: number; spread?: number; method?: GlyphFieldMethod }) {
    this.#scale = options.scale ?? 8;
    this.#spread = options.spread ?? 4;
    if (!(options.size > 0) || !Number.isFinite(options.size) || !Number.isInteger(this.#scale) || this.#scale < 1 || !Number.isInteger(this.#spread) || this.#spread < 1) {
      throw new GuiError(`GlyphDistanceFields: size must be positive and scale, spread whole numbers >= 1 (got ${options.size}, ${this.#scale}, ${this.#spread}).`);
    }
    this.#method = checkMethod(options.method, 'GlyphDistanceFields');
    this.#font = loadFont(data);
    this.#size = options.size;
  }

  /**
   * Returns the distance field of `char` (its font glyph, or the font's missing-glyph glyph); a glyph with no outline (a space) gives an empty 0 by 0 image with its advance.
   */
  draw(char: string): GlyphField {
    const glyph = this.#font.charToGlyph(char);
    const advance = ((glyph.advanceWidth ?? 0) * this.#size) / this.#font.unitsPerEm;
    const edges = this.#edges;
    edges.count = 0;
    if (this.#method === 'raster') return this.#drawRaster(glyph, advance);
    flattenGlyph(glyph, this.#size, OUTLINE_TOLERANCE, edges);
    if (edges.count === 0) return { width: 0, height: 0, channels: 1, data: new Uint8Array(0), left: 0, top: 0, advance };
    const scale = this.#scale;
    const box = glyphBox(edges, scale, scale, scale * this.#spread);
    const left = box.left / scale;
    const top = box.top / scale;
    const width = box.width / scale;
    const height = box.height / scale;
    const e = edges.data;
    for (let i = 0; i < edges.count * 4; i += 2) {
      e[i] = e[i]! - left;
      e[i + 1] = e[i + 1]! - top;
    }
    const data = new Uint8Array(width * height);
    outlineDistanceField(edges, width, height, this.#spread, data, width, 0, 0);
    return { width, height, channels: 1, data, left, top, advance };
  }

  /** The raster method: the outline drawn at size x scale, then the exact distance transform. */
  #drawRaster(glyph: Glyph, advance: number): GlyphField {
    const scale = this.#scale;
    const edges = this.#edges;
    flattenGlyph(glyph, this.#size * scale, RASTER_TOLERANCE, edges);
    if (edges.count === 0) return { width: 0, height: 0, channels: 1, data: new Uint8Array(0), left: 0, top: 0, advance };
    const { left, top, width, height } = glyphBox(edges, 1, scale, scale * this.#spread);
    if (this.#mask.length < width * height) this.#mask = new Uint8Array(width * height);
    const mask = this.#mask.subarray(0, width * height);
    mask.fill(0);
    const data = edges.data;
    for (let i = 0; i < edges.count * 4; i += 2) {
      data[i] = data[i]! - left;
      data[i + 1] = data[i + 1]! - top;
    }
    fillNonzero(edges, mask, width, 0, 0, width, height);
    const field = distanceFieldImage(mask, width, height, { scale, spread: this.#spread });
    return { ...field, left: left / scale, top: top / scale, advance };
  }
}
