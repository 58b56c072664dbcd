// AngelCode's text .fnt: one tag per line, `key=value` pairs, values quoted when they hold
// spaces. Lines and columns count from 1.
import type { BMFont } from './api.ts';
import { fontFromTags, type FontTag } from './bmfont-fields.ts';
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

function* tagsOf(source: string): Generator<FontTag> {
  let lineNumber = 0;
  let start = 0;
  while (start <= source.length) {
    let end = source.indexOf('\n', start);
    if (end < 0) end = source.length;
    lineNumber++;
    const line = source.charCodeAt(end - 1) === 13 ? source.slice(start, end - 1) : source.slice(start, end);
    const tag = tagOfLine(line, lineNumber);
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
