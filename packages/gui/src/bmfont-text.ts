// AngelCode's text .fnt: one tag per line, `key=value` pairs, values quoted when they hold
// spaces. Lines and columns count from 1.
import type { BMFont, BMFontChar, BMFontKerning } from './api.ts';
import { fontFromTags, type FontTag, type TextPosition } from './bmfont-fields.ts';
import { GuiError } from './errors.ts';

const TAB = 9;
const SPACE = 32;
const QUOTE = 34;
const EQUALS = 61;

function lineError(line: number, index: number, message: string): GuiError {
  return new GuiError(`BMFont line ${line}:${index + 1}: ${message}`, { line, column: index + 1 });
}

/**
 * The tag on one line, or undefined for a blank line. With `valueColumns`, also records where
 * each value starts (from 1): FontTag.valueAt reads the line again that way when an error asks.
 */
function tagOfLine(text: string, lineNumber: number, valueColumns?: Map<string, number>): FontTag | undefined {
  let i = 0;
  const n = text.length;
  let c = text.charCodeAt(i);
  while (i < n && (c === SPACE || c === TAB)) c = text.charCodeAt(++i);
  const nameStart = i;
  while (i < n && c !== SPACE && c !== TAB) c = text.charCodeAt(++i);
  const name = text.slice(nameStart, i);
  if (name === '') return undefined;
  const attributes = new Map<string, string>();
  while (i < n) {
    while (i < n && (c === SPACE || c === TAB)) c = text.charCodeAt(++i);
    if (i >= n) break;
    const keyStart = i;
    while (i < n && c !== EQUALS && c !== SPACE && c !== TAB) c = text.charCodeAt(++i);
    const key = text.slice(keyStart, i);
    if (c !== EQUALS) throw lineError(lineNumber, keyStart, `"${key}" has no =value (expected key=value pairs after "${name}").`);
    c = text.charCodeAt(++i);
    let value: string;
    if (c === QUOTE) {
      const open = i;
      const close = text.indexOf('"', open + 1);
      if (close < 0) throw lineError(lineNumber, open, `the quoted value of ${key} is never closed; add the closing " after the value.`);
      i = close + 1;
      c = text.charCodeAt(i);
      // A closing quote ends the pair, so a space or the line's end follows it; a quote followed
      // by anything else opens a later value, and this one was never closed.
      if (i < n && c !== SPACE && c !== TAB) {
        const next = /([^\s=]+)=$/.exec(text.slice(0, close));
        const what = next ? `opens the value of ${next[1]!}` : 'is not followed by a space';
        throw lineError(lineNumber, open, `the quoted value of ${key} is never closed (the next ", at column ${close + 1}, ${what}); add the closing " after the value.`);
      }
      value = text.slice(open + 1, close);
      valueColumns?.set(key, open + 2);
    } else {
      const valueStart = i;
      while (i < n && c !== SPACE && c !== TAB) c = text.charCodeAt(++i);
      value = text.slice(valueStart, i);
      valueColumns?.set(key, valueStart + 1);
    }
    attributes.set(key, value);
  }
  return {
    name,
    attributes,
    line: lineNumber,
    column: nameStart + 1,
    valueAt(key) {
      const columns = new Map<string, number>();
      tagOfLine(text, lineNumber, columns);
      const column = columns.get(key);
      return column === undefined ? undefined : { line: lineNumber, column };
    },
  };
}

// char and kerning lines, nearly all of a file, are read straight into numbers: no Map, no
// strings per value. A line this fast path does not expect (a quoted or non-integer number, a
// missing field, a key without =) is read the general way instead, which accepts it or says
// what is wrong exactly as before.
const CHAR_KEYS = ['id', 'x', 'y', 'width', 'height', 'xoffset', 'yoffset', 'xadvance', 'page', 'chnl'] as const;
const CHAR_REQUIRED = 0xff; // id..xadvance; page and chnl have defaults
const KERNING_KEYS = ['first', 'second', 'amount'] as const;
const KERNING_REQUIRED = 0x7;
const MINUS = 45;
const values = new Float64Array(CHAR_KEYS.length);

/**
 * Reads the key=integer pairs of source[i, end) into `values` by their index in `keys`, skipping
 * other keys (Littera's letter="A"); returns the bit set of keys seen, or -1 to read the line the
 * general way.
 */
function scanNumbers(source: string, i: number, end: number, keys: readonly string[]): number {
  let seen = 0;
  let next = 0;
  while (i < end) {
    let c = source.charCodeAt(i);
    while (i < end && (c === SPACE || c === TAB)) c = source.charCodeAt(++i);
    if (i >= end) break;
    const keyStart = i;
    while (i < end && c !== EQUALS && c !== SPACE && c !== TAB) c = source.charCodeAt(++i);
    if (c !== EQUALS || i >= end) return -1;
    const keyLength = i - keyStart;
    // Keys come in BMFont's order: try the one after the last first.
    let k = -1;
    if (next < keys.length && keys[next]!.length === keyLength && source.startsWith(keys[next]!, keyStart)) k = next;
    else for (let j = 0; j < keys.length; j++) if (keys[j]!.length === keyLength && source.startsWith(keys[j]!, keyStart)) { k = j; break; }
    c = source.charCodeAt(++i);
    if (k < 0) {
      // Another key: skip its value as the general reader does.
      if (c === QUOTE) {
        const close = source.indexOf('"', i + 1);
        if (close < 0 || close >= end) return -1;
        i = close + 1;
        c = source.charCodeAt(i);
        if (i < end && c !== SPACE && c !== TAB) return -1;
      } else {
        while (i < end && c !== SPACE && c !== TAB) c = source.charCodeAt(++i);
      }
      continue;
    }
    const negative = c === MINUS;
    if (negative) c = source.charCodeAt(++i);
    const digitsStart = i;
    let value = 0;
    while (i < end && c >= 48 && c <= 57) {
      value = value * 10 + (c - 48);
      c = source.charCodeAt(++i);
    }
    // No digits, more than exact doubles hold, or something else after them: the general way.
    if (i === digitsStart || i - digitsStart > 15 || (i < end && c !== SPACE && c !== TAB)) return -1;
    values[k] = negative ? -value : value;
    seen |= 1 << k;
    next = k + 1;
  }
  return seen;
}

/** A char or kerning line read by the fast path; its attributes are read only if an error asks. */
class ScannedTag implements FontTag {
  readonly column: number;
  private text: string | undefined;
  constructor(readonly name: string, readonly line: number, private readonly source: string, private readonly start: number, private readonly end: number, nameStart: number, readonly char?: BMFontChar, readonly kerning?: BMFontKerning) {
    this.column = nameStart - start + 1;
  }

  get attributes(): Map<string, string> {
    this.text ??= this.source.slice(this.start, this.end);
    return tagOfLine(this.text, this.line)!.attributes;
  }

  valueAt(key: string): TextPosition | undefined {
    this.text ??= this.source.slice(this.start, this.end);
    return tagOfLine(this.text, this.line)!.valueAt(key);
  }
}

/** The line source[start, end) as a char or kerning by the fast path, or undefined. */
function scannedTag(source: string, start: number, end: number, lineNumber: number): FontTag | undefined {
  let i = start;
  let c = source.charCodeAt(i);
  while (i < end && (c === SPACE || c === TAB)) c = source.charCodeAt(++i);
  const nameStart = i;
  while (i < end && c !== SPACE && c !== TAB) c = source.charCodeAt(++i);
  const nameLength = i - nameStart;
  if (nameLength === 4 && source.startsWith('char', nameStart)) {
    const seen = scanNumbers(source, i, end, CHAR_KEYS);
    if (seen < 0 || (seen & CHAR_REQUIRED) !== CHAR_REQUIRED) return undefined;
    const char: BMFontChar = {
      id: values[0]!, x: values[1]!, y: values[2]!, width: values[3]!, height: values[4]!, xoffset: values[5]!, yoffset: values[6]!, xadvance: values[7]!,
      page: seen & 0x100 ? values[8]! : 0,
      chnl: seen & 0x200 ? values[9]! : 15,
    };
    return new ScannedTag('char', lineNumber, source, start, end, nameStart, char);
  }
  if (nameLength === 7 && source.startsWith('kerning', nameStart)) {
    const seen = scanNumbers(source, i, end, KERNING_KEYS);
    if (seen < 0 || (seen & KERNING_REQUIRED) !== KERNING_REQUIRED) return undefined;
    return new ScannedTag('kerning', lineNumber, source, start, end, nameStart, undefined, { first: values[0]!, second: values[1]!, amount: values[2]! });
  }
  return undefined;
}

function* tagsOf(source: string): Generator<FontTag> {
  let lineNumber = 0;
  let start = 0;
  while (start <= source.length) {
    let end = source.indexOf('\n', start);
    if (end < 0) end = source.length;
    lineNumber++;
    const lineEnd = source.charCodeAt(end - 1) === 13 && end > start ? end - 1 : end;
    const tag = scannedTag(source, start, lineEnd, lineNumber) ?? tagOfLine(source.slice(start, lineEnd), lineNumber);
    if (tag) yield tag;
    start = end + 1;
  }
}

/** Reads AngelCode's text .fnt format. */
export function parseBMFontText(source: string): BMFont {
  if (source.charCodeAt(0) === 0xfeff) source = source.slice(1);
  if (!/\S/.test(source)) throw new GuiError(`BMFont line 1:1: the file is empty${source.length > 0 ? ' (only whitespace)' : ''}; a text .fnt starts with an "info" line.`, { line: 1, column: 1 });
  if (!/^\s*info\s/.test(source)) throw new GuiError('BMFont line 1:1: a text .fnt starts with an "info" line; this looks like another format (try parseBMFont, which detects it).', { line: 1, column: 1 });
  return fontFromTags(tagsOf(source), 'text');
}

const quote = (s: string): string => `"${s}"`;

/** Writes AngelCode's text .fnt format, as BMFont itself lays it out. */
export function writeBMFontText(font: BMFont): string {
  const { info, common } = font;
  const lines: string[] = [];
  lines.push(`info face=${quote(info.face)} size=${info.size} bold=${info.bold} italic=${info.italic} charset=${quote(info.charset)} unicode=${info.unicode} stretchH=${info.stretchH} smooth=${info.smooth} aa=${info.aa} padding=${info.padding.join(',')} spacing=${info.spacing.join(',')} outline=${info.outline}`);
  lines.push(`common lineHeight=${common.lineHeight} base=${common.base} scaleW=${common.scaleW} scaleH=${common.scaleH} pages=${common.pages} packed=${common.packed} alphaChnl=${common.alphaChnl} redChnl=${common.redChnl} greenChnl=${common.greenChnl} blueChnl=${common.blueChnl}`);
  font.pages.forEach((file, id) => lines.push(`page id=${id} file=${quote(file)}`));
  if (font.distanceField) lines.push(`distanceField fieldType=${font.distanceField.fieldType} distanceRange=${font.distanceField.distanceRange}`);
  lines.push(`chars count=${font.chars.length}`);
  const pad = (key: string, value: number, width: number): string => `${key}=${String(value).padEnd(width)}`;
  for (const c of font.chars) {
    lines.push(`char ${pad('id', c.id, 4)} ${pad('x', c.x, 5)} ${pad('y', c.y, 5)} ${pad('width', c.width, 5)} ${pad('height', c.height, 5)} ${pad('xoffset', c.xoffset, 5)} ${pad('yoffset', c.yoffset, 5)} ${pad('xadvance', c.xadvance, 5)} ${pad('page', c.page, 2)} chnl=${c.chnl}`);
  }
  if (font.kernings.length > 0) {
    lines.push(`kernings count=${font.kernings.length}`);
    for (const k of font.kernings) lines.push(`kerning ${pad('first', k.first, 3)} ${pad('second', k.second, 3)} amount=${k.amount}`);
  }
  return lines.join('\n') + '\n';
}
