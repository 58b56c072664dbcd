// The file-system side of the font tools (Node only): read a .fnt with its page images, write
// one, and the two conversions the `cuttle-font` CLI runs.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import type { BMFont, BMFontFormat, GuiImage, ImageFormat } from './api.ts';
import { detectBMFontFormat, parseBMFont } from './bmfont.ts';
import { writeBMFontBinary } from './bmfont-binary.ts';
import { writeBMFontText } from './bmfont-text.ts';
import { writeBMFontXml } from './bmfont-xml.ts';
import { distanceFieldFont, type FontWithPages } from './distance-field-font.ts';
import { GuiError } from './errors.ts';
import { decodeImage, encodeImage, imageFormatOf } from './image.ts';
import { distanceFieldFontFromTtf, type TtfFontOptions } from './ttf-font.ts';

/** A font read from disk: the document, its decoded pages, and the `.fnt` format it was stored in. */
export interface FontFiles extends FontWithPages {
  /** The format the `.fnt` was stored in. */
  format: BMFontFormat;
}

/** Reads a .fnt (any format) and decodes its pages, found beside it. */
export async function readFontFiles(fntPath: string): Promise<FontFiles> {
  const bytes = new Uint8Array(await readFile(fntPath));
  const format = detectBMFontFormat(bytes);
  const font = parseBMFont(bytes);
  const pages: GuiImage[] = [];
  for (const file of font.pages) {
    const path = join(dirname(fntPath), file);
    let pageBytes: Uint8Array;
    try {
      pageBytes = new Uint8Array(await readFile(path));
    } catch {
      throw new GuiError(`${fntPath} names page "${file}", but ${path} cannot be read.`);
    }
    imageFormatOf(file);
    try {
      pages.push(await decodeImage(pageBytes));
    } catch (error) {
      if (error instanceof GuiError) throw new GuiError(`page ${path}: ${error.message}`, { offset: error.offset });
      throw error;
    }
  }
  return { font, pages, format };
}

/**
 * The `.fnt` file contents of `font` in `format`: bytes for `'binary'`, text for `'text'` and `'xml'`.
 * @param font - The document to write.
 * @param format - Which of the three encodings.
 */
export function serializeBMFont(font: BMFont, format: BMFontFormat): Uint8Array | string {
  return format === 'binary' ? writeBMFontBinary(font) : format === 'xml' ? writeBMFontXml(font) : writeBMFontText(font);
}

/**
 * Writes `fntPath` and its pages beside it, named `<fnt name>_<page>.<png|tga>`; the .fnt
 * names them.
 */
export async function writeFontFiles(fntPath: string, files: FontWithPages, format: BMFontFormat = 'text', imageFormat: ImageFormat = 'png'): Promise<string[]> {
  const stem = basename(fntPath, extname(fntPath));
  const names = files.pages.map((_, i) => `${stem}_${i}.${imageFormat}`);
  const font: BMFont = { ...files.font, pages: names };
  await mkdir(dirname(fntPath), { recursive: true });
  const written = [fntPath];
  await writeFile(fntPath, serializeBMFont(font, format));
  for (let i = 0; i < names.length; i++) {
    const path = join(dirname(fntPath), names[i]!);
    await writeFile(path, await encodeImage(files.pages[i]!, imageFormat));
    written.push(path);
  }
  return written;
}

/** Options of {@link convertFontFile}: the distance-field conversion and the output formats. */
export interface ConvertOptions {
  /** Downscale factor from the input pages to the output pages (e.g. 8). */
  scale: number;
  /** How far the field reaches beyond the outline, in output pixels (e.g. 4). */
  spread: number;
  /** Coverage at or above which an input pixel is inside the glyph (default 128). */
  threshold?: number;
  /** Output .fnt format (default: the input's). */
  format?: BMFontFormat;
  /** Output page format (default: the input's first page's). */
  imageFormat?: ImageFormat;
}

/** The post's tool: a high-resolution .fnt and its pages to a distance-field .fnt and pages. */
export async function convertFontFile(input: string, output: string, options: ConvertOptions): Promise<string[]> {
  const source = await readFontFiles(input);
  const result = distanceFieldFont(source.font, source.pages, options);
  const imageFormat = options.imageFormat ?? (source.font.pages[0] ? imageFormatOf(source.font.pages[0]) : 'png');
  return writeFontFiles(output, result, options.format ?? source.format, imageFormat);
}

/** A TTF/OTF file to a distance-field .fnt and pages. */
export async function ttfToFontFile(input: string, output: string, options: TtfFontOptions & { format?: BMFontFormat; imageFormat?: ImageFormat }): Promise<string[]> {
  const data = new Uint8Array(await readFile(input));
  return writeFontFiles(output, distanceFieldFontFromTtf(data, options), options.format ?? 'text', options.imageFormat ?? 'png');
}
