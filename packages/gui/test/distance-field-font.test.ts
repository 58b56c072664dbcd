// The post's tool, through the API and the cuttle-font CLI: a hand-drawn high-resolution font
// in TGA (grey, the post's case) and PNG (RGBA) pages becomes a distance-field font.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { runCli } from '../src/cli-run.ts';
import { decodeImage, distanceFieldFont, encodeImage, GuiError, parseBMFont, parseBMFontXml, writeBMFontText, writeBMFontXml, type BMFont } from '../src/index.ts';
import { readFontFiles } from '../src/node.ts';
import { handDrawnFont, SCALE, SPREAD } from './font-files.ts';

const dir = mkdtempSync(join(tmpdir(), 'cuttle-gui-sdf-'));
afterAll(() => { rmSync(dir, { recursive: true, force: true }); });

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (s) => { out += s; }, stderr: (s) => { err += s; } });
  return { code, out, err };
}

async function writeInput(name: string, channels: 1 | 4, extension: 'png' | 'tga', format: 'text' | 'xml'): Promise<string> {
  const { font, pages } = handDrawnFont(channels, extension);
  const named: BMFont = { ...font, pages: font.pages.map((p) => `${name}-${p}`) };
  const fnt = join(dir, `${name}.fnt`);
  writeFileSync(fnt, format === 'xml' ? writeBMFontXml(named) : writeBMFontText(named));
  for (let i = 0; i < pages.length; i++) writeFileSync(join(dir, named.pages[i]!), await encodeImage(pages[i]!, extension));
  return fnt;
}

test('the API rescales every measurement and makes Valve-style fields', () => {
  const { font, pages } = handDrawnFont(1, 'png');
  const out = distanceFieldFont(font, pages, { scale: SCALE, spread: SPREAD });
  expect(out.font.common).toMatchObject({ lineHeight: 24, base: 20, scaleW: 64, scaleH: 64, pages: 2 });
  expect(out.font.distanceField).toEqual({ fieldType: 'sdf', distanceRange: 2 * SPREAD });
  // The padding already holds the spread, so rectangles only shrink by the scale.
  expect(out.font.chars[0]).toEqual({ id: 111, x: 0, y: 0, width: 21, height: 21, xoffset: -3, yoffset: 2, xadvance: 17, page: 0, chnl: 15 });
  expect(out.font.chars[1]).toEqual({ id: 120, x: 22, y: 0, width: 19, height: 19, xoffset: -2, yoffset: 5, xadvance: 15, page: 0, chnl: 15 });
  expect(out.font.kernings).toEqual([{ first: 111, second: 120, amount: -2 }]);
  const page = out.pages[0]!;
  const at = (x: number, y: number): number => page.data[y * page.width + x]!;
  // Disc centre (84, 84) -> output 10.5: deep inside, clamped to 255; far outside is 0.
  expect(at(10, 10)).toBe(255);
  expect(at(60, 60)).toBe(0);
  // The disc's edge at radius 60 is 7.5 output pixels from its centre: the field crosses 128 there.
  // Output pixel 10 samples the centre; pixel 17 lies half a pixel inside, pixel 18 half outside.
  const along = Array.from({ length: 10 }, (_, i) => at(10 + i, 10));
  expect(along.findIndex((v) => v < 128)).toBe(8);
  expect(along[7]! - 128).toBeCloseTo(0.5 * (127.5 / SPREAD), -1);
  expect(128 - along[8]!).toBeCloseTo(0.5 * (127.5 / SPREAD), -1);
});

test('too little padding: rectangles grow so the field still reaches the spread', () => {
  const { font, pages } = handDrawnFont(1, 'png');
  const tight: BMFont = { ...font, info: { ...font.info, padding: [0, 0, 0, 0] } };
  const out = distanceFieldFont(tight, pages, { scale: SCALE, spread: SPREAD });
  expect(out.font.chars[1]).toMatchObject({ x: 19, width: 25, xoffset: -5 });
});

test('cuttle-font sdf: grey and RGBA pages, as PNG or TGA, all give the same field', async () => {
  const outputs = [];
  for (const [channels, extension] of [[1, 'png'], [4, 'tga']] as const) {
    const input = await writeInput(`combo-${channels}-${extension}`, channels, extension, 'text');
    expect((await cli('sdf', input, '-o', join(dir, `combo-${channels}-${extension}-out.fnt`), '--scale', String(SCALE), '--spread', String(SPREAD))).code).toBe(0);
    outputs.push(await readFontFiles(join(dir, `combo-${channels}-${extension}-out.fnt`)));
  }
  expect(outputs[1]!.pages).toEqual(outputs[0]!.pages);
  expect(outputs[1]!.font.pages).toEqual(['combo-4-tga-out_0.tga', 'combo-4-tga-out_1.tga']);
});

test('cuttle-font sdf: monochrome TGA pages (XML .fnt) and RGBA PNG pages (text .fnt) give the same font', async () => {
  const tgaInput = await writeInput('mono', 1, 'tga', 'xml');
  const pngInput = await writeInput('rgba', 4, 'png', 'text');
  const a = await cli('sdf', tgaInput, '-o', join(dir, 'out-mono.fnt'), '--scale', String(SCALE), '--spread', String(SPREAD));
  expect(a).toMatchObject({ code: 0, err: '' });
  expect(a.out).toMatch(/out-mono_0\.tga/);
  const b = await cli('sdf', pngInput, '-o', join(dir, 'out-rgba.fnt'), '--scale', String(SCALE), '--spread', String(SPREAD), '--format', 'binary');
  expect(b.code).toBe(0);
  const mono = await readFontFiles(join(dir, 'out-mono.fnt'));
  const rgba = await readFontFiles(join(dir, 'out-rgba.fnt'));
  expect(mono.format).toBe('xml');
  expect(rgba.format).toBe('binary');
  expect(parseBMFontXml(readFileSync(join(dir, 'out-mono.fnt'), 'utf8')).pages).toEqual(['out-mono_0.tga', 'out-mono_1.tga']);
  expect(rgba.font.chars).toEqual(mono.font.chars);
  expect(rgba.pages).toEqual(mono.pages);
  const { font, pages } = handDrawnFont(1, 'tga');
  expect(mono.pages).toEqual(distanceFieldFont(font, pages, { scale: SCALE, spread: SPREAD }).pages);
  const info = await cli('info', join(dir, 'out-mono.fnt'));
  expect(info.out).toMatch(/Shapes 20px \(xml\)/);
  expect(info.out).toMatch(/2 page\(s\) of 64x64/);
  expect(info.out).toMatch(/3 characters, 1 kerning pairs, sdf distance range 6/);
});

test('a 4096x4096 page converts (the size the post\'s workflow makes)', async () => {
  const size = 4096;
  const data = new Uint8Array(size * size);
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) if (Math.hypot((x & 255) - 128, (y & 255) - 128) < 80) data[y * size + x] = 255;
  const font = parseBMFont(`info face="Big" size=512 padding=32,32,32,32\ncommon lineHeight=600 base=500 scaleW=${size} scaleH=${size} pages=1\npage id=0 file="big_0.png"\nchars count=1\nchar id=65 x=0 y=0 width=256 height=256 xoffset=0 yoffset=0 xadvance=256 page=0 chnl=15\n`);
  const out = distanceFieldFont(font, [{ width: size, height: size, channels: 1, data }], { scale: 8, spread: 4 });
  expect(out.pages[0]).toMatchObject({ width: 512, height: 512 });
  expect(out.pages[0]!.data[16 * 512 + 16]).toBe(255);
  const png = await encodeImage(out.pages[0]!, 'png');
  expect((await decodeImage(png)).data).toEqual(out.pages[0]!.data);
});

test('bad input: a missing page file, wrong page size, bad options, unknown commands', async () => {
  const input = await writeInput('missing', 1, 'png', 'text');
  rmSync(join(dir, 'missing-shapes_1.png'));
  const missing = await cli('sdf', input, '-o', join(dir, 'x.fnt'));
  expect(missing.code).toBe(1);
  expect(missing.err).toMatch(/names page "missing-shapes_1\.png", but .* cannot be read/);
  const { font, pages } = handDrawnFont(1, 'png');
  expect(() => distanceFieldFont(font, [pages[0]!], { scale: 8, spread: 3 })).toThrow(/2 page\(s\) but 1 image/);
  expect(() => distanceFieldFont({ ...font, common: { ...font.common, scaleW: 256 } }, pages, { scale: 8, spread: 3 })).toThrow(/page 0 .* is 512x512, the \.fnt says 256x512/);
  expect(() => distanceFieldFont(font, pages, { scale: 2.5, spread: 3 })).toThrow(GuiError);
  expect((await cli('sdf', input, '-o', join(dir, 'y.fnt'), '--format', 'json')).err).toMatch(/--format must be one of text, xml, binary/);
  expect((await cli('frobnicate', input)).err).toMatch(/unknown command "frobnicate"/);
  expect((await cli()).code).toBe(2);
});
