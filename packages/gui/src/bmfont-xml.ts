// AngelCode's XML .fnt: <font> with <info>, <common>, <pages>/<page>, <chars>/<char> and
// <kernings>/<kerning>. A small XML tokenizer (elements, attributes, comments, the
// declaration, entities) is all the format needs; errors name the line and column.
import type { BMFont } from './api.ts';
import { fontFromTags, type FontTag, type TextPosition } from './bmfont-fields.ts';
import { GuiError } from './errors.ts';

const ENTITIES: Record<string, string> = { quot: '"', amp: '&', lt: '<', gt: '>', apos: "'" };

/** Line:column (from 1) of an offset into `source`, counted from the start (for errors only). */
function positionOf(source: string, offset: number): TextPosition {
  let line = 1;
  let lineStart = 0;
  for (let at = source.indexOf('\n'); at >= 0 && at < offset; at = source.indexOf('\n', at + 1)) {
    line++;
    lineStart = at + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

function xmlError(where: TextPosition, message: string): GuiError {
  return new GuiError(`BMFont XML line ${where.line}:${where.column}: ${message}`, where);
}

function decodeEntities(value: string, source: string, offset: number): string {
  if (!value.includes('&')) return value;
  return value.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z]+);/g, (_, name: string) => {
    if (name.startsWith('#x')) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(parseInt(name.slice(1), 10));
    const known = ENTITIES[name];
    if (known === undefined) throw xmlError(positionOf(source, offset), `unknown entity &${name}; in a value.`);
    return known;
  });
}

/**
 * Where the tag starting at `from` ends: the first '>' outside a quoted value (Littera and Glyph
 * Designer write letter=">" unescaped, which XML allows), -1 when there is none. A quote that
 * does not close on its line was never closed: the tag ends at the first '>' after it, and the
 * attributes report the quote.
 */
function tagEnd(source: string, from: number): number {
  let close = source.indexOf('>', from);
  // A plain walk of the stretch before each '>' (a sticky regular expression measured slower).
  for (let scanned = from; close >= 0; ) {
    let quote = 0;
    for (let k = scanned; k < close; k++) {
      const c = source.charCodeAt(k);
      if (quote !== 0) {
        if (c === quote) quote = 0;
      } else if (c === 34 || c === 39) quote = c;
    }
    if (quote === 0) return close;
    // The '>' was inside a value: go on from the value's closing quote if it closes on this line.
    const end = source.indexOf(String.fromCharCode(quote), close);
    const newline = source.indexOf('\n', close);
    if (end < 0 || (newline >= 0 && newline < end)) return close;
    scanned = end + 1;
    close = source.indexOf('>', scanned);
  }
  return -1;
}

const ATTRIBUTE = /\s*([A-Za-z_][\w.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/y;

/**
 * The attributes of a tag whose text between the name and `>` (or `/>`) is `inner`, starting at
 * `offset` in `source`; with `valueOffsets`, also where each value starts (for FontTag.valueAt).
 */
function attributesOf(source: string, inner: string, from: number, offset: number, name: string, valueOffsets?: Map<string, number>): Map<string, string> {
  const attributes = new Map<string, string>();
  let p = from;
  for (;;) {
    ATTRIBUTE.lastIndex = p;
    const m = ATTRIBUTE.exec(inner);
    if (!m) break;
    const raw = m[2] ?? m[3] ?? '';
    p = m.index + m[0].length;
    const quote = p - raw.length - 2;
    // Attributes are separated by white space: a closing quote followed by anything else opened
    // the next value, and this one was never closed.
    const after = inner.charCodeAt(p);
    if (p < inner.length && after !== 32 && after !== 9 && after !== 10 && after !== 13) {
      const next = /([A-Za-z_][\w.-]*)\s*=\s*$/.exec(raw);
      const what = next ? `opens the value of ${next[1]!}` : 'is not followed by a space';
      throw xmlError(positionOf(source, offset + quote), `the quoted value of ${m[1]!} is never closed (the next quote, at column ${positionOf(source, offset + p - 1).column}, ${what}); add the closing quote after the value.`);
    }
    attributes.set(m[1]!, decodeEntities(raw, source, offset + quote + 1));
    valueOffsets?.set(m[1]!, offset + quote + 1);
  }
  const rest = inner.slice(p);
  if (rest.trim() !== '') {
    const unclosed = /^\s*([A-Za-z_][\w.-]*)\s*=\s*(["'])/.exec(rest);
    if (unclosed && !rest.includes(unclosed[2]!, unclosed[0].length)) {
      throw xmlError(positionOf(source, offset + p + unclosed[0].length - 1), `the quoted value of ${unclosed[1]!} is never closed; add the closing quote after the value.`);
    }
    throw xmlError(positionOf(source, offset + p + rest.search(/\S/)), `bad attribute syntax near "${rest.trim().slice(0, 24)}" in <${name}> (expected name="value").`);
  }
  return attributes;
}

function* xmlTags(source: string): Generator<FontTag> {
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const n = source.length;
  const advanceTo = (to: number): void => {
    for (let k = i; k < to; k++) {
      if (source.charCodeAt(k) === 10) {
        line++;
        lineStart = k + 1;
      }
    }
    i = to;
  };
  const stack: { name: string; open: number }[] = [];
  while (i < n) {
    const open = source.indexOf('<', i);
    if (open < 0) break;
    const between = source.slice(i, open);
    if (between.trim() !== '') throw xmlError(positionOf(source, i + between.search(/\S/)), `unexpected text "${between.trim().slice(0, 20)}" between tags.`);
    advanceTo(open);
    if (source.startsWith('<!--', i)) {
      const close = source.indexOf('-->', i);
      if (close < 0) throw xmlError({ line, column: i - lineStart + 1 }, 'comment is never closed.');
      advanceTo(close + 3);
      continue;
    }
    if (source.startsWith('<?', i)) {
      const close = source.indexOf('?>', i);
      if (close < 0) throw xmlError({ line, column: i - lineStart + 1 }, '<? declaration is never closed.');
      advanceTo(close + 2);
      continue;
    }
    const tagAt: TextPosition = { line, column: open - lineStart + 1 };
    const close = tagEnd(source, i);
    if (close < 0) throw xmlError(tagAt, 'tag is never closed with >.');
    const body = source.slice(open + 1, close);
    advanceTo(close + 1);
    if (body.startsWith('/')) {
      const name = body.slice(1).trim();
      const expected = stack.pop();
      if (expected?.name !== name) throw xmlError(tagAt, `</${name}> closes ${expected ? `<${expected.name}>` : 'nothing'}.`);
      continue;
    }
    const selfClosing = body.endsWith('/');
    const inner = selfClosing ? body.slice(0, -1) : body;
    const nameMatch = /^\s*([A-Za-z_][\w.-]*)/.exec(inner);
    if (!nameMatch) throw xmlError(tagAt, `"<${body.slice(0, 20)}" is not a tag.`);
    const name = nameMatch[1]!;
    const from = nameMatch[0].length;
    const attributes = attributesOf(source, inner, from, open + 1, name);
    if (!selfClosing) stack.push({ name, open });
    yield {
      name,
      attributes,
      ...tagAt,
      valueAt(key) {
        const offsets = new Map<string, number>();
        attributesOf(source, inner, from, open + 1, name, offsets);
        const offset = offsets.get(key);
        return offset === undefined ? undefined : positionOf(source, offset);
      },
    };
  }
  const unclosed = stack.pop();
  if (unclosed) throw xmlError(positionOf(source, unclosed.open), `<${unclosed.name}> is never closed.`);
}

/** Reads AngelCode's XML .fnt format. */
export function parseBMFontXml(source: string): BMFont {
  if (source.charCodeAt(0) === 0xfeff) source = source.slice(1);
  if (!/\S/.test(source)) throw xmlError({ line: 1, column: 1 }, `the file is empty${source.length > 0 ? ' (only whitespace)' : ''}; an XML .fnt holds a <font> element.`);
  if (!/^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<font[\s>]/.test(source)) throw xmlError({ line: 1, column: 1 }, 'expected a <font> root element; this looks like another format (try parseBMFont, which detects it).');
  return fontFromTags(xmlTags(source), 'XML');
}

function escape(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Writes AngelCode's XML .fnt format, as BMFont itself lays it out. */
export function writeBMFontXml(font: BMFont): string {
  const { info, common } = font;
  const out: string[] = ['<?xml version="1.0"?>', '<font>'];
  out.push(`  <info face="${escape(info.face)}" size="${info.size}" bold="${info.bold}" italic="${info.italic}" charset="${escape(info.charset)}" unicode="${info.unicode}" stretchH="${info.stretchH}" smooth="${info.smooth}" aa="${info.aa}" padding="${info.padding.join(',')}" spacing="${info.spacing.join(',')}" outline="${info.outline}"/>`);
  out.push(`  <common lineHeight="${common.lineHeight}" base="${common.base}" scaleW="${common.scaleW}" scaleH="${common.scaleH}" pages="${common.pages}" packed="${common.packed}" alphaChnl="${common.alphaChnl}" redChnl="${common.redChnl}" greenChnl="${common.greenChnl}" blueChnl="${common.blueChnl}"/>`);
  out.push('  <pages>');
  font.pages.forEach((file, id) => out.push(`    <page id="${id}" file="${escape(file)}" />`));
  out.push('  </pages>');
  if (font.distanceField) out.push(`  <distanceField fieldType="${escape(font.distanceField.fieldType)}" distanceRange="${font.distanceField.distanceRange}"/>`);
  out.push(`  <chars count="${font.chars.length}">`);
  for (const c of font.chars) {
    out.push(`    <char id="${c.id}" x="${c.x}" y="${c.y}" width="${c.width}" height="${c.height}" xoffset="${c.xoffset}" yoffset="${c.yoffset}" xadvance="${c.xadvance}" page="${c.page}" chnl="${c.chnl}" />`);
  }
  out.push('  </chars>');
  if (font.kernings.length > 0) {
    out.push(`  <kernings count="${font.kernings.length}">`);
    for (const k of font.kernings) out.push(`    <kerning first="${k.first}" second="${k.second}" amount="${k.amount}" />`);
    out.push('  </kernings>');
  }
  out.push('</font>');
  return out.join('\n') + '\n';
}
