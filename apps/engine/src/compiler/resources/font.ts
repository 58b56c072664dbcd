// font: a TTF/OTF (rasterised, then distance fields) or a high-resolution AngelCode .fnt with
// its pages (scaled down into distance fields, the post's tool) → a binary BMFont and its
// single-channel field pages, through @cuttle/gui. Every file goes through ctx.readInput: inside
// the project, or inside a folder named with --font-dir (pages too).
import { dirname, isAbsolute, posix } from 'node:path';
import { decodePng, distanceFieldFont, distanceFieldFontFromTtf, GuiError, parseBMFont, writeBMFontText, type FontWithPages } from '@cuttle/gui';
import { CompileError } from '../../errors.ts';
import type { FontMeta } from '../../runtime/formats.ts';
import { writeContainer, type SectionArray } from '../../runtime/container.ts';
import { validate, type CompileContext } from '../context.ts';
import { FONT_SOURCE } from '../schemas.ts';

export async function compileFont(ctx: CompileContext): Promise<Uint8Array> {
  const src = validate(ctx, FONT_SOURCE, ctx.document());
  const spread = src.spread ?? 4;
  const scale = src.scale ?? 8;
  const bytes = ctx.readInput(src.source, ['source']);
  let result: FontWithPages;
  try {
    if (src.source.toLowerCase().endsWith('.fnt')) {
      const font = parseBMFont(bytes);
      const base = isAbsolute(src.source) ? dirname(src.source) : posix.dirname(src.source);
      const pages = await Promise.all(font.pages.map(async (page) => decodePng(ctx.readInput(posix.join(base, page), ['source']))));
      result = distanceFieldFont(font, pages, { scale, spread });
    } else {
      result = distanceFieldFontFromTtf(bytes, { size: src.size ?? 32, spread, scale, ...(src.chars === undefined ? {} : { chars: src.chars }) });
    }
  } catch (error) {
    if (error instanceof CompileError) throw error; // a page that could not be read
    // Only where the readers stopped, never their words: those can quote the file (opentype.js
    // echoes a bad signature, the .fnt readers a bad line).
    const where = error instanceof GuiError ? (error.line !== undefined ? ` (line ${error.line})` : error.offset !== undefined ? ` (byte ${error.offset})` : '') : '';
    return ctx.fail(['source'], `${src.source} is not a TrueType/OpenType font, or an AngelCode .fnt with PNG pages, that this compiler reads${where}`, 'Point source at such a file (cuttle-font of @cuttle/gui converts one and prints the reader\'s own message)');
  }
  const sections: Record<string, SectionArray> = { fnt: new TextEncoder().encode(writeBMFontText(result.font)) };
  result.pages.forEach((page, i) => {
    sections[`page${i}`] = page.data;
  });
  const meta: FontMeta = { size: result.font.info.size, spread, pages: result.pages.map((p) => ({ width: p.width, height: p.height })) };
  return writeContainer({ type: 'font', meta, sections });
}
