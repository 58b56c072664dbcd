// The runtime form of a font for layout: glyph metrics in flat typed arrays indexed by glyph
// slot, a dense code point table for the Basic Multilingual Plane (a Map beyond it), kerning
// in a Map keyed by slot pair. Built once from a BMFont.
import type { BMFont } from './api.ts';
import { GuiError } from './errors.ts';
import { packUv } from './vertex-format.ts';

const BMP = 0x10000;

/**
 * The runtime form of a font for layout, built once from a {@link BMFont}: glyph metrics in flat typed arrays indexed by glyph slot (the char's index in `BMFont.chars`), code points to slots, and kerning pairs. Measurements are in the font's page pixels.
 */
export class GuiFont {
  /** The .fnt this font was built from. */
  readonly source: BMFont;
  /** Distance between the tops of two lines of text, in page pixels (`common.lineHeight`). */
  readonly lineHeight: number;
  /** Distance from the top of a line to the baseline, in page pixels (`common.base`). */
  readonly base: number;
  /** The font's em size in its own pixels (|info.size|, or lineHeight when 0). */
  readonly emSize: number;
  /** Width of each page image in pixels (`common.scaleW`). */
  readonly pageWidth: number;
  /** Height of each page image in pixels (`common.scaleH`). */
  readonly pageHeight: number;
  /** Number of page images (at least 1). */
  readonly pageCount: number;
  /** Distance-field spread in page pixels on each side of the edge; 0 for a plain bitmap font. */
  readonly spread: number;
  /** Number of glyph slots (the font's chars, 1 to 65534). */
  readonly glyphCount: number;
  /** Per slot: page rectangle, offsets, advance, page. */
  readonly x: Float32Array;
  /** Per slot: top edge of the glyph on its page. */
  readonly y: Float32Array;
  /** Per slot: width of the glyph's page rectangle. */
  readonly width: Float32Array;
  /** Per slot: height of the glyph's page rectangle. */
  readonly height: Float32Array;
  /** Per slot: horizontal offset from the pen to the rectangle when drawn. */
  readonly xoffset: Float32Array;
  /** Per slot: vertical offset from the top of the line to the rectangle when drawn. */
  readonly yoffset: Float32Array;
  /** Per slot: how far the pen moves after the glyph. */
  readonly xadvance: Float32Array;
  /** Per slot: the page the glyph is on. */
  readonly page: Uint8Array;
  /** Code point per slot. */
  readonly codePoint: Uint32Array;
  /** Slot shown for code points the font lacks: U+FFFD, else '?', else -1 (skipped). */
  readonly replacement: number;
  /** Per slot, the packed texture coordinates of the four quad corners (vertex-format.ts). */
  readonly uvWords: Uint32Array;
  /** Per slot: 1 when the glyph starts any kerning pair (skips the pair lookup for the rest). */
  readonly kernsAsFirst: Uint8Array;
  /** Slot per BMP code point (-1: missing); slotOf covers the rest. */
  readonly bmpSlots = new Int32Array(BMP).fill(-1);
  readonly #astral = new Map<number, number>();
  readonly #kerning = new Map<number, number>();

  constructor(font: BMFont) {
    if (font.chars.length === 0) throw new GuiError('GuiFont: the font has no characters.');
    if (font.chars.length >= 0xffff) throw new GuiError(`GuiFont: ${font.chars.length} characters; at most 65534 are supported.`);
    if (font.common.scaleW <= 0 || font.common.scaleH <= 0) throw new GuiError(`GuiFont: page size ${font.common.scaleW}x${font.common.scaleH} is not positive.`);
    this.source = font;
    this.lineHeight = font.common.lineHeight;
    this.base = font.common.base;
    this.emSize = Math.abs(font.info.size) || font.common.lineHeight;
    this.pageWidth = font.common.scaleW;
    this.pageHeight = font.common.scaleH;
    this.pageCount = Math.max(1, font.pages.length);
    this.spread = font.distanceField ? font.distanceField.distanceRange / 2 : 0;
    const n = font.chars.length;
    this.glyphCount = n;
    this.x = new Float32Array(n);
    this.y = new Float32Array(n);
    this.width = new Float32Array(n);
    this.height = new Float32Array(n);
    this.xoffset = new Float32Array(n);
    this.yoffset = new Float32Array(n);
    this.xadvance = new Float32Array(n);
    this.page = new Uint8Array(n);
    this.codePoint = new Uint32Array(n);
    this.uvWords = new Uint32Array(4 * n);
    this.kernsAsFirst = new Uint8Array(n);
    font.chars.forEach((c, slot) => {
      this.x[slot] = c.x;
      this.y[slot] = c.y;
      this.width[slot] = c.width;
      this.height[slot] = c.height;
      this.xoffset[slot] = c.xoffset;
      this.yoffset[slot] = c.yoffset;
      this.xadvance[slot] = c.xadvance;
      this.page[slot] = c.page;
      this.codePoint[slot] = c.id;
      const u0 = c.x / font.common.scaleW;
      const v0 = c.y / font.common.scaleH;
      const u1 = (c.x + c.width) / font.common.scaleW;
      const v1 = (c.y + c.height) / font.common.scaleH;
      this.uvWords.set([packUv(u0, v0), packUv(u1, v0), packUv(u0, v1), packUv(u1, v1)], slot * 4);
      if (c.id < BMP) this.bmpSlots[c.id] = slot;
      else this.#astral.set(c.id, slot);
    });
    for (const k of font.kernings) {
      const a = this.slotOf(k.first);
      const b = this.slotOf(k.second);
      if (a >= 0 && b >= 0) {
        this.#kerning.set(a * 0x10000 + b, k.amount);
        this.kernsAsFirst[a] = 1;
      }
    }
    const fffd = this.slotOf(0xfffd);
    this.replacement = fffd >= 0 ? fffd : this.slotOf(0x3f);
  }

  /** The slot of a code point, or -1 when the font does not have it. */
  slotOf(codePoint: number): number {
    return codePoint < BMP ? (codePoint >= 0 ? this.bmpSlots[codePoint]! : -1) : (this.#astral.get(codePoint) ?? -1);
  }

  /** Kerning between two slots in font pixels (0 when the pair has none). */
  kerning(first: number, second: number): number {
    return this.kernsAsFirst[first] === 0 ? 0 : (this.#kerning.get(first * 0x10000 + second) ?? 0);
  }
}
