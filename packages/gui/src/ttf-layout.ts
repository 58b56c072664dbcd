// TrueType/OpenType glyphs laid out as AngelCode's generator would at `size x scale` pixels:
// opentype.js parses the file, each glyph's outline is flattened, its padded rectangle is
// aligned to the scale, rectangles are shelf-packed into pages, and the metrics and kerning
// become a BMFont document. What fills the pages (a raster, or a field straight from the
// outline) is up to the caller.
import { parse, type Font, type Glyph } from 'opentype.js';
import type { BMFont, BMFontChar, BMFontKerning } from './api.ts';
import { GuiError } from './errors.ts';
import { EdgeList, flattenMapped } from './rasterize.ts';

/**
 * How glyph fields are made: `'outline'` (the default) measures the exact distance from each
 * texel to the glyph's outline; `'raster'` draws the glyph at size x scale and takes the exact
 * distance transform of that raster (the post's way, 2.5-3x slower at 8x and less exact).
 */
export type GlyphFieldMethod = 'outline' | 'raster';

/** Options of the TrueType/OpenType to distance-field font conversion; only `size` is required. */
export interface TtfFontOptions {
  /** Pixel size of the em in the output font. */
  size: number;
  /** Scale of the high-resolution font: rectangles and metrics are laid out at size x scale (default 8); the `'raster'` method also draws glyphs at that size. */
  scale?: number;
  /** Distance-field reach beyond the outline in output pixels (default 4). */
  spread?: number;
  /** How the fields are made (default `'outline'`); rasterizeFont always draws rasters. */
  method?: GlyphFieldMethod;
  /** Characters to include (default: printable ASCII, plus U+FFFD when the font has it). */
  chars?: string;
  /** Edge of the square output pages in pixels (default 256). */
  pageSize?: number;
  /** Page file names are `${name}_${page}.png` (default: the font's family name, lower case). */
  name?: string;
}

/** Flattening tolerance of the outline method, in output pixels: well under the 8-bit field's step (2 x spread / 255). */
export const OUTLINE_TOLERANCE = 0.02;
/** Flattening tolerance of the raster method, in high-resolution pixels. */
export const RASTER_TOLERANCE = 0.1;

const DEFAULT_CHARS = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('') + '\uFFFD';

/** Parses TTF/OTF bytes, refusing what opentype.js cannot read with a GuiError. */
export function loadFont(data: ArrayBuffer | Uint8Array): Font {
  const buffer = data instanceof Uint8Array ? data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) : data;
  try {
    return parse(buffer);
  } catch (error) {
    throw new GuiError(`not a TrueType/OpenType font opentype.js can read: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Checks a method option, naming the bad value. */
export function checkMethod(method: unknown, where: string): GlyphFieldMethod {
  if (method === undefined) return 'outline';
  if (method !== 'outline' && method !== 'raster') throw new GuiError(`${where}: method must be 'outline' or 'raster', got ${typeof method === 'string' ? `"${method}"` : typeof method}.`);
  return method;
}

/**
 * Flattens a glyph at `pixelsPerEm` (y down, pen at the origin) into `edges` without the
 * copied path glyph.getPath makes: the same numbers, mapped while flattening.
 */
export function flattenGlyph(glyph: Glyph, pixelsPerEm: number, tolerance: number, edges: EdgeList): void {
  const path = glyph.path;
  const k = pixelsPerEm / (path.unitsPerEm || 1000);
  flattenMapped(path.commands, edges, tolerance, k, -k);
}

/** A glyph's padded rectangle in high-resolution pixels, aligned to the scale. */
export interface GlyphBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The rectangle, at `unit` high-resolution pixels per edge unit, that holds the edges plus `pad`
 * high-resolution pixels, with every side on a multiple of `scale` so that every measurement
 * divides exactly and no glyph moves by a rounding when scaled down.
 */
export function glyphBox(edges: EdgeList, unit: number, scale: number, pad: number): GlyphBox {
  if (edges.count === 0) return { left: 0, top: 0, width: 0, height: 0 };
  const e = edges.data;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < edges.count * 4; i += 2) {
    if (e[i]! < minX) minX = e[i]!;
    if (e[i]! > maxX) maxX = e[i]!;
    if (e[i + 1]! < minY) minY = e[i + 1]!;
    if (e[i + 1]! > maxY) maxY = e[i + 1]!;
  }
  const left = Math.floor((minX * unit - pad) / scale) * scale;
  const top = Math.floor((minY * unit - pad) / scale) * scale;
  return { left, top, width: Math.ceil((maxX * unit + pad) / scale) * scale - left, height: Math.ceil((maxY * unit + pad) / scale) * scale - top };
}

/** A glyph placed on a high-resolution page. */
export interface PlacedGlyph extends GlyphBox {
  id: number;
  glyph: Glyph;
  /** Flattened outline, pen at the origin: high-resolution pixels (raster) or output pixels (outline). */
  edges: EdgeList;
  page: number;
  x: number;
  y: number;
}

/** A high-resolution font document, its placed glyphs and its page count. */
export interface TtfLayout {
  font: BMFont;
  glyphs: PlacedGlyph[];
  pageCount: number;
  scale: number;
  spread: number;
  /** High-resolution page edge in pixels. */
  page: number;
}

/** Lays out the glyphs of a TTF/OTF as a high-resolution AngelCode font (see the file comment). */
export function layoutTtf(data: ArrayBuffer | Uint8Array, options: TtfFontOptions, method: GlyphFieldMethod, where: string): TtfLayout {
  const scale = options.scale ?? 8;
  const spread = options.spread ?? 4;
  const pageSize = options.pageSize ?? 256;
  if (!(options.size > 0) || !Number.isFinite(options.size)) throw new GuiError(`${where}: size must be a positive number of pixels, got ${options.size}.`);
  if (!Number.isInteger(scale) || scale < 1) throw new GuiError(`${where}: scale must be a whole number >= 1, got ${scale}.`);
  if (!Number.isInteger(spread) || spread < 1) throw new GuiError(`${where}: spread must be a whole number >= 1, got ${spread}.`);
  if (!Number.isInteger(pageSize) || pageSize < 16) throw new GuiError(`${where}: pageSize must be a whole number >= 16, got ${pageSize}.`);
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
    if (method === 'raster') flattenGlyph(glyph, pixels, RASTER_TOLERANCE, edges);
    else flattenGlyph(glyph, options.size, OUTLINE_TOLERANCE, edges);
    const box = glyphBox(edges, method === 'raster' ? 1 : scale, scale, pad);
    placed.push({ id, glyph, edges, ...box, page: 0, x: 0, y: 0 });
  }
  const pageCount = shelfPack(placed, page, where);
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
  return { font: bmfont, glyphs: placed, pageCount, scale, spread, page };
}

/** Shelf packing, tallest first; returns the number of pages. */
function shelfPack(placed: PlacedGlyph[], page: number, where: string): number {
  const order = placed.filter((g) => g.width > 0).sort((a, b) => b.height - a.height);
  let pageIndex = 0;
  let shelfY = 0;
  let shelfHeight = 0;
  let cursorX = 0;
  for (const g of order) {
    if (g.width > page || g.height > page) throw new GuiError(`${where}: glyph U+${g.id.toString(16).toUpperCase().padStart(4, '0')} needs ${g.width}x${g.height} pixels but pages are ${page}x${page}; raise pageSize or lower size/scale.`);
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
  return pageIndex + 1;
}
