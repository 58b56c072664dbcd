// Bundled into a page for the browser comparison: our per-glyph distance fields next to
// @mapbox/tiny-sdf, which needs a canvas, at 32 px with the same encoding (ours: spread 4;
// tiny-sdf: radius 8, cutoff 0.5, which is the same byte for the same distance: 127.5 on the
// outline, 255/8 levels per pixel, +-4 px coded). Speed is glyphs per second; accuracy is
// measured for both against the same exact outline reference.
import TinySDF from '@mapbox/tiny-sdf';
import { parse } from 'opentype.js';
import { GlyphDistanceFields, type GlyphFieldMethod } from '../src/index.ts';
import { fieldAccuracy, referenceSignedDistances } from '../src/reference/outline-distance.ts';

const CHARS = Array.from({ length: 94 }, (_, i) => String.fromCharCode(33 + i));
const SIZE = 32;
const SPREAD = 4;

/** Draws every char once per pass (94 different glyphs, nothing reused between draws) until minMs have passed. */
function rate(draw: (char: string) => number, minMs: number): number {
  let glyphs = 0;
  let checksum = 0;
  const start = performance.now();
  while (performance.now() - start < minMs) {
    for (const c of CHARS) checksum += draw(c);
    glyphs += CHARS.length;
  }
  if (checksum === 0) throw new Error('no glyph drawn');
  return (glyphs * 1000) / (performance.now() - start);
}

function tinySdf(): TinySDF {
  return new TinySDF({ fontSize: SIZE, buffer: SPREAD, radius: 2 * SPREAD, cutoff: 0.5, fontFamily: 'DejaVu Sans' });
}

/** Accuracy over the 94 glyphs: sign errors beyond 0.25 px, mean and max distance error in px (texels with |d| < spread). */
interface Accuracy {
  signErrors: number;
  mean: number;
  max: number;
  texels: number;
}

function total(parts: Accuracy[]): Accuracy {
  const texels = parts.reduce((n, p) => n + p.texels, 0);
  return {
    signErrors: parts.reduce((n, p) => n + p.signErrors, 0),
    mean: parts.reduce((n, p) => n + p.mean * p.texels, 0) / texels,
    max: Math.max(...parts.map((p) => p.max)),
    texels,
  };
}

declare global {
  interface Window {
    sdfBench: {
      ours(ttf: Uint8Array, minMs: number, method: GlyphFieldMethod, scale: number): number;
      tinySdf(minMs: number): number;
      accuracy(ttf: Uint8Array, method: GlyphFieldMethod, scale: number): { ours: Accuracy; tinySdf: Accuracy };
    };
  }
}

window.sdfBench = {
  ours(ttf, minMs, method, scale) {
    const fields = new GlyphDistanceFields(ttf, { size: SIZE, scale, spread: SPREAD, method });
    return rate((c) => fields.draw(c).width, minMs);
  },
  tinySdf(minMs) {
    const sdf = tinySdf();
    return rate((c) => sdf.draw(c).width, minMs);
  },
  // Also the check before timing: both draw DejaVu Sans (the page's font resolves to the same
  // file: advances agree) and every glyph is compared texel by texel with the reference.
  accuracy(ttf, method, scale) {
    const font = parse(ttf.buffer.slice(ttf.byteOffset, ttf.byteOffset + ttf.byteLength));
    const fields = new GlyphDistanceFields(ttf, { size: SIZE, scale, spread: SPREAD, method });
    const sdf = tinySdf();
    const ours: Accuracy[] = [];
    const theirs: Accuracy[] = [];
    for (const c of CHARS) {
      const outline = font.charToGlyph(c).getPath(0, 0, SIZE).commands;
      const a = fields.draw(c);
      ours.push(fieldAccuracy(a.data, referenceSignedDistances(outline, a.width, a.height, a.left, a.top), SPREAD));
      const b = sdf.draw(c);
      if (Math.abs(b.glyphAdvance - a.advance) > 0.01) throw new Error(`tiny-sdf's '${c}' advances ${b.glyphAdvance} px, ours ${a.advance} px: the page is not drawing DejaVu Sans`);
      // tiny-sdf draws the pen at (buffer - glyphLeft, buffer + glyphTop) on its canvas, and its
      // texel (i, j) is the canvas pixel whose centre is (i + 0.5, j + 0.5).
      theirs.push(fieldAccuracy(b.data, referenceSignedDistances(outline, b.width, b.height, b.glyphLeft - SPREAD, -b.glyphTop - SPREAD), SPREAD));
    }
    return { ours: total(ours), tinySdf: total(theirs) };
  },
};
