// Layout on the hand-written two-page font: advances and kerning, UTF-8 and UTF-16 alike,
// the replacement glyph, explicit and wrapped breaks, alignment and size.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { GuiFont, layoutText, parseBMFontText, QUAD_FLOATS, TextLayout, type TextLayoutOptions } from '../src/index.ts';

const font = new GuiFont(parseBMFontText(readFileSync(join(import.meta.dirname, 'fixtures/arial-2pages.fnt'), 'utf8')));
// Advances: space 11, A 23, V 21, T 20, a 21, é 21, € 21, U+FFFD 28; kerning AV -2, VA -2, Ta -3.

function lefts(text: string | Uint8Array, options: TextLayoutOptions = {}): number[] {
  const layout = layoutText(font, text, options);
  return Array.from({ length: layout.count }, (_, i) => layout.quads[i * QUAD_FLOATS]!);
}

test('advances, offsets and kerning pairs', () => {
  // A at xoffset -1; V at 23 - 2 (kerning) - 1; A again at 21 + 23 - 2 - 2 - 1 ...
  expect(lefts('AVA')).toEqual([-1, 20, 39]);
  expect(lefts('Ta')).toEqual([-1, 17]);
  expect(lefts('aT')).toEqual([0, 20]);
  const layout = layoutText(font, 'A');
  expect(Array.from(layout.quads.subarray(0, QUAD_FLOATS))).toEqual([-1, 4, 25, 31, 0, 0, 26 / 128, 27 / 128, 0]);
  // é and € live on page 1.
  expect(layoutText(font, 'é').quads[8]).toBe(1);
});

test('UTF-8 bytes and UTF-16 strings lay out the same, astral characters included', () => {
  const text = 'Té€ A😀V';
  const fromString = layoutText(font, text);
  const fromBytes = layoutText(font, new TextEncoder().encode(text), {}, new TextLayout());
  expect(fromBytes.count).toBe(fromString.count);
  expect(Array.from(fromBytes.quads.subarray(0, fromBytes.count * QUAD_FLOATS))).toEqual(Array.from(fromString.quads.subarray(0, fromString.count * QUAD_FLOATS)));
  // The emoji is one code point the font lacks: one replacement glyph, counted once.
  expect(fromString.missing).toBe(1);
  expect(fromString.count).toBe(6);
});

test('missing glyphs show the font\'s replacement (U+FFFD), and invalid UTF-8 does too', () => {
  const layout = layoutText(font, 'AZ');
  expect(layout.missing).toBe(1);
  // The replacement glyph's rectangle on page 1.
  expect(Array.from(layout.quads.subarray(QUAD_FLOATS + 4, QUAD_FLOATS + 9))).toEqual([46 / 128, 0, 72 / 128, 30 / 128, 1]);
  const broken = layoutText(font, new Uint8Array([0x41, 0xff, 0x41]));
  expect(broken.count).toBe(3);
  expect(broken.quads[QUAD_FLOATS + 8]).toBe(1);
});

test('explicit line breaks move down one line height; CR is ignored', () => {
  const layout = layoutText(font, 'A\r\nA\nA', { y: 100 });
  expect(layout.lines).toBe(3);
  expect([layout.quads[1], layout.quads[QUAD_FLOATS + 1], layout.quads[2 * QUAD_FLOATS + 1]]).toEqual([104, 140, 176]);
  expect(layout.height).toBe(3 * 36);
});

test('wrapping at a width breaks at spaces and keeps words whole', () => {
  // "AVA" is 21+23-2 ... ends at 63 ink; with a space 11, two words need 63 + 11 + 63 = 137.
  const layout = layoutText(font, 'AVA AVA AVA', { maxWidth: 140 });
  expect(layout.lines).toBe(2);
  const ys = Array.from({ length: layout.count }, (_, i) => layout.quads[i * QUAD_FLOATS + 1]!);
  expect(ys).toEqual([4, 4, 4, 4, 4, 4, 40, 40, 40]);
  // The moved word starts at the left edge again.
  expect(layout.quads[6 * QUAD_FLOATS]).toBe(-1);
  expect(layout.width).toBe(137);
  // A word longer than the width alone breaks between characters.
  const long = layoutText(font, 'AAAAAA', { maxWidth: 50 });
  expect(long.lines).toBe(3);
});

test('alignment inside maxWidth and around the anchor', () => {
  const width = 23 + 21 - 2; // "AV"
  expect(lefts('AV', { align: 'right', maxWidth: 100 })[0]).toBe(100 - width - 1);
  expect(lefts('AV', { align: 'center', maxWidth: 100 })[0]).toBe((100 - width) / 2 - 1);
  expect(lefts('AV', { align: 'center', x: 50 })[0]).toBe(50 - width / 2 - 1);
  // Each line is aligned on its own; a wrapped line's trailing space does not count.
  const layout = layoutText(font, 'AVA AVA AVA', { maxWidth: 140, align: 'right' });
  expect(layout.quads[0]).toBe(140 - 137 - 1);
  expect(layout.quads[6 * QUAD_FLOATS]).toBe(140 - 63 - 1);
});

test('size scales everything from the font\'s em', () => {
  // The font's em is |info.size| = 32; 16 px halves every measurement.
  expect(lefts('AVA', { size: 16 })).toEqual([-0.5, 10, 19.5]);
  expect(layoutText(font, 'A\nA', { size: 16 }).height).toBe(36);
});
