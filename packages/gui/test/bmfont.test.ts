// The three AngelCode formats, read from files laid out as BMFont writes them (two pages,
// kerning pairs, non-ASCII ids), checked against each other, the npm parsers and round trips.
import parseAscii from 'parse-bmfont-ascii';
import parseBinary from 'parse-bmfont-binary';
import parseXml from 'parse-bmfont-xml';
import { describe, expect, test } from 'vitest';
import { parseBMFont, parseBMFontBinary, parseBMFontText, parseBMFontXml, writeBMFontBinary, writeBMFontText, writeBMFontXml, type BMFont } from '../src/index.ts';
import { binary, errorOf, fixture, text, xml } from './fnt-fixtures.ts';


describe('reading', () => {
  test('the text format: info, common, two pages, chars, kerning', () => {
    const font = parseBMFontText(text);
    expect(font.info.face).toBe('Arial Black');
    expect(font.info.size).toBe(-32);
    expect(font.info.padding).toEqual([2, 2, 2, 2]);
    expect(font.info.spacing).toEqual([1, 1]);
    expect(font.common).toEqual({ lineHeight: 36, base: 29, scaleW: 128, scaleH: 128, pages: 2, packed: 0, alphaChnl: 0, redChnl: 4, greenChnl: 4, blueChnl: 4 });
    expect(font.pages).toEqual(['arial-2pages_0.png', 'arial-2pages_1.png']);
    expect(font.chars).toHaveLength(8);
    expect(font.chars.find((c) => c.id === 8364)).toEqual({ id: 8364, x: 21, y: 0, width: 24, height: 28, xoffset: -1, yoffset: 3, xadvance: 21, page: 1, chnl: 15 });
    expect(font.kernings).toEqual([{ first: 65, second: 86, amount: -2 }, { first: 86, second: 65, amount: -2 }, { first: 84, second: 97, amount: -3 }]);
  });

  test('XML and binary hold the same font as the text file', () => {
    const fromText = parseBMFontText(text);
    expect(parseBMFontXml(xml)).toEqual(fromText);
    expect(parseBMFontBinary(binary)).toEqual(fromText);
  });

  test('parseBMFont detects each format from bytes, and CRLF line ends and a BOM are fine', () => {
    const fromText = parseBMFontText(text);
    expect(parseBMFont(new Uint8Array(fixture('arial-2pages.fnt')))).toEqual(fromText);
    expect(parseBMFont(new TextEncoder().encode(xml))).toEqual(fromText);
    expect(parseBMFont(binary)).toEqual(fromText);
    expect(parseBMFont('\uFEFF' + text.replace(/\n/g, '\r\n'))).toEqual(fromText);
  });

  test('the same numbers as parse-bmfont-ascii, parse-bmfont-xml and parse-bmfont-binary', () => {
    const ours = parseBMFontText(text);
    for (const theirs of [parseAscii(text), parseXml(xml), parseBinary(Buffer.from(binary))]) {
      // parse-bmfont-xml (Node build) keeps only the first <page> of <pages>: compare page 0.
      expect(theirs.pages[0]).toEqual(ours.pages[0]);
      expect(theirs.kernings).toEqual(ours.kernings);
      expect(theirs.chars.map((c) => ({ ...c }))).toEqual(ours.chars.map((c) => ({ ...c })));
      expect(theirs.common.lineHeight).toBe(ours.common.lineHeight);
      expect(theirs.common.scaleW).toBe(ours.common.scaleW);
      expect(theirs.info.face).toBe(ours.info.face);
      expect(theirs.info.size).toBe(ours.info.size);
      expect(theirs.info.padding).toEqual(ours.info.padding);
      expect([theirs.info.smooth, theirs.info.unicode]).toEqual([ours.info.smooth, ours.info.unicode]);
    }
    expect(parseAscii(text).pages).toEqual(ours.pages);
    expect(parseBinary(Buffer.from(binary)).pages).toEqual(ours.pages);
    expect(parseXml(xml).pages).toHaveLength(1);
  });
});

describe('writing', () => {
  test('text and XML writers round-trip, and the text writer reproduces BMFont\'s own layout', () => {
    const font = parseBMFontText(text);
    expect(writeBMFontText(font)).toBe(text);
    expect(parseBMFontText(writeBMFontText(font))).toEqual(font);
    expect(parseBMFontXml(writeBMFontXml(font))).toEqual(font);
    expect(writeBMFontXml(font)).toBe(xml);
  });

  test('the binary writer matches the hand-assembled file byte for byte', () => {
    expect(writeBMFontBinary(parseBMFontText(text))).toEqual(binary);
  });

  test('quotes, ampersands and UTF-8 in names survive XML and text', () => {
    const font: BMFont = { ...parseBMFontText(text), pages: ['Ünïcode & "quoted" <page>.png', 'b.png'] };
    font.info = { ...font.info, face: 'Noto Sans 日本語' };
    expect(parseBMFontXml(writeBMFontXml(font))).toEqual(font);
    const binaryFont = { ...font, pages: ['Ünïcode.png', 'b.png'] };
    expect(parseBMFontBinary(writeBMFontBinary(binaryFont))).toEqual(binaryFont);
  });

  test('the distanceField block (msdf-bmfont-xml\'s extension) round-trips in text and XML', () => {
    const font: BMFont = { ...parseBMFontText(text), distanceField: { fieldType: 'sdf', distanceRange: 8 } };
    expect(parseBMFontText(writeBMFontText(font))).toEqual(font);
    expect(parseBMFontXml(writeBMFontXml(font))).toEqual(font);
  });
});

describe('malformed files name the line or byte offset', () => {
  test('text: a bad number names its line', () => {
    const bad = text.replace('char id=86   x=27', 'char id=86   x=2seven');
    const error = errorOf(() => parseBMFontText(bad));
    expect(error.line).toBe(8);
    expect(error.message).toMatch(/line 8:16: char x="2seven" is not an integer/);
  });

  test('text: an unclosed quote, a missing value, a missing page, a char on a page that does not exist', () => {
    expect(errorOf(() => parseBMFontText(text.replace('file="arial-2pages_1.png"', 'file="arial-2pages_1.png'))).line).toBe(4);
    expect(errorOf(() => parseBMFontText(text.replace('xadvance=11', 'xadvance'))).line).toBe(6);
    expect(errorOf(() => parseBMFontText(text.replace('page id=1 file="arial-2pages_1.png"\n', ''))).message).toMatch(/pages=2 but the file lists 1/);
    expect(errorOf(() => parseBMFontText(text.replace('xadvance=28    page=1', 'xadvance=28    page=7'))).message).toMatch(/line 13:\d+: char id=65533 is on page 7/);
    expect(errorOf(() => parseBMFontText(text.replace(/^common.*\n/m, ''))).message).toMatch(/no common block/);
  });

  test('XML: bad attributes, unclosed and mismatched tags name their line', () => {
    expect(errorOf(() => parseBMFontXml(xml.replace('yoffset="10"', 'yoffset=10'))).line).toBe(14);
    expect(errorOf(() => parseBMFontXml(xml.replace('  </chars>\n', ''))).message).toMatch(/<\/font> closes <chars>/);
    expect(errorOf(() => parseBMFontXml(xml.replace('amount="-3"', 'amount="x"'))).line).toBe(22);
  });

  test('binary: truncation, bad version, odd block sizes name the byte offset', () => {
    const truncated = binary.slice(0, binary.length - 4);
    const error = errorOf(() => parseBMFontBinary(truncated));
    expect(error.offset).toBe(binary.length - 35);
    expect(error.message).toMatch(/block 5 says 30 bytes but only 26 remain/);
    const version2 = binary.slice();
    version2[3] = 2;
    expect(errorOf(() => parseBMFontBinary(version2)).offset).toBe(3);
    expect(errorOf(() => parseBMFont(new Uint8Array([1, 2, 3]))).message).toMatch(/not an AngelCode \.fnt/);
    const badType = binary.slice();
    badType[4] = 9;
    expect(errorOf(() => parseBMFontBinary(badType)).message).toMatch(/byte offset 4: unknown block type 9/);
  });

  test('invalid UTF-8 in a text file is refused', () => {
    const bytes = new Uint8Array([...new TextEncoder().encode(text.slice(0, 20)), 0xff, 0xfe, ...new TextEncoder().encode(text.slice(20))]);
    expect(() => parseBMFont(bytes)).toThrow(/not valid UTF-8/);
  });
});
