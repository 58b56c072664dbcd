// AngelCode's XML .fnt: <font> with <info>, <common>, <pages>/<page>, <chars>/<char> and
// <kernings>/<kerning>. A small XML tokenizer (elements, attributes, comments, the
// declaration, entities) is all the format needs; errors name the line.
import type { BMFont } from './api.ts';
import { fontFromTags, type FontTag } from './bmfont-fields.ts';
import { GuiError } from './errors.ts';

const ENTITIES: Record<string, string> = { quot: '"', amp: '&', lt: '<', gt: '>', apos: "'" };

function decodeEntities(value: string, line: number): string {
  return value.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z]+);/g, (_, name: string) => {
    if (name.startsWith('#x')) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(parseInt(name.slice(1), 10));
    const known = ENTITIES[name];
    if (known === undefined) throw new GuiError(`BMFont XML line ${line}: unknown entity &${name};.`, { line });
    return known;
  });
}

function* xmlTags(source: string): Generator<FontTag> {
  let i = 0;
  let line = 1;
  const n = source.length;
  const advanceTo = (to: number): void => {
    for (let k = i; k < to; k++) if (source.charCodeAt(k) === 10) line++;
    i = to;
  };
  const stack: string[] = [];
  while (i < n) {
    const open = source.indexOf('<', i);
    if (open < 0) {
      advanceTo(n);
      break;
    }
    if (source.slice(i, open).trim() !== '') throw new GuiError(`BMFont XML line ${line}: unexpected text "${source.slice(i, open).trim().slice(0, 20)}" between tags.`, { line });
    advanceTo(open);
    if (source.startsWith('<!--', i)) {
      const close = source.indexOf('-->', i);
      if (close < 0) throw new GuiError(`BMFont XML line ${line}: comment is never closed.`, { line });
      advanceTo(close + 3);
      continue;
    }
    if (source.startsWith('<?', i)) {
      const close = source.indexOf('?>', i);
      if (close < 0) throw new GuiError(`BMFont XML line ${line}: <? declaration is never closed.`, { line });
      advanceTo(close + 2);
      continue;
    }
    const tagLine = line;
    const close = source.indexOf('>', i);
    if (close < 0) throw new GuiError(`BMFont XML line ${line}: tag is never closed with >.`, { line });
    const body = source.slice(i + 1, close);
    advanceTo(close + 1);
    if (body.startsWith('/')) {
      const name = body.slice(1).trim();
      const expected = stack.pop();
      if (expected !== name) throw new GuiError(`BMFont XML line ${tagLine}: </${name}> closes ${expected ? `<${expected}>` : 'nothing'}.`, { line: tagLine });
      continue;
    }
    const selfClosing = body.endsWith('/');
    const inner = selfClosing ? body.slice(0, -1) : body;
    const nameMatch = /^\s*([A-Za-z_][\w.-]*)/.exec(inner);
    if (!nameMatch) throw new GuiError(`BMFont XML line ${tagLine}: "<${body.slice(0, 20)}" is not a tag.`, { line: tagLine });
    const name = nameMatch[1]!;
    const attributes = new Map<string, string>();
    let rest = inner.slice(nameMatch[0].length);
    const attribute = /^\s*([A-Za-z_][\w.-]*)\s*=\s*("([^"]*)"|'([^']*)')/;
    for (;;) {
      const m = attribute.exec(rest);
      if (!m) break;
      attributes.set(m[1]!, decodeEntities(m[3] ?? m[4] ?? '', tagLine));
      rest = rest.slice(m[0].length);
    }
    if (rest.trim() !== '') throw new GuiError(`BMFont XML line ${tagLine}: bad attribute syntax near "${rest.trim().slice(0, 24)}" in <${name}> (expected name="value").`, { line: tagLine });
    if (!selfClosing) stack.push(name);
    yield { name, attributes, line: tagLine };
  }
  if (stack.length > 0) throw new GuiError(`BMFont XML line ${line}: <${stack[stack.length - 1]!}> is never closed.`, { line });
}

/** Reads AngelCode's XML .fnt format. */
export function parseBMFontXml(source: string): BMFont {
  if (source.charCodeAt(0) === 0xfeff) source = source.slice(1);
  if (!/^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<font[\s>]/.test(source)) throw new GuiError('BMFont XML line 1: expected a <font> root element; this looks like another format (try parseBMFont, which detects it).', { line: 1 });
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
