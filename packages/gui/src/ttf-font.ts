// TrueType/OpenType to AngelCode font: opentype.js parses the file, the package's own
// rasteriser draws each glyph at `scale` times the wanted size with scale x spread pixels of
// padding, glyphs are shelf-packed into pages, and the result is what AngelCode's generator
// would have written; distanceFieldFontFromTtf then runs the post's tool on it.
import { parse, type Font, type Glyph } from 'opentype.js';
import type { BMFont, BMFontChar, BMFontKerning, GuiImage } from './api.ts';
import { distanceFieldFont, type FontWithPages } from './distance-field-font.ts';
import { distanceFieldImage } from './distance-transform.ts';
import { GuiError } from './errors.ts';
import { EdgeList, fillNonzero, flattenOutline } from './rasterize.ts';

/** Options of the TrueType/OpenType to distance-field font conversion; only `size` is required. */
export interface TtfFontOptions {
  /** Pixel size of the em in the output font. */
  size: number;
  /** Rasterisation factor: glyphs are drawn at size x scale (default 8). */
  scale?: number;
  /** Distance-field reach beyond the outline in output pixels (default 4). */
  spread?: number;
  /** Characters to include (default: printable ASCII, plus U+FFFD when the font has it). */
  chars?: string;
  /** Edge of the square output pages in pixels (default 256). */
  pageSize?: number;
  /** Page file names are `${name}_${page}.png` (default: the font's family name, lower case). */
  name?: string;
}

const DEFAULT_CHARS = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('') + '\uFFFD';

function loadFont(data: ArrayBuffer | Uint8Array): Font {
  const buffer = data instanceof Uint8Array ? data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) : data;
  try {
    return parse(buffer);
  } catch (error) {
    throw new GuiError(`not a TrueType/OpenType font opentype.js can read: ${error instanceof Error ? error.message : String(error)}`);
  }
}

interface PlacedGlyph {
  id: number;
  glyph: Glyph;
  edges: EdgeList;
  /** Ink box in pixels relative to the pen on the baseline, padded. */
  left: number;
  top: number;
  width: number;
  height: number;
  page: number;
  x: number;
  y: number;
}

/**
 * Draws the glyphs of a TTF/OTF at `size x scale` pixels into hard-edged pages, as a
 * high-resolution AngelCode font padded for a distance field of `spread` output pixels.
 */
export function rasterizeFont(data: ArrayBuffer | Uint8Array, options: TtfFontOptions): FontWithPages {
  const scale = options.scale ?? 8;
  const spread = options.spread ?? 4;
  const pageSize = options.pageSize ?? 256;
  if (!(options.size > 0) || !Number.isFinite(options.size)) throw new GuiError(`rasterizeFont: size must be a positive number of pixels, got ${options.size}.`);
  if (!Number.isInteger(scale) || scale < 1) throw new GuiError(`rasterizeFont: scale must be a whole number >= 1, got ${scale}.`);
  if (!Number.isInteger(spread) || spread < 1) throw new GuiError(`rasterizeFont: spread must be a whole number >= 1, got ${spread}.`);
  if (!Number.isInteger(pageSize) || pageSize < 16) throw new GuiError(`rasterizeFont: pageSize must be a whole number >= 16, got ${pageSize}.`);
  const font = loadFont(data);
  const pixels = options.size * scale;
  const k = pixels / font.unitsPerEm;
  const pad = scale * spread;
  const page = pageSize * scale;
  const ids = [...new Set(Array.from(options.chars ?? DEFAULT_CHARS, (c) => c.codePointAt(0)!))];
  const placed: PlacedGlyph[] = [];
  for (const id of ids) {
    const glyph = font.charToGlyph(String.fromCodePoint(id));
    if (glyph.index === 0 && id !== 0) continue; // not in the font: layout shows the replacement
    const edges = new EdgeList();
    flattenOutline(glyph.getPath(0, 0, pixels).commands, edges);
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (let i = 0; i < edges.count * 4; i += 2) {
      minX = Math.min(minX, edges.data[i]!);
      maxX = Math.max(maxX, edges.data[i]!);
      minY = Math.min(minY, edges.data[i + 1]!);
      maxY = Math.max(maxY, edges.data[i + 1]!);
    }
    // Rectangles, offsets and positions are whole multiples of the scale, so that every
    // measurement divides exactly and no glyph moves by a rounding when scaled down.
    const empty = edges.count === 0;
    const align = (v: number): number => Math.floor(v / scale) * scale;
    const alignUp = (v: number): number => Math.ceil(v / scale) * scale;
    const left = empty ? 0 : align(minX - pad);
    const top = empty ? 0 : align(minY - pad);
    placed.push({ id, glyph, edges, left, top, width: empty ? 0 : alignUp(maxX + pad) - left, height: empty ? 0 : alignUp(maxY + pad) - top, page: 0, x: 0, y: 0 });
  }
  // Shelf packing, tallest first.
  const order = placed.filter((g) => g.width > 0).sort((a, b) => b.height - a.height);
  let pageIndex = 0;
  let shelfY = 0;
  let shelfHeight = 0;
  let cursorX = 0;
  for (const g of order) {
    if (g.width > page || g.height > page) throw new GuiError(`rasterizeFont: glyph U+${g.id.toString(16).toUpperCase().padStart(4, '0')} needs ${g.width}x${g.height} pixels but pages are ${page}x${page}; raise pageSize or lower size/scale.`);
    if (cursorX + g.width > page) {
      shelfY += shelfHeight;
      shelfHeight = 0;
      cursorX = 0;
    }
    if (shelfY + g.height > page) {
      pageIndex++;
      shelfY = 0;
      shelfHeight = 0;
      cursorX = 0;
    }
    g.page = pageIndex;
    g.x = cursorX;
    g.y = shelfY;
    cursorX += g.width;
    shelfHeight = Math.max(shelfHeight, g.height);
  }
  const pageCount = pageIndex + 1;
  const images: GuiImage[] = Array.from({ length: pageCount }, () => ({ width: page, height: page, channels: 1 as const, data: new Uint8Array(page * page) }));
  const translated = new EdgeList();
  for (const g of order) {
    translated.count = 0;
    const dx = g.x - g.left;
    const dy = g.y - g.top;
    for (let i = 0; i < g.edges.count * 4; i += 4) translated.add(g.edges.data[i]! + dx, g.edges.data[i + 1]! + dy, g.edges.data[i + 2]! + dx, g.edges.data[i + 3]! + dy);
    fillNonzero(translated, images[g.page]!.data, page, g.x, g.y, g.x + g.width, g.y + g.height);
  }
  const hhea = font.tables.hhea as { ascender?: number; descender?: number; lineGap?: number } | undefined;
  const ascender = hhea?.ascender ?? font.ascender;
  const descender = hhea?.descender ?? font.descender;
  const base = Math.round((ascender * k) / scale) * scale;
  const chars: BMFontChar[] = placed.map((g) => ({
    id: g.id,
    x: g.x,
    y: g.y,
    width: g.width,
    height: g.height,
    xoffset: g.left,
    yoffset: g.width > 0 ? base + g.top : 0,
    xadvance: Math.round(((g.glyph.advanceWidth ?? 0) * k) / scale) * scale,
    page: g.page,
    chnl: 15,
  }));
  const kernings: BMFontKerning[] = [];
  const pairs = font.kerningPairs;
  const useGpos = placed.length <= 256;
  for (const a of placed) {
    for (const b of placed) {
      let units = useGpos ? font.getKerningValue(a.glyph, b.glyph) : 0;
      if (units === 0) units = pairs[`${a.glyph.index},${b.glyph.index}`] ?? 0;
      const amount = Math.round(units * k);
      if (amount !== 0) kernings.push({ first: a.id, second: b.id, amount });
    }
  }
  const family = (font.names.fontFamily as Record<string, string> | undefined)?.en ?? 'font';
  const name = options.name ?? family.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const bmfont: BMFont = {
    info: { face: family, size: Math.round(pixels), bold: 0, italic: 0, charset: '', unicode: 1, stretchH: 100, smooth: 0, aa: 1, padding: [pad, pad, pad, pad], spacing: [0, 0], outline: 0 },
    common: { lineHeight: Math.round((ascender - descender + (hhea?.lineGap ?? 0)) * k), base, scaleW: page, scaleH: page, pages: pageCount, packed: 0, alphaChnl: 0, redChnl: 0, greenChnl: 0, blueChnl: 0 },
    pages: Array.from({ length: pageCount }, (_, i) => `${name}_${i}.png`),
    chars,
    kernings,
  };
  return { font: bmfont, pages: images };
}

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
 * rasterises the outline at size x scale and returns its distance field at size, reaching
 * `spread` pixels past the outline. The same steps as rasterizeFont + distanceFieldFont.
 */
export class GlyphDistanceFields {
  readonly #font: Font;
  readonly #scale: number;
  readonly #spread: number;
  readonly #pixels: number;
  readonly #edges = new EdgeList();
  #mask = new Uint8Array(0);

  constructor(data: ArrayBuffer | Uint8Array, options: { size: number; scale?: number; spread?: number }) {
    this.#scale = options.scale ?? 8;
    this.#spread = options.spread ?? 4;
    if (!(options.size > 0) || !Number.isInteger(this.#scale) || this.#scale < 1 || !Number.isInteger(this.#spread) || this.#spread < 1) {
      throw new GuiError(`GlyphDistanceFields: size must be positive and scale, spread whole numbers >= 1 (got ${options.size}, ${this.#scale}, ${this.#spread}).`);
    }
    this.#font = loadFont(data);
    this.#pixels = options.size * this.#scale;
  }

  /**
   * Rasterises `char` (its font glyph, or the font's missing-glyph glyph) and returns its distance field; a glyph with no outline (a space) gives an empty 0 by 0 image with its advance.
   */
  draw(char: string): GlyphField {
    const scale = this.#scale;
    const glyph = this.#font.charToGlyph(char);
    const edges = this.#edges;
    edges.count = 0;
    flattenOutline(glyph.getPath(0, 0, this.#pixels).commands, edges);
    const advance = ((glyph.advanceWidth ?? 0) * this.#pixels) / this.#font.unitsPerEm / scale;
    if (edges.count === 0) return { width: 0, height: 0, channels: 1, data: new Uint8Array(0), left: 0, top: 0, advance };
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (let i = 0; i < edges.count * 4; i += 2) {
      minX = Math.min(minX, edges.data[i]!);
      maxX = Math.max(maxX, edges.data[i]!);
      minY = Math.min(minY, edges.data[i + 1]!);
      maxY = Math.max(maxY, edges.data[i + 1]!);
    }
    const pad = scale * this.#spread;
    const left = Math.floor((minX - pad) / scale) * scale;
    const top = Math.floor((minY - pad) / scale) * scale;
    const width = Math.ceil((maxX + pad) / scale) * scale - left;
    const height = Math.ceil((maxY + pad) / scale) * scale - top;
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

/** TTF/OTF straight to a distance-field AngelCode font at `size` pixels. */
export function distanceFieldFontFromTtf(data: ArrayBuffer | Uint8Array, options: TtfFontOptions): FontWithPages {
  const highRes = rasterizeFont(data, options);
  return distanceFieldFont(highRes.font, highRes.pages, { scale: options.scale ?? 8, spread: options.spread ?? 4 });
}
