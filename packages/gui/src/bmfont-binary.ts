// AngelCode's binary .fnt, version 3: "BMF" 3, then blocks of (type u8, size u32 LE):
// 1 info, 2 common, 3 page names, 4 chars (20 bytes each), 5 kerning pairs (10 bytes each).
// All integers little-endian; strings are null-terminated UTF-8. The spec's "bit 0" of the info
// flags is the most significant bit: BMFont writes smooth as 0x80, unicode 0x40, italic 0x20,
// bold 0x10, fixedHeight 0x08.
import type { BMFont, BMFontChar, BMFontCommon, BMFontInfo, BMFontKerning } from './api.ts';
import { GuiError } from './errors.ts';

const utf8 = new TextDecoder('utf-8');
const CHAR_BYTES = 20;
const KERNING_BYTES = 10;
const BLOCK_NAMES = ['', 'info', 'common', 'pages', 'chars', 'kerning pairs'];

function fail(offset: number, message: string): never {
  throw new GuiError(`BMFont binary at byte offset ${offset}: ${message}`, { offset });
}

function cString(bytes: Uint8Array, start: number, end: number): { value: string; next: number } {
  let zero = start;
  while (zero < end && bytes[zero] !== 0) zero++;
  if (zero >= end) fail(start, 'string is not null-terminated inside its block.');
  return { value: utf8.decode(bytes.subarray(start, zero)), next: zero + 1 };
}

/** True when `bytes` starts with the binary .fnt signature. */
export function isBMFontBinary(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === 0x42 && bytes[1] === 0x4d && bytes[2] === 0x46;
}

/** Reads AngelCode's binary .fnt format (version 3). */
export function parseBMFontBinary(bytes: Uint8Array): BMFont {
  if (bytes.length === 0) fail(0, 'the file is empty (0 bytes); a binary .fnt starts with "BMF" and version 3.');
  if (!isBMFontBinary(bytes)) fail(0, 'no "BMF" signature; this is not a binary .fnt (try parseBMFont, which detects the format).');
  if (bytes.length < 4) fail(3, 'file ends before the version byte.');
  if (bytes[3] !== 3) fail(3, `version ${bytes[3]} is not supported; only version 3 (BMFont 1.10 and later) is.`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let info: BMFontInfo | undefined;
  let common: BMFontCommon | undefined;
  let pages: string[] = [];
  const chars: BMFontChar[] = [];
  const kernings: BMFontKerning[] = [];
  // Byte offsets for errors found once the whole file is read: where the common block belongs
  // (after info, as BMFont writes it), common's page count, and each char's page byte.
  let commonBelongsAt = -1;
  let commonPagesAt = -1;
  const charPageAt: number[] = [];
  let at = 4;
  while (at < bytes.length) {
    if (at + 5 > bytes.length) fail(at, `truncated block header (${bytes.length - at} byte(s) left, a header is 5).`);
    const type = bytes[at]!;
    const size = view.getUint32(at + 1, true);
    const start = at + 5;
    const end = start + size;
    if (end > bytes.length) fail(at, `block ${type} says ${size} bytes but only ${bytes.length - start} remain (truncated file?).`);
    switch (type) {
      case 1: {
        if (size < 15) fail(at, `info block is ${size} bytes; it needs at least 15.`);
        const bits = bytes[start + 2]!;
        info = {
          size: view.getInt16(start, true),
          smooth: (bits >> 7) & 1,
          unicode: (bits >> 6) & 1,
          italic: (bits >> 5) & 1,
          bold: (bits >> 4) & 1,
          charset: bytes[start + 3] === 0 ? '' : String(bytes[start + 3]),
          stretchH: view.getUint16(start + 4, true),
          aa: bytes[start + 6]!,
          padding: [bytes[start + 7]!, bytes[start + 8]!, bytes[start + 9]!, bytes[start + 10]!],
          spacing: [bytes[start + 11]!, bytes[start + 12]!],
          outline: bytes[start + 13]!,
          face: cString(bytes, start + 14, end).value,
        };
        commonBelongsAt = end;
        break;
      }
      case 2: {
        if (size < 15) fail(at, `common block is ${size} bytes; it needs 15.`);
        common = {
          lineHeight: view.getUint16(start, true),
          base: view.getUint16(start + 2, true),
          scaleW: view.getUint16(start + 4, true),
          scaleH: view.getUint16(start + 6, true),
          pages: view.getUint16(start + 8, true),
          packed: (bytes[start + 10]! >> 7) & 1,
          alphaChnl: bytes[start + 11]!,
          redChnl: bytes[start + 12]!,
          greenChnl: bytes[start + 13]!,
          blueChnl: bytes[start + 14]!,
        };
        commonPagesAt = start + 8;
        break;
      }
      case 3: {
        pages = [];
        let p = start;
        while (p < end) {
          const name = cString(bytes, p, end);
          pages.push(name.value);
          p = name.next;
        }
        break;
      }
      case 4: {
        if (size % CHAR_BYTES !== 0) fail(at, `chars block is ${size} bytes, not a multiple of ${CHAR_BYTES}.`);
        for (let p = start; p < end; p += CHAR_BYTES) {
          chars.push({
            id: view.getUint32(p, true),
            x: view.getUint16(p + 4, true),
            y: view.getUint16(p + 6, true),
            width: view.getUint16(p + 8, true),
            height: view.getUint16(p + 10, true),
            xoffset: view.getInt16(p + 12, true),
            yoffset: view.getInt16(p + 14, true),
            xadvance: view.getInt16(p + 16, true),
            page: bytes[p + 18]!,
            chnl: bytes[p + 19]!,
          });
          charPageAt.push(p + 18);
        }
        break;
      }
      case 5: {
        if (size % KERNING_BYTES !== 0) fail(at, `kerning block is ${size} bytes, not a multiple of ${KERNING_BYTES}.`);
        for (let p = start; p < end; p += KERNING_BYTES) {
          kernings.push({ first: view.getUint32(p, true), second: view.getUint32(p + 4, true), amount: view.getInt16(p + 8, true) });
        }
        break;
      }
      default: fail(at, `unknown block type ${type} (expected 1-5).`);
    }
    at = end;
  }
  const found = (offset: number): string => (offset + 5 <= bytes.length ? `block ${bytes[offset]} (${BLOCK_NAMES[bytes[offset]!] ?? 'unknown'}) is here` : 'the file ends here');
  if (!info) fail(4, `no info block (type 1): it comes first, after the signature, but ${found(4)}.`);
  if (!common) fail(commonBelongsAt, `no common block (type 2): it belongs here, after the info block, but ${found(commonBelongsAt)}.`);
  if (pages.length !== common.pages) fail(commonPagesAt, `common says ${common.pages} page(s) but the pages block names ${pages.length}.`);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c.page >= pages.length) fail(charPageAt[i]!, `char id=${c.id} is on page ${c.page}, but the font has ${pages.length} page(s).`);
  }
  return { info, common, pages, chars, kernings };
}

/** Writes the binary .fnt format, version 3 (distanceField is not part of it and is dropped). */
export function writeBMFontBinary(font: BMFont): Uint8Array {
  const encoder = new TextEncoder();
  const face = encoder.encode(font.info.face);
  const pageNames = font.pages.map((p) => encoder.encode(p));
  const pageBytes = pageNames.reduce((sum, p) => sum + p.length + 1, 0);
  const total = 4 + (5 + 14 + face.length + 1) + (5 + 15) + (5 + pageBytes) + (5 + font.chars.length * CHAR_BYTES) + (font.kernings.length > 0 ? 5 + font.kernings.length * KERNING_BYTES : 0);
  const bytes = new Uint8Array(total);
  const view = new DataView(bytes.buffer);
  bytes.set([0x42, 0x4d, 0x46, 3]);
  let at = 4;
  const block = (type: number, size: number): number => {
    bytes[at] = type;
    view.setUint32(at + 1, size, true);
    const start = at + 5;
    at = start + size;
    return start;
  };
  const { info, common } = font;
  let s = block(1, 14 + face.length + 1);
  view.setInt16(s, info.size, true);
  bytes[s + 2] = ((info.smooth & 1) << 7) | ((info.unicode & 1) << 6) | ((info.italic & 1) << 5) | ((info.bold & 1) << 4);
  bytes[s + 3] = Number(info.charset) || 0;
  view.setUint16(s + 4, info.stretchH, true);
  bytes.set([info.aa, ...info.padding, ...info.spacing, info.outline], s + 6);
  bytes.set(face, s + 14);
  s = block(2, 15);
  [common.lineHeight, common.base, common.scaleW, common.scaleH, common.pages].forEach((v, i) => { view.setUint16(s + i * 2, v, true); });
  bytes.set([common.packed ? 0x80 : 0, common.alphaChnl, common.redChnl, common.greenChnl, common.blueChnl], s + 10);
  s = block(3, pageBytes);
  for (const p of pageNames) {
    bytes.set(p, s);
    s += p.length + 1;
  }
  s = block(4, font.chars.length * CHAR_BYTES);
  for (const c of font.chars) {
    view.setUint32(s, c.id, true);
    [c.x, c.y, c.width, c.height].forEach((v, i) => { view.setUint16(s + 4 + i * 2, v, true); });
    [c.xoffset, c.yoffset, c.xadvance].forEach((v, i) => { view.setInt16(s + 12 + i * 2, v, true); });
    bytes[s + 18] = c.page;
    bytes[s + 19] = c.chnl;
    s += CHAR_BYTES;
  }
  if (font.kernings.length > 0) {
    s = block(5, font.kernings.length * KERNING_BYTES);
    for (const k of font.kernings) {
      view.setUint32(s, k.first, true);
      view.setUint32(s + 4, k.second, true);
      view.setInt16(s + 8, k.amount, true);
      s += KERNING_BYTES;
    }
  }
  return bytes;
}
