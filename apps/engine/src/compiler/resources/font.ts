// font: a TTF/OTF (rasterised, then distance fields) or a high-resolution AngelCode .fnt with
// its pages (scaled down into distance fields, the post's tool) → a binary BMFont and its
// single-channel field pages, through @cuttle/gui.
import { dirname, posix } from 'node:path';
import { decodePng, distanceFieldFont, distanceFieldFontFromTtf, parseBMFont, writeBMFontText, type FontWithPages } from '@cuttle/gui';
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
      const base = src.source.startsWith('/') ? dirname(src.source) : posix.dirname(src.source);
      const pages = await Promise.all(font.pages.map(async (page) => decodePng(ctx.readInput(posix.join(base, page), ['source']))));
      result = distanceFieldFont(font, pages, { scale, spread });
    } else {
      result = distanceFieldFontFromTtf(bytes, { size: src.size ?? 32, spread, scale, ...(src.chars === undefined ? {} : { chars: src.chars }) });
    }
  } catch (error) {
    return ctx.fail(['source'], `${src.source} could not be turned into a distance-field font: ${error instanceof Error ? error.message : String(error)}`, 'Point source at a TrueType/OpenType file or an AngelCode .fnt with PNG pages');
  }
  const sections: Record<string, SectionArray> = { fnt: new TextEncoder().encode(writeBMFontText(result.font)) };
  result.pages.forEach((page, i) => {
    sections[`page${i}`] = page.data;
  });
  const meta: FontMeta = { size: result.font.info.size, spread, pages: result.pages.map((p) => ({ width: p.width, height: p.height })) };
  return writeContainer({ type: 'font', meta, sections });
}
