// The built-in object kinds. Each is one function from parameters to a batch key and quads,
// the post's extension point: user kinds are written the same way and added with
// Gui.registerKind.
import type { GuiEmitter } from './gui-emitter.ts';
import { GuiError } from './errors.ts';
import type { GuiFont } from './gui-font.ts';
import { layoutText, QUAD_FLOATS, TextLayout, type TextAlign } from './text-layout.ts';
import { packClipPage, packColor } from './vertex-format.ts';

/** Makes an object's batch key and vertex data from its parameters. */
export type GuiKind<P> = (params: P, out: GuiEmitter) => void;

/** The solid-colour material every GuiRenderer has. */
export const SOLID_MATERIAL = 0;

/** Parameters every object kind takes: its layer and clip rectangle. */
export interface ObjectBase {
  /** Draw order: higher layers draw later (default 0). */
  layer?: number;
  /** Clip rectangle index from Gui.addClip (default 0: none). */
  clip?: number;
}

/** Parameters of a `'rect'` object: an axis-aligned rectangle in pixels. */
export interface RectParams extends ObjectBase {
  /** Left edge in pixels. */
  x: number;
  /** Top edge in pixels. */
  y: number;
  /** Width in pixels. */
  width: number;
  /** Height in pixels. */
  height: number;
  /** 0xRRGGBBAA */
  color: number;
  /** Default: the solid material. */
  material?: number;
}

/** Parameters of a `'roundedRect'` object: a rectangle with quarter-circle corners. */
export interface RoundedRectParams extends RectParams {
  /** Corner radius in pixels, clamped to 0 to half the width and height. */
  radius: number;
  /** Triangles per corner (default 6). */
  segments?: number;
}

/** Parameters of a `'line'` object: a polyline of straight segments (no joins or caps). */
export interface LineParams extends ObjectBase {
  /** x0, y0, x1, y1, ...: a polyline. */
  points: ArrayLike<number>;
  /** Line width in pixels, centred on the points. */
  width: number;
  /** Colour, 0xRRGGBBAA. */
  color: number;
  /** Material id (default: the solid material). */
  material?: number;
}

/** Parameters of an `'image'` object: a rectangle of an atlas page, tinted. */
export interface ImageParams extends ObjectBase {
  /** Left edge in pixels. */
  x: number;
  /** Top edge in pixels. */
  y: number;
  /** Width in pixels. */
  width: number;
  /** Height in pixels. */
  height: number;
  /** An atlas material from GuiRenderer.createAtlasMaterial. */
  material: number;
  /** Atlas rectangle in [0, 1] texture coordinates (default: the whole page). */
  u0?: number;
  /** Top of the atlas rectangle (default 0). */
  v0?: number;
  /** Right of the atlas rectangle (default 1). */
  u1?: number;
  /** Bottom of the atlas rectangle (default 1). */
  v1?: number;
  /** Atlas page (layer of the material's texture array, default 0). */
  page?: number;
  /** Tint, 0xRRGGBBAA (default white). */
  color?: number;
}

/** Parameters of a `'text'` object: a string laid out with a font (kerning, line breaks, wrapping, alignment). */
export interface TextParams extends ObjectBase {
  /** Left edge of the text (or its anchor for `center` and `right` alignment without `maxWidth`), in pixels. */
  x: number;
  /** Top of the first line, in pixels. */
  y: number;
  /** UTF-16 string or UTF-8 bytes. */
  text: string | Uint8Array;
  /** The font to lay the text out with. */
  font: GuiFont;
  /** A text material from GuiRenderer.createTextMaterial for this font. */
  material: number;
  /** Em size in pixels (default: the font's). */
  size?: number;
  /** Colour, 0xRRGGBBAA (default white, 0xffffffff). */
  color?: number;
  /** Wrap lines longer than this many pixels (default: no wrapping). */
  maxWidth?: number;
  /** Horizontal alignment of each line (default `'left'`). */
  align?: TextAlign;
  /** Line spacing as a multiple of the font's line height (default 1). */
  lineSpacing?: number;
}

function finite(name: string, ...values: number[]): void {
  for (const v of values) if (!Number.isFinite(v)) throw new GuiError(`${name}: coordinates must be finite numbers, got ${v}.`);
}

export function rectKind(p: RectParams, out: GuiEmitter): void {
  finite('rect', p.x, p.y, p.width, p.height);
  out.key(p.layer ?? 0, p.material ?? SOLID_MATERIAL);
  out.rect(p.x, p.y, p.x + p.width, p.y + p.height, 0, 0, 1, 1, p.color);
}

export function roundedRectKind(p: RoundedRectParams, out: GuiEmitter): void {
  finite('roundedRect', p.x, p.y, p.width, p.height, p.radius);
  out.key(p.layer ?? 0, p.material ?? SOLID_MATERIAL);
  const r = Math.max(0, Math.min(p.radius, p.width / 2, p.height / 2));
  const { x, y, width: w, height: h, color } = p;
  // Centre column and the two side strips, then a fan per corner.
  out.rect(x + r, y, x + w - r, y + h, 0, 0, 1, 1, color);
  if (r <= 0) return;
  out.rect(x, y + r, x + r, y + h - r, 0, 0, 1, 1, color);
  out.rect(x + w - r, y + r, x + w, y + h - r, 0, 0, 1, 1, color);
  const segments = Math.max(1, Math.min(32, Math.round(p.segments ?? 6)));
  const corners = [
    [x + r, y + r, Math.PI],
    [x + w - r, y + r, 1.5 * Math.PI],
    [x + w - r, y + h - r, 0],
    [x + r, y + h - r, 0.5 * Math.PI],
  ] as const;
  for (const [cx, cy, start] of corners) {
    for (let i = 0; i < segments; i++) {
      const a0 = start + (i / segments) * (Math.PI / 2);
      const a1 = start + ((i + 1) / segments) * (Math.PI / 2);
      out.triangle(cx, cy, cx + Math.cos(a0) * r, cy + Math.sin(a0) * r, cx + Math.cos(a1) * r, cy + Math.sin(a1) * r, color);
    }
  }
}

export function lineKind(p: LineParams, out: GuiEmitter): void {
  const pts = p.points;
  if (pts.length < 4 || pts.length % 2 !== 0) throw new GuiError(`line: points must hold x, y pairs for at least 2 points, got ${pts.length} numbers.`);
  finite('line', p.width);
  out.key(p.layer ?? 0, p.material ?? SOLID_MATERIAL);
  const half = p.width / 2;
  for (let i = 0; i + 3 < pts.length; i += 2) {
    const x0 = pts[i]!;
    const y0 = pts[i + 1]!;
    const x1 = pts[i + 2]!;
    const y1 = pts[i + 3]!;
    finite('line', x0, y0, x1, y1);
    const len = Math.hypot(x1 - x0, y1 - y0) || 1;
    const nx = (-(y1 - y0) / len) * half;
    const ny = ((x1 - x0) / len) * half;
    out.quad(x0 + nx, y0 + ny, x1 + nx, y1 + ny, x0 - nx, y0 - ny, x1 - nx, y1 - ny, p.color);
  }
}

export function imageKind(p: ImageParams, out: GuiEmitter): void {
  finite('image', p.x, p.y, p.width, p.height);
  out.key(p.layer ?? 0, p.material);
  out.rect(p.x, p.y, p.x + p.width, p.y + p.height, p.u0 ?? 0, p.v0 ?? 0, p.u1 ?? 1, p.v1 ?? 1, p.color ?? 0xffffffff, p.page ?? 0);
}

const layout = new TextLayout();

/**
 * The common case, one left-aligned line without wrapping, written straight into the emitter
 * (no layout pass in between): glyph slots from the font's BMP table, texture coordinates
 * packed once per font, the kerning map consulted only for glyphs that start a pair.
 */
function emitSimpleText(p: TextParams, text: string, out: GuiEmitter, color: number): boolean {
  const font = p.font;
  const scale = (p.size ?? font.emSize) / font.emSize;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 9 || c === 13 || (c >= 0xd800 && c <= 0xdfff)) return false;
  }
  const bmp = font.bmpSlots;
  if (bmp[32]! < 0 && text.includes(' ')) return false;
  const clipPage = packClipPage(out.clipIndex, 0);
  const uv = font.uvWords;
  const replacement = font.replacement;
  let pen = 0;
  let prev = -1;
  let at = out.reserve(n);
  let written = 0;
  const top = p.y;
  for (let i = 0; i < n; i++) {
    let slot = bmp[text.charCodeAt(i)]!;
    if (slot < 0) {
      slot = replacement;
      if (slot < 0) continue;
    }
    if (prev >= 0 && font.kernsAsFirst[prev] === 1) pen += font.kerning(prev, slot);
    const w = font.width[slot]!;
    if (w > 0) {
      const x0 = p.x + (pen + font.xoffset[slot]!) * scale;
      const y0 = top + font.yoffset[slot]! * scale;
      const x1 = x0 + w * scale;
      const y1 = y0 + font.height[slot]! * scale;
      const cp = clipPage | (font.page[slot]! << 16);
      const words = out.words;
      const f = out.floats;
      const u = slot * 4;
      f[at] = x0; f[at + 1] = y0; words[at + 2] = uv[u]!; words[at + 3] = color; words[at + 4] = cp;
      f[at + 5] = x1; f[at + 6] = y0; words[at + 7] = uv[u + 1]!; words[at + 8] = color; words[at + 9] = cp;
      f[at + 10] = x0; f[at + 11] = y1; words[at + 12] = uv[u + 2]!; words[at + 13] = color; words[at + 14] = cp;
      f[at + 15] = x1; f[at + 16] = y1; words[at + 17] = uv[u + 3]!; words[at + 18] = color; words[at + 19] = cp;
      at += 20;
      written++;
    }
    pen += font.xadvance[slot]!;
    prev = slot;
  }
  out.quads -= n - written;
  return true;
}

export function textKind(p: TextParams, out: GuiEmitter): void {
  finite('text', p.x, p.y);
  out.key(p.layer ?? 0, p.material);
  const color = packColor(p.color ?? 0xffffffff);
  const simple = typeof p.text === 'string' && p.maxWidth === undefined && (p.align ?? 'left') === 'left';
  if (simple && emitSimpleText(p, p.text as string, out, color)) return;
  layoutText(p.font, p.text, p, layout);
  const clip = out.clipIndex;
  const q = layout.quads;
  for (let i = 0; i < layout.count; i++) {
    const o = i * QUAD_FLOATS;
    out.rectPacked(q[o]!, q[o + 1]!, q[o + 2]!, q[o + 3]!, q[o + 4]!, q[o + 5]!, q[o + 6]!, q[o + 7]!, color, packClipPage(clip, q[o + 8]!));
  }
}

/** Parameters of each built-in kind, by name. */
export interface BuiltinKindParams {
  /** Parameters of `'rect'`. */
  rect: RectParams;
  /** Parameters of `'roundedRect'`. */
  roundedRect: RoundedRectParams;
  /** Parameters of `'line'`. */
  line: LineParams;
  /** Parameters of `'image'`. */
  image: ImageParams;
  /** Parameters of `'text'`. */
  text: TextParams;
}

export const builtinKinds: { [K in keyof BuiltinKindParams]: GuiKind<BuiltinKindParams[K]> } = {
  rect: rectKind,
  roundedRect: roundedRectKind,
  line: lineKind,
  image: imageKind,
  text: textKind,
};
