// Text layout over UTF-16 strings or UTF-8 bytes: code points, kerning, explicit and wrapped
// line breaks at a width (at spaces, inside a word only when it alone is too wide), alignment,
// and the font's replacement glyph for missing characters. Output is one quad per visible
// glyph in a reusable flat array: x0 y0 x1 y1 u0 v0 u1 v1 page (9 floats).
import type { GuiFont } from './gui-font.ts';

/** Horizontal alignment of each line of text. */
export type TextAlign = 'left' | 'center' | 'right';

/** Where and how {@link layoutText} lays text out; every field is optional. */
export interface TextLayoutOptions {
  /** Left edge (or the anchor for center/right without maxWidth) and the top of the first line. */
  x?: number;
  /** Top of the first line, in pixels (default 0). */
  y?: number;
  /** Pixel size of the em (default: the font's own size). */
  size?: number;
  /** Wrap lines longer than this many pixels. */
  maxWidth?: number;
  /** Horizontal alignment of each line (default `'left'`). */
  align?: TextAlign;
  /** Line spacing as a multiple of the font's line height (default 1). */
  lineSpacing?: number;
}

/** Floats per glyph quad in {@link TextLayout.quads}: x0, y0, x1, y1 (pixels), u0, v0, u1, v1 (texture coordinates in [0, 1]), page. */
export const QUAD_FLOATS = 9;
const TAB_SPACES = 4;
const SPACE = 0x20;

/** A reusable layout result: quads plus the block's size. */
export class TextLayout {
  /** The glyph quads, {@link QUAD_FLOATS} floats each; the first `count` are valid. Replaced by a bigger array when it must grow. */
  quads = new Float32Array(QUAD_FLOATS * 64);
  /** Number of glyph quads. */
  count = 0;
  /** Number of lines, explicit and wrapped. */
  lines = 0;
  /** Width of the widest line and height of all lines, in pixels. */
  width = 0;
  /** Height of all lines, in pixels. */
  height = 0;
  /** Code points the font had no glyph for (shown as its replacement, or skipped). */
  missing = 0;

  /** Grows `quads` (at least doubling, keeping its contents) so it holds `quads` glyph quads. */
  ensure(quads: number): void {
    if (quads * QUAD_FLOATS <= this.quads.length) return;
    const grown = new Float32Array(Math.max(quads * QUAD_FLOATS, this.quads.length * 2));
    grown.set(this.quads);
    this.quads = grown;
  }
}

const utf8Decoder = new TextDecoder();

/** Code points of a UTF-16 string or UTF-8 bytes into `out` (invalid sequences become U+FFFD). */
export function codePointsOf(text: string | Uint8Array, out: Uint32Array): { points: Uint32Array; count: number } {
  const source = typeof text === 'string' ? text : utf8Decoder.decode(text);
  let points = out.length >= source.length ? out : new Uint32Array(source.length);
  let n = 0;
  for (let i = 0; i < source.length; i++) {
    let c = source.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < source.length) {
      const d = source.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      } else c = 0xfffd;
    } else if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
    if (n === points.length) {
      const grown = new Uint32Array(points.length * 2 + 8);
      grown.set(points);
      points = grown;
    }
    points[n++] = c;
  }
  return { points, count: n };
}

let scratchPoints: Uint32Array = new Uint32Array(256);

/** Lays `text` out with `font` into `out` (cleared first) and returns it. */
export function layoutText(font: GuiFont, text: string | Uint8Array, options: TextLayoutOptions = {}, out: TextLayout = new TextLayout()): TextLayout {
  const decoded = codePointsOf(text, scratchPoints);
  scratchPoints = decoded.points;
  const { points, count } = decoded;
  const scale = (options.size ?? font.emSize) / font.emSize;
  const originX = options.x ?? 0;
  const originY = options.y ?? 0;
  const maxWidth = options.maxWidth ?? Infinity;
  const align = options.align ?? 'left';
  const lineAdvance = font.lineHeight * scale * (options.lineSpacing ?? 1);
  const invW = 1 / font.pageWidth;
  const invH = 1 / font.pageHeight;
  const spaceSlot = font.slotOf(SPACE);
  const spaceAdvance = spaceSlot >= 0 ? font.xadvance[spaceSlot]! : font.emSize / 4;
  out.count = 0;
  out.lines = 0;
  out.width = 0;
  out.missing = 0;
  out.ensure(count);
  const q = (): Float32Array => out.quads;

  let lineStart = 0; // first quad of the current line
  let pen = 0; // in font pixels, from the line's left edge
  let prev = -1;
  let inkRight = 0; // pen position after the last non-space glyph
  let breakQuad = -1; // first quad after the latest space in this line
  let breakPen = 0; // pen where the text after that space starts
  let breakInk = 0; // where the line ends if it breaks at that space
  let lineY = originY;
  let widest = 0;

  const finishLine = (width: number, upTo: number): void => {
    const w = width * scale;
    widest = Math.max(widest, w);
    let shift = 0;
    if (align !== 'left') {
      const box = Number.isFinite(maxWidth) ? maxWidth : 0;
      shift = align === 'center' ? (box - w) / 2 : box - w;
    }
    const quads = q();
    for (let i = lineStart; i < upTo; i++) {
      quads[i * QUAD_FLOATS] = quads[i * QUAD_FLOATS]! * scale + originX + shift;
      quads[i * QUAD_FLOATS + 1] = quads[i * QUAD_FLOATS + 1]! * scale + lineY;
      quads[i * QUAD_FLOATS + 2] = quads[i * QUAD_FLOATS + 2]! * scale + originX + shift;
      quads[i * QUAD_FLOATS + 3] = quads[i * QUAD_FLOATS + 3]! * scale + lineY;
    }
    out.lines++;
    lineY += lineAdvance;
    lineStart = upTo;
  };

  for (let i = 0; i < count; i++) {
    const c = points[i]!;
    if (c === 0x0a) {
      finishLine(inkRight, out.count);
      pen = inkRight = 0;
      prev = -1;
      breakQuad = -1;
      continue;
    }
    if (c === 0x0d) continue;
    if (c === 0x20 || c === 0x09) {
      const advance = c === 0x09 ? spaceAdvance * TAB_SPACES : spaceAdvance + (prev >= 0 && spaceSlot >= 0 ? font.kerning(prev, spaceSlot) : 0);
      pen += advance;
      prev = c === 0x20 ? spaceSlot : -1;
      breakInk = inkRight;
      breakQuad = out.count;
      breakPen = pen;
      continue;
    }
    let slot = font.slotOf(c);
    if (slot < 0) {
      out.missing++;
      slot = font.replacement;
      if (slot < 0) continue;
    }
    const kern = prev >= 0 ? font.kerning(prev, slot) : 0;
    const advance = font.xadvance[slot]!;
    let x = pen + kern;
    // Wrap when this glyph would end past the width and the line already holds something.
    if ((x + advance) * scale > maxWidth && out.count > lineStart) {
      if (breakQuad > lineStart) {
        // Move the word after the last space down to the next line.
        const quads = q();
        const moved = out.count - breakQuad;
        finishLine(breakInk, breakQuad);
        for (let k = 0; k < moved; k++) {
          quads[(breakQuad + k) * QUAD_FLOATS] = quads[(breakQuad + k) * QUAD_FLOATS]! - breakPen;
          quads[(breakQuad + k) * QUAD_FLOATS + 2] = quads[(breakQuad + k) * QUAD_FLOATS + 2]! - breakPen;
        }
        pen -= breakPen;
        inkRight -= breakPen;
        x = pen + kern;
      } else {
        finishLine(inkRight, out.count);
        pen = inkRight = 0;
        x = 0;
      }
      breakQuad = -1;
    }
    const w = font.width[slot]!;
    if (w > 0) {
      const quads = q();
      const at = out.count * QUAD_FLOATS;
      const left = x + font.xoffset[slot]!;
      const top = font.yoffset[slot]!;
      quads[at] = left;
      quads[at + 1] = top;
      quads[at + 2] = left + w;
      quads[at + 3] = top + font.height[slot]!;
      quads[at + 4] = font.x[slot]! * invW;
      quads[at + 5] = font.y[slot]! * invH;
      quads[at + 6] = (font.x[slot]! + w) * invW;
      quads[at + 7] = (font.y[slot]! + font.height[slot]!) * invH;
      quads[at + 8] = font.page[slot]!;
      out.count++;
    }
    pen = x + advance;
    inkRight = pen;
    prev = slot;
  }
  finishLine(inkRight, out.count);
  out.width = widest;
  out.height = out.lines * lineAdvance;
  return out;
}
