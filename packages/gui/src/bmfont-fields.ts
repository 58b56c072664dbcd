// The text and XML formats both store tags with key=value attributes; this turns such tags
// into a BMFont, checking every number, and names the line:column of anything wrong.
import type { BMFont, BMFontChar, BMFontCommon, BMFontInfo, BMFontKerning } from './api.ts';
import { GuiError } from './errors.ts';

/** Where something is in a text or XML file: line and column, both from 1. */
export interface TextPosition {
  line: number;
  column: number;
}

export interface FontTag extends TextPosition {
  name: string;
  attributes: Map<string, string>;
  /**
   * Where the value of `key` starts (line and column above: the tag's name, or its `<` in XML).
   * Found again from the tag's text when an error asks, so reading stays as fast as without.
   */
  valueAt(key: string): TextPosition | undefined;
  /** The char or kerning a reader already took from this tag (the text reader's fast path). */
  char?: BMFontChar;
  kerning?: BMFontKerning;
}

/** Throws naming a line:column: the tag's, or that of its value of `key` when it has one. */
function fail(at: FontTag | TextPosition, message: string, key?: string): never {
  const { line, column } = (key !== undefined && 'valueAt' in at ? at.valueAt(key) : undefined) ?? at;
  throw new GuiError(`BMFont line ${line}:${column}: ${message}`, { line, column });
}

function integer(tag: FontTag, key: string, fallback?: number): number {
  const raw = tag.attributes.get(key);
  if (raw === undefined) {
    if (fallback !== undefined) return fallback;
    fail(tag, `<${tag.name}> has no ${key}=; every ${tag.name} needs one.`);
  }
  // An empty value of an optional field (ShoeBox writes unicode=) reads as its default.
  if (fallback !== undefined && raw.trim() === '') return fallback;
  if (!/^-?\d+$/.test(raw.trim())) fail(tag, `${tag.name} ${key}="${raw}" is not an integer.`, key);
  return Number(raw);
}

function integers(tag: FontTag, key: string, count: number): number[] {
  const raw = tag.attributes.get(key);
  if (raw === undefined) return new Array<number>(count).fill(0);
  const parts = raw.split(',');
  if (parts.length !== count || parts.some((p) => !/^-?\d+$/.test(p.trim()))) fail(tag, `${tag.name} ${key}="${raw}" must be ${count} comma-separated integers.`, key);
  return parts.map(Number);
}

function infoOf(tag: FontTag): BMFontInfo {
  const padding = integers(tag, 'padding', 4);
  const spacing = integers(tag, 'spacing', 2);
  return {
    face: tag.attributes.get('face') ?? '',
    size: integer(tag, 'size', 0),
    bold: integer(tag, 'bold', 0),
    italic: integer(tag, 'italic', 0),
    charset: tag.attributes.get('charset') ?? '',
    unicode: integer(tag, 'unicode', 0),
    stretchH: integer(tag, 'stretchH', 100),
    smooth: integer(tag, 'smooth', 0),
    aa: integer(tag, 'aa', 1),
    padding: [padding[0]!, padding[1]!, padding[2]!, padding[3]!],
    spacing: [spacing[0]!, spacing[1]!],
    outline: integer(tag, 'outline', 0),
  };
}

function commonOf(tag: FontTag): BMFontCommon {
  return {
    lineHeight: integer(tag, 'lineHeight'),
    base: integer(tag, 'base'),
    scaleW: integer(tag, 'scaleW'),
    scaleH: integer(tag, 'scaleH'),
    pages: integer(tag, 'pages'),
    packed: integer(tag, 'packed', 0),
    alphaChnl: integer(tag, 'alphaChnl', 0),
    redChnl: integer(tag, 'redChnl', 0),
    greenChnl: integer(tag, 'greenChnl', 0),
    blueChnl: integer(tag, 'blueChnl', 0),
  };
}

function charOf(tag: FontTag): BMFontChar {
  return {
    id: integer(tag, 'id'),
    x: integer(tag, 'x'),
    y: integer(tag, 'y'),
    width: integer(tag, 'width'),
    height: integer(tag, 'height'),
    xoffset: integer(tag, 'xoffset'),
    yoffset: integer(tag, 'yoffset'),
    xadvance: integer(tag, 'xadvance'),
    page: integer(tag, 'page', 0),
    chnl: integer(tag, 'chnl', 15),
  };
}

function kerningOf(tag: FontTag): BMFontKerning {
  return { first: integer(tag, 'first'), second: integer(tag, 'second'), amount: integer(tag, 'amount') };
}

/** Builds a BMFont from its tags in file order; `format` names the file kind in errors. */
export function fontFromTags(tags: Iterable<FontTag>, format: string): BMFont {
  let info: BMFontInfo | undefined;
  let common: BMFontCommon | undefined;
  let commonTag: FontTag | undefined;
  const pages: string[] = [];
  const chars: BMFontChar[] = [];
  const kernings: BMFontKerning[] = [];
  const font: Partial<BMFont> = {};
  const charTags: FontTag[] = [];
  let firstTag: FontTag | undefined;
  let infoTag: FontTag | undefined;
  let afterInfo: FontTag | undefined;
  for (const tag of tags) {
    firstTag ??= tag;
    if (infoTag && !afterInfo) afterInfo = tag;
    switch (tag.name) {
      case 'info': info = infoOf(tag); infoTag = tag; break;
      case 'common': common = commonOf(tag); commonTag = tag; break;
      case 'page': {
        const id = integer(tag, 'id');
        const file = tag.attributes.get('file');
        if (file === undefined) fail(tag, 'page has no file=.');
        if (id < 0 || id > 255) fail(tag, `page id=${id} is out of range 0..255.`, 'id');
        if (pages[id] !== undefined) fail(tag, `page id=${id} appears twice.`, 'id');
        pages[id] = file;
        break;
      }
      case 'char': chars.push(tag.char ?? charOf(tag)); charTags.push(tag); break;
      case 'kerning': kernings.push(tag.kerning ?? kerningOf(tag)); break;
      case 'distanceField': {
        font.distanceField = { fieldType: tag.attributes.get('fieldType') ?? 'sdf', distanceRange: integer(tag, 'distanceRange') };
        break;
      }
      default: break; // chars/kernings count lines, <font>, <pages> wrappers and unknown tags
    }
  }
  if (!info) fail(firstTag ?? { line: 1, column: 1 }, `no info block in this ${format} file: an AngelCode .fnt starts with info (then common, pages, chars); is this one?`);
  if (!common || !commonTag) fail(afterInfo ?? infoTag!, `no common block in this ${format} file: it belongs here, after info; is the file cut short, or not an AngelCode .fnt?`);
  for (let i = 0; i < pages.length; i++) {
    if (pages[i] === undefined) fail(commonTag, `page id=${i} is missing (page ids must run 0..${pages.length - 1}).`, 'pages');
  }
  if (pages.length !== common.pages) fail(commonTag, `common pages=${common.pages} but the file lists ${pages.length} page(s).`, 'pages');
  for (let i = 0; i < chars.length; i++) {
    if (chars[i]!.page >= pages.length) fail(charTags[i]!, `char id=${chars[i]!.id} is on page ${chars[i]!.page}, but the font has ${pages.length} page(s).`, 'page');
  }
  return { info, common, pages, chars, kernings, ...font };
}
