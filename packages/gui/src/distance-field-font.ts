// The post's tool: take a high-resolution AngelCode font (drawn at `scale` times the wanted
// size, with scale x spread pixels of padding around each glyph), scale it down by `scale`,
// turn each page into a distance field that reaches `spread` output pixels beyond the glyph
// outlines, and rescale every measurement of the .fnt to the new pages. Glyph rectangles grow
// by whatever part of the spread the input's padding does not already hold.
import type { BMFont, BMFontChar, GuiImage } from './api.ts';
import { distanceFieldImage } from './distance-transform.ts';
import { GuiError } from './errors.ts';
import { coverageOf } from './image.ts';

/** Options of {@link distanceFieldFont}. */
export interface DistanceFieldFontOptions {
  /** Downscale factor from the input pages to the output pages (e.g. 8). */
  scale: number;
  /** How far the field reaches beyond the outline, in output pixels (e.g. 4). */
  spread: number;
  /** Coverage at or above which an input pixel is inside the glyph (default 128). */
  threshold?: number;
  /** File names of the output pages (default: the input names). */
  pageNames?: string[];
}

/** A BMFont document with its page images decoded, in page order. */
export interface FontWithPages {
  /** The font document. */
  font: BMFont;
  /** The page images, by page id. */
  pages: GuiImage[];
}

/** Output pixels to add on each side (up, right, down, left) so the field reaches `spread` past the ink. */
function growth(padding: readonly number[], scale: number, spread: number): number[] {
  return padding.map((p) => Math.max(0, spread - Math.floor(p / scale)));
}

function rescaleChar(c: BMFontChar, scale: number, grow: readonly number[], pageWidth: number, pageHeight: number): BMFontChar {
  if (c.width === 0 || c.height === 0) {
    return { ...c, x: Math.floor(c.x / scale), y: Math.floor(c.y / scale), width: 0, height: 0, xoffset: Math.round(c.xoffset / scale), yoffset: Math.round(c.yoffset / scale), xadvance: Math.round(c.xadvance / scale) };
  }
  const x0 = Math.max(0, Math.floor(c.x / scale) - grow[3]!);
  const y0 = Math.max(0, Math.floor(c.y / scale) - grow[0]!);
  const x1 = Math.min(pageWidth, Math.ceil((c.x + c.width) / scale) + grow[1]!);
  const y1 = Math.min(pageHeight, Math.ceil((c.y + c.height) / scale) + grow[2]!);
  // The texel at output x0 shows input x0 * scale: keep it where that input pixel was drawn.
  return {
    ...c,
    x: x0,
    y: y0,
    width: x1 - x0,
    height: y1 - y0,
    xoffset: Math.round((c.xoffset + x0 * scale - c.x) / scale),
    yoffset: Math.round((c.yoffset + y0 * scale - c.y) / scale),
    xadvance: Math.round(c.xadvance / scale),
  };
}

/** Converts a high-resolution font and its pages into a distance-field font. */
export function distanceFieldFont(font: BMFont, pages: readonly GuiImage[], options: DistanceFieldFontOptions): FontWithPages {
  const { scale, spread } = options;
  if (!Number.isInteger(scale) || scale < 1) throw new GuiError(`distanceFieldFont: scale must be a whole number >= 1, got ${scale}.`);
  if (!Number.isInteger(spread) || spread < 1) throw new GuiError(`distanceFieldFont: spread must be a whole number of output pixels >= 1, got ${spread}.`);
  if (pages.length !== font.pages.length) throw new GuiError(`distanceFieldFont: the font has ${font.pages.length} page(s) but ${pages.length} image(s) were given.`);
  pages.forEach((page, i) => {
    if (page.width !== font.common.scaleW || page.height !== font.common.scaleH) throw new GuiError(`distanceFieldFont: page ${i} ("${font.pages[i]}") is ${page.width}x${page.height}, the .fnt says ${font.common.scaleW}x${font.common.scaleH}.`);
  });
  if (options.pageNames && options.pageNames.length !== pages.length) throw new GuiError(`distanceFieldFont: ${options.pageNames.length} page name(s) for ${pages.length} page(s).`);
  const outPages = pages.map((page) => distanceFieldImage(coverageOf(page), page.width, page.height, { scale, spread, threshold: options.threshold ?? 128 }));
  const pageWidth = outPages[0]?.width ?? Math.floor(font.common.scaleW / scale);
  const pageHeight = outPages[0]?.height ?? Math.floor(font.common.scaleH / scale);
  return { font: scaleFontDown(font, scale, spread, pageWidth, pageHeight, options.pageNames), pages: outPages };
}

/**
 * The .fnt half of the post's tool: every measurement of a high-resolution font divided by
 * `scale` for pages of pageWidth x pageHeight, rectangles grown to hold the spread.
 */
export function scaleFontDown(font: BMFont, scale: number, spread: number, pageWidth: number, pageHeight: number, pageNames?: readonly string[]): BMFont {
  const down = (v: number): number => Math.round(v / scale);
  const { info, common } = font;
  const grow = growth(info.padding, scale, spread);
  return {
    info: { ...info, size: down(info.size), padding: [down(info.padding[0]) + grow[0]!, down(info.padding[1]) + grow[1]!, down(info.padding[2]) + grow[2]!, down(info.padding[3]) + grow[3]!], spacing: [down(info.spacing[0]), down(info.spacing[1])], outline: down(info.outline) },
    common: { ...common, lineHeight: down(common.lineHeight), base: down(common.base), scaleW: pageWidth, scaleH: pageHeight, packed: 0, alphaChnl: 0, redChnl: 0, greenChnl: 0, blueChnl: 0 },
    pages: pageNames ? [...pageNames] : [...font.pages],
    chars: font.chars.map((c) => rescaleChar(c, scale, grow, pageWidth, pageHeight)),
    kernings: font.kernings.map((k) => ({ ...k, amount: down(k.amount) })),
    distanceField: { fieldType: 'sdf', distanceRange: 2 * spread },
  };
}
