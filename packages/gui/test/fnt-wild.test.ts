// Every real .fnt file in bench/fnt/ (public repositories; bench/fnt/README.md lists them) read
// by ours and by its parse-bmfont-* peer: the same chars, kerning pairs, pages, info and common.
// Also the text reader's fast path for char and kerning lines against the general path.
import { readdirSync, readFileSync } from 'node:fs';
import parseAscii from 'parse-bmfont-ascii';
import parseBinary from 'parse-bmfont-binary';
import parseXml from 'parse-bmfont-xml';
import { describe, expect, test } from 'vitest';
import { parseBMFont, parseBMFontBinary, parseBMFontText, parseBMFontXml, type BMFont } from '../src/index.ts';
import { errorOf } from './fnt-fixtures.ts';

const DIR = new URL('../bench/fnt/', import.meta.url);
const files = readdirSync(DIR).filter((f) => f.endsWith('.fnt')).sort();

type Format = 'text' | 'xml' | 'binary';
function formatOf(bytes: Buffer): Format {
  if (bytes[0] === 0x42 && bytes[1] === 0x4d && bytes[2] === 0x46) return 'binary';
  return bytes.toString('utf8', 0, 64).trimStart().startsWith('<') ? 'xml' : 'text';
}

function read(format: Format, bytes: Buffer): { ours: BMFont; theirs: PeerBMFont } {
  if (format === 'binary') return { ours: parseBMFontBinary(new Uint8Array(bytes)), theirs: parseBinary(Buffer.from(bytes)) };
  const source = bytes.toString('utf8');
  return format === 'xml' ? { ours: parseBMFontXml(source), theirs: parseXml(source) } : { ours: parseBMFontText(source), theirs: parseAscii(source) };
}

/** The peer's values for the keys it has (the binary peer names some fields differently). */
function peerFields(theirs: object, ours: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(theirs).filter(([key]) => key in ours));
}

describe('real .fnt files read as the parse-bmfont-* peers read them', () => {
  test('the folder holds text, XML and binary files', () => {
    const formats = files.map((f) => formatOf(readFileSync(new URL(f, DIR))));
    expect(formats.filter((f) => f === 'text').length).toBeGreaterThanOrEqual(8);
    expect(formats.filter((f) => f === 'xml').length).toBeGreaterThanOrEqual(3);
    expect(formats.filter((f) => f === 'binary').length).toBeGreaterThanOrEqual(4);
  });

  test.each(files)('%s', (file) => {
    const bytes = readFileSync(new URL(file, DIR));
    const format = formatOf(bytes);
    const { ours, theirs } = read(format, bytes);
    expect(parseBMFont(new Uint8Array(bytes))).toEqual(ours);
    // Chars: their ten BMFont fields (Littera and Glyph Designer add letter=, not one of them).
    expect(theirs.chars.map((c) => ({ id: c.id, x: c.x, y: c.y, width: c.width, height: c.height, xoffset: c.xoffset, yoffset: c.yoffset, xadvance: c.xadvance, page: c.page, chnl: c.chnl }))).toEqual(ours.chars);
    expect(theirs.kernings.map((k) => ({ ...k }))).toEqual(ours.kernings);
    // parse-bmfont-xml keeps only the first page of a multi-page font.
    if (format === 'xml') expect(theirs.pages).toEqual(ours.pages.slice(0, theirs.pages.length));
    else expect(theirs.pages).toEqual(ours.pages);
    expect(ours.pages.length).toBe(ours.common.pages);
    // The binary format stores spacing as bytes: parse-bmfont-binary reads them signed (-8),
    // ours unsigned as AngelCode's spec says (248); parsebmfontbinary-font2.bin has -8,-8.
    const info: Record<string, unknown> = { ...theirs.info };
    if (format === 'binary') info.spacing = (info.spacing as number[]).map((s) => s & 0xff);
    expect(peerFields(info, ours.info)).toEqual(peerFields(ours.info, info));
    expect(peerFields(theirs.common, ours.common)).toEqual(peerFields(ours.common, theirs.common));
  });
});

describe('the text reader reads char and kerning lines the same on its fast and general paths', () => {
  const base = 'info face="F" size=32\ncommon lineHeight=36 base=29 scaleW=128 scaleH=128 pages=1\npage id=0 file="f.png"\n';
  const char = (line: string): BMFont['chars'][number] => parseBMFontText(`${base}${line}\n`).chars[0]!;
  const same = { id: 65, x: 1, y: 2, width: 3, height: 4, xoffset: -5, yoffset: 6, xadvance: 7, page: 0, chnl: 15 };

  test('quoted numbers, other keys, another order, tabs and CRLF read as plain ones', () => {
    expect(char('char id=65 x=1 y=2 width=3 height=4 xoffset=-5 yoffset=6 xadvance=7')).toEqual(same);
    expect(char('char id="65" x=1 y=2 width=3 height=4 xoffset="-5" yoffset=6 xadvance=7 page=0 chnl=15')).toEqual(same);
    expect(char('char letter="A B" id=65 x=1 y=2 width=3 height=4 xoffset=-5 yoffset=6 xadvance=7 letter=A')).toEqual(same);
    expect(char('\tchar\txadvance=7  yoffset=6 xoffset=-5 height=4 width=3 y=2 x=1 id=65 chnl=15\r')).toEqual(same);
    expect(char('char id=0065 x=1 y=2 width=3 height=4 xoffset=-5 yoffset=6 xadvance=7 id=65')).toEqual(same);
    expect(parseBMFontText(`${base}kerning first=65 second="86" amount=-2 \r\n`).kernings).toEqual([{ first: 65, second: 86, amount: -2 }]);
  });

  test('lines it does not expect still fail as before, naming line:column', () => {
    expect(errorOf(() => char('char id=65 x=1 y=2 width=3 height=4 xoffset=-5 yoffset=6')).message).toMatch(/line 4:1: .*no xadvance=/);
    expect(errorOf(() => char('char id=65 x=1.5 y=2 width=3 height=4 xoffset=-5 yoffset=6 xadvance=7')).message).toMatch(/line 4:14: char x="1.5" is not an integer/);
    expect(errorOf(() => char('char id=65 x=1 y=2 width=3 height=4 xoffset=-5 yoffset=6 xadvance=7 page=1')).message).toMatch(/line 4:74: char id=65 is on page 1, but the font has 1 page/);
    expect(errorOf(() => char('char id=65 x')).message).toMatch(/line 4:12: "x" has no =value/);
    expect(errorOf(() => parseBMFontText(`${base}kerning first=65 second=86 amount=\n`)).message).toMatch(/amount="" is not an integer/);
  });
});
