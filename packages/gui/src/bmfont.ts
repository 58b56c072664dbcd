// One entry point for all three .fnt formats: the binary signature, else XML, else text.
import type { BMFont, BMFontFormat } from './api.ts';
import { isBMFontBinary, parseBMFontBinary } from './bmfont-binary.ts';
import { parseBMFontText } from './bmfont-text.ts';
import { parseBMFontXml } from './bmfont-xml.ts';
import { GuiError } from './errors.ts';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Which of the three formats `data` is in. */
export function detectBMFontFormat(data: Uint8Array | string): BMFontFormat {
  if (typeof data !== 'string' && isBMFontBinary(data)) return 'binary';
  const head = typeof data === 'string' ? data.slice(0, 256) : new TextDecoder().decode(data.subarray(0, 256));
  const trimmed = head.replace(/^\uFEFF/, '').trimStart();
  if (trimmed === '' && !/[^\s\uFEFF]/.test(typeof data === 'string' ? data : new TextDecoder().decode(data))) {
    const size = typeof data === 'string' ? `${data.length} characters` : `${data.length} bytes`;
    throw new GuiError(`BMFont: the file is empty (${data.length === 0 ? size : `${size}, all white space`}); pass the contents of a .fnt file.`, typeof data === 'string' ? { line: 1, column: 1 } : { offset: 0 });
  }
  if (trimmed.startsWith('<')) return 'xml';
  if (trimmed.startsWith('info')) return 'text';
  throw new GuiError('not an AngelCode .fnt file: it starts with neither "BMF" (binary), "<" (XML) nor "info" (text).', { offset: 0 });
}

/** Reads a .fnt in any of AngelCode's three formats; bytes of the text formats must be UTF-8. */
export function parseBMFont(data: Uint8Array | string): BMFont {
  const format = detectBMFontFormat(data);
  if (format === 'binary') return parseBMFontBinary(data as Uint8Array);
  let text: string;
  if (typeof data === 'string') text = data;
  else {
    try {
      text = strictUtf8.decode(data);
    } catch {
      throw new GuiError('BMFont text/XML file is not valid UTF-8; save it as UTF-8 (BMFont writes UTF-8 when "unicode" is on).');
    }
  }
  return format === 'xml' ? parseBMFontXml(text) : parseBMFontText(text);
}
