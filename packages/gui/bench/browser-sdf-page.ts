// Bundled into a page for the browser comparison: our per-glyph distance fields next to
// @mapbox/tiny-sdf, which needs a canvas. Each function returns glyphs per second.
import TinySDF from '@mapbox/tiny-sdf';
import { GlyphDistanceFields } from '../src/index.ts';

const CHARS = Array.from({ length: 94 }, (_, i) => String.fromCharCode(33 + i));

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

declare global {
  interface Window {
    sdfBench: { ours(ttf: Uint8Array, minMs: number, scale: number): number; tinySdf(minMs: number): number };
  }
}

const fields = new Map<number, GlyphDistanceFields>();

window.sdfBench = {
  ours(ttf, minMs, scale) {
    let f = fields.get(scale);
    if (!f) {
      f = new GlyphDistanceFields(ttf, { size: 32, scale, spread: 4 });
      fields.set(scale, f);
    }
    const g = f;
    return rate((c) => g.draw(c).width, minMs);
  },
  tinySdf(minMs) {
    const sdf = new TinySDF({ fontSize: 32, buffer: 4, radius: 4, cutoff: 0.5, fontFamily: 'DejaVu Sans' });
    return rate((c) => sdf.draw(c).width, minMs);
  },
};
