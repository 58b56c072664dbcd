// TrueType/OpenType to AngelCode font. rasterizeFont draws each glyph at `scale` times the
// wanted size with scale x spread pixels of padding, as AngelCode's generator would for the
// post's tool; distanceFieldFontFromTtf gives the distance-field font at the wanted size, by
// default measuring each texel's distance straight from the outline (the same rectangles,
// metrics and field encoding as rasterizing and running the post's tool, which `method:
// 'raster'` still does).
import type { GuiImage } from './api.ts';
import { distanceFieldFont, scaleFontDown, type FontWithPages } from './distance-field-font.ts';
import { outlineDistanceField } from './outline-field.ts';
import { EdgeList, fillNonzero } from './rasterize.ts';
import { checkMethod, layoutTtf, type TtfFontOptions } from './ttf-layout.ts';

export type { GlyphFieldMethod, TtfFontOptions } from './ttf-layout.ts';

/**
 * Draws the glyphs of a TTF/OTF at `size x scale` pixels into hard-edged pages, as a
 * high-resolution AngelCode font padded for a distance field of `spread` output pixels.
 */
export function rasterizeFont(data: ArrayBuffer | Uint8Array, options: TtfFontOptions): FontWithPages {
  const layout = layoutTtf(data, options, 'raster', 'rasterizeFont');
  const { page } = layout;
  const images: GuiImage[] = Array.from({ length: layout.pageCount }, () => ({ width: page, height: page, channels: 1 as const, data: new Uint8Array(page * page) }));
  const translated = new EdgeList();
  for (const g of layout.glyphs) {
    if (g.width === 0) continue;
    translated.count = 0;
    const dx = g.x - g.left;
    const dy = g.y - g.top;
    for (let i = 0; i < g.edges.count * 4; i += 4) translated.add(g.edges.data[i]! + dx, g.edges.data[i + 1]! + dy, g.edges.data[i + 2]! + dx, g.edges.data[i + 3]! + dy);
    fillNonzero(translated, images[g.page]!.data, page, g.x, g.y, g.x + g.width, g.y + g.height);
  }
  return { font: layout.font, pages: images };
}

/** TTF/OTF straight to a distance-field AngelCode font at `size` pixels. */
export function distanceFieldFontFromTtf(data: ArrayBuffer | Uint8Array, options: TtfFontOptions): FontWithPages {
  const method = checkMethod(options.method, 'distanceFieldFontFromTtf');
  const scale = options.scale ?? 8;
  const spread = options.spread ?? 4;
  if (method === 'raster') {
    const highRes = rasterizeFont(data, options);
    return distanceFieldFont(highRes.font, highRes.pages, { scale, spread });
  }
  const layout = layoutTtf(data, options, 'outline', 'distanceFieldFontFromTtf');
  const size = layout.page / scale;
  const pages: GuiImage[] = Array.from({ length: layout.pageCount }, () => ({ width: size, height: size, channels: 1 as const, data: new Uint8Array(size * size) }));
  for (const g of layout.glyphs) {
    if (g.width === 0) continue;
    // Glyph-local texels, exactly as GlyphDistanceFields draws them, then placed on the page.
    const e = g.edges.data;
    const left = g.left / scale;
    const top = g.top / scale;
    for (let i = 0; i < g.edges.count * 4; i += 2) {
      e[i] = e[i]! - left;
      e[i + 1] = e[i + 1]! - top;
    }
    outlineDistanceField(g.edges, g.width / scale, g.height / scale, spread, pages[g.page]!.data, size, g.x / scale, g.y / scale);
  }
  return { font: scaleFontDown(layout.font, scale, spread, size, size), pages };
}
