// Broken .fnt files derived from the real fixtures (a quote dropped, a byte corrupted, a block
// cut out, nothing at all): each error says what is wrong and where, line:column for the text
// and XML formats, the byte offset of the bad byte for the binary one.
import { describe, expect, test } from 'vitest';
import { parseBMFont, parseBMFontBinary, parseBMFontText, parseBMFontXml } from '../src/index.ts';
import { binary, errorOf, text, xml } from './fnt-fixtures.ts';


/** Offset and size of the first block of `type` in a binary .fnt (blocks: type u8, size u32 LE). */
function block(bytes: Uint8Array, type: number): { at: number; size: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 4; at + 5 <= bytes.length; at += 5 + view.getUint32(at + 1, true)) {
    if (bytes[at] === type) return { at, size: view.getUint32(at + 1, true) };
  }
  throw new Error(`the fixture has no block ${type}`);
}

describe('text .fnt', () => {
  test('an unclosed quote names the quote that is not closed, not the key after it', () => {
    // face="Arial Black" loses its end: the next quote on the line is charset's.
    const bad = text.replace('face="Arial Black"', 'face="Arial');
    const error = errorOf(() => parseBMFontText(bad));
    expect(error.message).not.toMatch(/has no =value/);
    expect(error.message).toMatch(/line 1:11: the quoted value of face is never closed/);
    expect([error.line, error.column]).toEqual([1, 11]);
  });

  test('an unclosed quote at the end of a line names its column', () => {
    const error = errorOf(() => parseBMFontText(text.replace('file="arial-2pages_1.png"', 'file="arial-2pages_1.png')));
    expect(error.message).toMatch(/line 4:16: the quoted value of file is never closed/);
    expect([error.line, error.column]).toEqual([4, 16]);
  });

  test('a bad number names the line and column of its value', () => {
    const error = errorOf(() => parseBMFontText(text.replace('char id=86   x=27', 'char id=86   x=2seven')));
    expect(error.message).toMatch(/line 8:16: char x="2seven" is not an integer/);
    expect([error.line, error.column]).toEqual([8, 16]);
  });

  test('empty input says empty', () => {
    for (const run of [() => parseBMFontText(''), () => parseBMFont(''), () => parseBMFont(binary.subarray(0, 0)), () => parseBMFont(' \n\r\n')]) {
      const error = errorOf(run);
      expect(error.message).toMatch(/empty/);
      expect(error.message).not.toMatch(/not an AngelCode/);
    }
  });
});

describe('XML .fnt', () => {
  test('an unclosed quote names the quote that is not closed', () => {
    const bad = xml.replace('face="Arial Black"', 'face="Arial');
    const error = errorOf(() => parseBMFontXml(bad));
    expect(error.message).toMatch(/line 3:14: the quoted value of face is never closed/);
    expect([error.line, error.column]).toEqual([3, 14]);
  });

  test('a bad attribute and a bad number name line:column', () => {
    expect(errorOf(() => parseBMFontXml(xml.replace('yoffset="10"', 'yoffset=10'))).message).toMatch(/line 14:\d+: bad attribute syntax near "yoffset=10/);
    const bad = xml.replace('amount="-3"', 'amount="x"');
    const error = errorOf(() => parseBMFontXml(bad));
    const column = bad.split('\n')[21]!.indexOf('"x"') + 2;
    expect(error.message).toMatch(new RegExp(`line 22:${column}: kerning amount="x" is not an integer`));
    expect([error.line, error.column]).toEqual([22, column]);
  });

  test('empty input says empty', () => {
    expect(errorOf(() => parseBMFontXml('')).message).toMatch(/empty/);
  });
});

describe('binary .fnt', () => {
  test('a char on a page that does not exist names the byte of its page number', () => {
    const bad = binary.slice();
    const chars = block(bad, 4);
    const last = chars.at + 5 + chars.size - 20; // the last char record (U+FFFD, page 1)
    bad[last + 18] = 5;
    const error = errorOf(() => parseBMFontBinary(bad));
    expect(error.offset).toBe(last + 18);
    expect(error.message).toMatch(new RegExp(`byte offset ${last + 18}: char id=65533 is on page 5, but the font has 2 page`));
  });

  test('no common block names where it belongs, not the end of the file', () => {
    const common = block(binary, 2);
    const bad = new Uint8Array([...binary.subarray(0, common.at), ...binary.subarray(common.at + 5 + common.size)]);
    const error = errorOf(() => parseBMFontBinary(bad));
    expect(error.offset).toBe(common.at);
    expect(error.offset).not.toBe(bad.length);
    expect(error.message).toMatch(new RegExp(`byte offset ${common.at}: .*no common block`));
  });

  test('no info block names where it belongs', () => {
    const info = block(binary, 1);
    const bad = new Uint8Array([...binary.subarray(0, info.at), ...binary.subarray(info.at + 5 + info.size)]);
    const error = errorOf(() => parseBMFontBinary(bad));
    expect(error.offset).toBe(4);
    expect(error.message).toMatch(/byte offset 4: .*no info block/);
  });

  test('a page count that disagrees with the pages block names the count in the common block', () => {
    const bad = binary.slice();
    const common = block(bad, 2);
    bad[common.at + 5 + 8] = 3; // common.pages, u16 LE
    const error = errorOf(() => parseBMFontBinary(bad));
    expect(error.offset).toBe(common.at + 5 + 8);
    expect(error.message).toMatch(/common says 3 page\(s\) but the pages block names 2/);
  });

  test('empty input says empty', () => {
    const error = errorOf(() => parseBMFontBinary(binary.subarray(0, 0)));
    expect(error.message).toMatch(/empty/);
    expect(error.offset).toBe(0);
  });
});

// Files from the wild that the parse-bmfont-* peers read (bench/fnt/README.md lists them): an
// unescaped '>' inside a quoted XML attribute (Littera and Glyph Designer write letter=">"), and
// an empty unicode= (ShoeBox). Read as the same font as without them.
describe('what real files hold', () => {
  test('an XML attribute value holding ">" is a value, not the end of the tag', () => {
    const withLetters = xml.replace('<char id="65" ', '<char letter="&gt;" id="65" ').replace('<char id="32" ', '<char letter=">" id="32" ');
    expect(parseBMFontXml(withLetters)).toEqual(parseBMFontXml(xml));
  });

  test('an empty unicode= (text) or unicode="" (XML) is the default, 0', () => {
    const text0 = parseBMFontText(text.replace('unicode=1', 'unicode=0'));
    expect(parseBMFontText(text.replace('unicode=1', 'unicode='))).toEqual(text0);
    expect(parseBMFontText(text.replace('unicode=1', 'unicode=""'))).toEqual(text0);
    expect(parseBMFontXml(xml.replace('unicode="1"', 'unicode=""'))).toEqual(parseBMFontXml(xml.replace('unicode="1"', 'unicode="0"')));
  });

  test('an empty required value is still refused by name', () => {
    expect(errorOf(() => parseBMFontText(text.replace(/lineHeight=\d+/, 'lineHeight=""'))).message).toMatch(/lineHeight="" is not an integer/);
  });
});
