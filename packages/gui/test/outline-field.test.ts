// Distance fields measured straight from the outline, against the exact-outline reference
// (src/reference/outline-distance.ts: every curve in 96 steps, brute-force distances, winding
// by ray crossings) on DejaVu Sans (Debian's fonts-dejavu-core) and on shapes with sharp
// corners. Bounds: a byte of a spread-4 field is 4 / 127.5 px, so rounding alone is off by up
// to 0.0157 px (0.0078 px on average); the outline is flattened to within 0.02 px
// (OUTLINE_TOLERANCE). So no texel may be off by more than 0.0157 + 0.02 < 0.04 px, the mean
// stays near rounding's (under 0.015 px), and no texel farther than 0.25 px from the outline
// may be on the wrong side (the flattened outline is within 0.02 px of the true one).
import { parse } from 'opentype.js';
import { expect, test } from 'vitest';
import { distanceFieldFontFromTtf, EdgeList, flattenOutline, GlyphDistanceFields, GuiError, type OutlineCommand } from '../src/index.ts';
import { outlineDistanceField } from '../src/outline-field.ts';
import { fieldAccuracy, referenceSignedDistances, type FieldAccuracy } from '../src/reference/outline-distance.ts';
import { dejaVuSans } from './font-files.ts';

const ASCII = Array.from({ length: 94 }, (_, i) => String.fromCharCode(33 + i));

function total(parts: FieldAccuracy[]): FieldAccuracy {
  const texels = parts.reduce((n, p) => n + p.texels, 0);
  return { signErrors: parts.reduce((n, p) => n + p.signErrors, 0), mean: parts.reduce((n, p) => n + p.mean * p.texels, 0) / texels, max: Math.max(...parts.map((p) => p.max)), texels };
}

/** Every glyph of `chars` at `size` px against the reference, per glyph. */
function glyphAccuracy(chars: readonly string[], size: number, spread: number, method: 'outline' | 'raster' = 'outline'): FieldAccuracy[] {
  const ttf = dejaVuSans();
  const font = parse(ttf.buffer.slice(ttf.byteOffset, ttf.byteOffset + ttf.byteLength));
  const fields = new GlyphDistanceFields(ttf, { size, spread, method });
  return chars.map((c) => {
    const field = fields.draw(c);
    const reference = referenceSignedDistances(font.charToGlyph(c).getPath(0, 0, size).commands, field.width, field.height, field.left, field.top);
    return fieldAccuracy(field.data, reference, spread);
  });
}

test('DejaVu Sans at 32 px: every printable ASCII glyph is exact to the byte and the flattening', () => {
  const all = glyphAccuracy(ASCII, 32, 4);
  const sum = total(all);
  expect(sum.texels).toBeGreaterThan(40_000);
  expect(sum.signErrors).toBe(0);
  expect(sum.max).toBeLessThan(0.04);
  expect(sum.mean).toBeLessThan(0.015);
});

test('other sizes and spreads hold the same bounds (13 px spread 2, 72 px spread 8)', () => {
  const chars = Array.from('@&%$Sgaeo8WMij,.');
  for (const [size, spread] of [[13, 2], [72, 8]] as const) {
    const sum = total(glyphAccuracy(chars, size, spread));
    // A byte is 2 x spread / 255 px: rounding is off by up to spread / 255.
    expect(sum.signErrors).toBe(0);
    expect(sum.max).toBeLessThan(spread / 255 + 0.02 + 1e-3);
    expect(sum.mean).toBeLessThan(spread / 255 / 2 + 0.01);
  }
});

test('the raster method (8x raster and distance transform) is still there, and less exact', () => {
  const sum = total(glyphAccuracy(Array.from('@&%$Sgaeo8WMij'), 32, 4, 'raster'));
  expect(sum.signErrors).toBe(0);
  expect(sum.mean).toBeLessThan(0.05);
  expect(sum.max).toBeGreaterThan(0.1); // half an 8x pixel and more, where the outline method stays under 0.04
});

/** A field of `commands` (pixels) on a width x height grid, against the reference. */
function shapeAccuracy(commands: OutlineCommand[], width: number, height: number, spread: number): FieldAccuracy {
  const edges = new EdgeList();
  flattenOutline(commands, edges, 0.001);
  const field = new Uint8Array(width * height);
  outlineDistanceField(edges, width, height, spread, field, width, 0, 0);
  return fieldAccuracy(field, referenceSignedDistances(commands, width, height, 0, 0), spread);
}

test('sharp corners and spikes: texels nearest a vertex are measured from it', () => {
  // A five-pointed star (36-degree spikes, reflex corners), wound once.
  const star: OutlineCommand[] = [];
  for (let i = 0; i < 10; i++) {
    const a = (i * Math.PI) / 5 - Math.PI / 2;
    const r = i % 2 ? 7 : 18;
    star.push({ type: i ? 'L' : 'M', x: 24.3 + r * Math.cos(a), y: 24.7 + r * Math.sin(a) });
  }
  star.push({ type: 'Z' });
  // A thin sliver (a spike of about 3 degrees) and an overlapping square wound the other way
  // round inside a larger one (nonzero: the overlap cancels to a hole).
  const sliver: OutlineCommand[] = [{ type: 'M', x: 3.2, y: 40.1 }, { type: 'L', x: 45.6, y: 38.3 }, { type: 'L', x: 3.4, y: 42.2 }, { type: 'Z' }];
  const squares: OutlineCommand[] = [
    { type: 'M', x: 5.5, y: 5.25 }, { type: 'L', x: 30.5, y: 5.25 }, { type: 'L', x: 30.5, y: 30.25 }, { type: 'L', x: 5.5, y: 30.25 }, { type: 'Z' },
    { type: 'M', x: 12.1, y: 12.3 }, { type: 'L', x: 12.1, y: 22.8 }, { type: 'L', x: 22.6, y: 22.8 }, { type: 'L', x: 22.6, y: 12.3 }, { type: 'Z' },
  ];
  for (const [shape, spread] of [[star, 4], [star, 7], [sliver, 4], [squares, 3]] as const) {
    const a = shapeAccuracy(shape, 50, 50, spread);
    expect(a.signErrors).toBe(0);
    expect(a.max).toBeLessThan(spread / 255 + 1e-3);
  }
});

test('bad options are GuiErrors naming the value; a space is an empty field', () => {
  expect(() => new GlyphDistanceFields(dejaVuSans(), { size: 32, method: 'sdf' as 'outline' })).toThrow(GuiError);
  expect(() => new GlyphDistanceFields(dejaVuSans(), { size: 32, method: 'sdf' as 'outline' })).toThrow(/method must be 'outline' or 'raster', got "sdf"/);
  expect(() => new GlyphDistanceFields(dejaVuSans(), { size: Number.NaN })).toThrow(/size must be positive/);
  expect(() => distanceFieldFontFromTtf(dejaVuSans(), { size: 32, method: 'exact' as 'outline' })).toThrow(/distanceFieldFontFromTtf: method must be/);
  expect(() => { flattenOutline([], new EdgeList(), 0); }).toThrow(/tolerance must be a positive number/);
  const space = new GlyphDistanceFields(dejaVuSans(), { size: 32 }).draw(' ');
  expect([space.width, space.height, space.data.length]).toEqual([0, 0, 0]);
});
