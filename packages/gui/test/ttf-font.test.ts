// TTF/OTF to glyph pages: the scanline rasteriser's nonzero rule and areas, then DejaVu Sans
// (Debian's fonts-dejavu-core; the test fails naming the package when it is missing) through
// the whole path, API and CLI.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { runCli } from '../src/cli-run.ts';
import { distanceFieldFontFromTtf, EdgeList, fillNonzero, flattenOutline, GlyphDistanceFields, GuiError, rasterizeFont, type OutlineCommand } from '../src/index.ts';
import { readFontFiles } from '../src/node.ts';
import { dejaVuSans, DEJAVU_SANS } from './font-files.ts';

const dir = mkdtempSync(join(tmpdir(), 'cuttle-gui-ttf-'));
afterAll(() => { rmSync(dir, { recursive: true, force: true }); });

function square(x0: number, y0: number, x1: number, y1: number, clockwise: boolean): OutlineCommand[] {
  const points = clockwise ? [[x0, y0], [x1, y0], [x1, y1], [x0, y1]] : [[x0, y0], [x0, y1], [x1, y1], [x1, y0]];
  return [{ type: 'M', x: points[0]![0]!, y: points[0]![1]! }, ...points.slice(1).map(([x, y]) => ({ type: 'L' as const, x: x!, y: y! })), { type: 'Z' }];
}

function fill(commands: OutlineCommand[], size = 64): Uint8Array {
  const edges = new EdgeList();
  flattenOutline(commands, edges);
  const target = new Uint8Array(size * size);
  fillNonzero(edges, target, size, 0, 0, size, size);
  return target;
}

const count = (mask: Uint8Array): number => mask.reduce((n, v) => n + (v ? 1 : 0), 0);

test('the rasteriser fills pixel centres by the nonzero rule', () => {
  expect(count(fill(square(10, 10, 30, 20, true)))).toBe(200);
  // An inner square wound the same way stays filled (even-odd would punch a hole) ...
  expect(count(fill([...square(10, 10, 50, 50, true), ...square(20, 20, 40, 40, true)]))).toBe(1600);
  // ... wound the other way it is a hole, as in the counter of an 'o'.
  expect(count(fill([...square(10, 10, 50, 50, true), ...square(20, 20, 40, 40, false)]))).toBe(1600 - 400);
  // Half-pixel edges: centres exactly on the left/top edge are in, on the right/bottom out.
  expect(count(fill(square(9.5, 9.5, 12.5, 11.5, true)))).toBe(6);
});

test('curves are flattened finely: a disc of quadratic arcs has the disc\'s area', () => {
  const r = 25;
  const c = 32;
  const commands: OutlineCommand[] = [{ type: 'M', x: c + r, y: c }];
  for (let i = 1; i <= 8; i++) {
    const a = (i * Math.PI) / 4;
    const m = a - Math.PI / 8;
    commands.push({ type: 'Q', x1: c + (r / Math.cos(Math.PI / 8)) * Math.cos(m), y1: c + (r / Math.cos(Math.PI / 8)) * Math.sin(m), x: c + r * Math.cos(a), y: c + r * Math.sin(a) });
  }
  commands.push({ type: 'Z' });
  const area = count(fill(commands));
  expect(Math.abs(area - Math.PI * r * r) / (Math.PI * r * r)).toBeLessThan(0.01);
  // A cubic square-ish blob closes and fills too.
  expect(count(fill([{ type: 'M', x: 10, y: 10 }, { type: 'C', x1: 30, y1: 0, x2: 50, y2: 20, x: 50, y: 50 }, { type: 'L', x: 10, y: 50 }, { type: 'Z' }]))).toBeGreaterThan(900);
});

test(`DejaVu Sans (${DEJAVU_SANS}) rasterises at 8x with AngelCode metrics and GPOS kerning`, () => {
  const { font, pages } = rasterizeFont(dejaVuSans(), { size: 32, scale: 8, spread: 4, chars: 'AVTaoe\u00e9\u20ac\uFFFD ' });
  expect(font.info.face).toBe('DejaVu Sans');
  expect(font.info.padding).toEqual([32, 32, 32, 32]);
  expect(font.common).toMatchObject({ scaleW: 2048, scaleH: 2048, base: Math.round((1901 / 2048) * 32) * 8 });
  // Every rectangle and offset divides by the scale, so scaling down moves nothing.
  for (const c of font.chars) for (const v of [c.x, c.y, c.width, c.height, c.xoffset, c.yoffset, c.xadvance]) expect(Math.abs(v % 8)).toBe(0);
  expect(font.chars.map((c) => c.id).sort((a, b) => a - b)).toEqual([32, 65, 84, 86, 97, 101, 111, 233, 8364, 65533]);
  const kern = (a: string, b: string): number => font.kernings.find((k) => k.first === a.codePointAt(0) && k.second === b.codePointAt(0))?.amount ?? 0;
  expect(kern('A', 'V')).toBeLessThan(0);
  expect(kern('T', 'o')).toBeLessThan(0);
  // 'o': the ink is in the ring, the counter is empty (the nonzero rule on opposite contours).
  const o = font.chars.find((c) => c.id === 111)!;
  const page = pages[o.page]!;
  const cx = o.x + (o.width >> 1);
  const cy = o.y + (o.height >> 1);
  expect(page.data[cy * page.width + cx]).toBe(0);
  const ringHits = Array.from({ length: o.width >> 1 }, (_, i) => page.data[cy * page.width + o.x + i]!).filter((v) => v === 255).length;
  expect(ringHits).toBeGreaterThan(10);
  // Padding is empty: the first and last padding rows of each glyph hold no ink.
  for (const c of font.chars.filter((g) => g.width > 0)) {
    const p = pages[c.page]!;
    for (let x = c.x; x < c.x + c.width; x++) {
      expect(p.data[c.y * p.width + x]).toBe(0);
      expect(p.data[(c.y + c.height - 1) * p.width + x]).toBe(0);
    }
  }
});

test('distanceFieldFontFromTtf and cuttle-font ttf give a 32px distance-field font', async () => {
  const { font, pages } = distanceFieldFontFromTtf(dejaVuSans(), { size: 32, scale: 8, spread: 4 });
  expect(font.common).toMatchObject({ scaleW: 256, scaleH: 256, base: 30 });
  expect(font.chars).toHaveLength(96);
  expect(font.distanceField).toEqual({ fieldType: 'sdf', distanceRange: 8 });
  const a = font.chars.find((c) => c.id === 65)!;
  expect(a.xadvance).toBe(Math.round((1401 / 2048) * 32));
  expect(pages[a.page]!.data.some((v) => v === 255)).toBe(true);
  let out = '';
  const code = await runCli(['ttf', DEJAVU_SANS, '-o', join(dir, 'dejavu.fnt'), '--size', '32', '--chars', 'Hello, wörld €'], { stdout: (s) => { out += s; }, stderr: (s) => { out += s; } });
  expect([code, out]).toEqual([0, `wrote ${join(dir, 'dejavu.fnt')}, ${join(dir, 'dejavu_0.png')}\n`]);
  const written = await readFontFiles(join(dir, 'dejavu.fnt'));
  expect(written.font.chars.map((c) => String.fromCodePoint(c.id)).sort().join('')).toBe(' ,Hdelorw€ö'.split('').sort().join(''));
  expect(written.pages[0]!.width).toBe(256);
});

test('without the Debian font the tests fail naming the package to install', () => {
  expect(() => dejaVuSans('/usr/share/fonts/truetype/dejavu/NoSuchFont.ttf')).toThrow(/fonts-dejavu-core/);
});

test('bad TTF input is refused clearly', () => {
  expect(() => rasterizeFont(new Uint8Array([1, 2, 3, 4]), { size: 32 })).toThrow(GuiError);
  expect(() => rasterizeFont(dejaVuSans(), { size: 0 })).toThrow(/size must be a positive number/);
  expect(() => rasterizeFont(dejaVuSans(), { size: 200, scale: 8, pageSize: 16, chars: 'W' })).toThrow(/raise pageSize/);
});

test('GlyphDistanceFields draws one glyph\'s field, the same as the whole-font path', () => {
  const fields = new GlyphDistanceFields(dejaVuSans(), { size: 32, scale: 8, spread: 4 });
  const a = fields.draw('A');
  const whole = distanceFieldFontFromTtf(dejaVuSans(), { size: 32, scale: 8, spread: 4, chars: 'A' });
  const c = whole.font.chars.find((g) => g.id === 65)!;
  expect([a.width, a.height, a.left, a.top + whole.font.common.base]).toEqual([c.width, c.height, c.xoffset, c.yoffset]);
  const page = whole.pages[c.page]!;
  for (let y = 0; y < a.height; y++) {
    expect(Array.from(a.data.subarray(y * a.width, (y + 1) * a.width))).toEqual(Array.from(page.data.subarray((c.y + y) * page.width + c.x, (c.y + y) * page.width + c.x + c.width)));
  }
  expect(a.advance).toBeCloseTo((1401 / 2048) * 32, 5);
  expect(fields.draw(' ').width).toBe(0);
});

test('an OTF with CFF outlines (cubic curves), written by opentype.js, rasterises to the right area', async () => {
  const { Font, Glyph, Path } = await import('opentype.js');
  // A disc of radius 400 units centred at (500, 400), four cubic arcs (counter-clockwise in
  // font units, y up), on a 1000-unit em.
  const k = 0.5522847498 * 400;
  const disc = new Path();
  disc.moveTo(900, 400);
  disc.curveTo(900, 400 + k, 500 + k, 800, 500, 800);
  disc.curveTo(500 - k, 800, 100, 400 + k, 100, 400);
  disc.curveTo(100, 400 - k, 500 - k, 0, 500, 0);
  disc.curveTo(500 + k, 0, 900, 400 - k, 900, 400);
  disc.close();
  const font = new Font({
    familyName: 'Discs',
    styleName: 'Regular',
    unitsPerEm: 1000,
    ascender: 800,
    descender: -200,
    glyphs: [new Glyph({ name: '.notdef', unicode: 0, advanceWidth: 500, path: new Path() }), new Glyph({ name: 'O', unicode: 79, advanceWidth: 1000, path: disc })],
  });
  const otf = new Uint8Array(font.toArrayBuffer());
  expect(String.fromCharCode(...otf.subarray(0, 4))).toBe('OTTO');
  // 100 px em: the disc has a 40 px radius.
  const { font: bm, pages } = rasterizeFont(otf, { size: 100, scale: 1, spread: 2, chars: 'O' });
  const o = bm.chars.find((c) => c.id === 79)!;
  const page = pages[o.page]!;
  let area = 0;
  for (let y = o.y; y < o.y + o.height; y++) for (let x = o.x; x < o.x + o.width; x++) if (page.data[y * page.width + x]) area++;
  expect(Math.abs(area - Math.PI * 40 * 40) / (Math.PI * 40 * 40)).toBeLessThan(0.01);
  expect(bm.info.face).toBe('Discs');
  expect(bm.chars.find((c) => c.id === 79)!.xadvance).toBe(100);
});
