// Page images by format: the .fnt names its pages, the extension (or the signature) says
// which codec reads them.
import type { GuiImage, ImageFormat } from './api.ts';
import { GuiError } from './errors.ts';
import { decodePng, encodePng, isPng } from './png.ts';
import { decodeTga, encodeTga } from './tga.ts';

/** The format of a page file, from its name. */
export function imageFormatOf(fileName: string): ImageFormat {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.png')) return 'png';
  if (lower.endsWith('.tga')) return 'tga';
  throw new GuiError(`page "${fileName}": only .png and .tga pages are supported; convert it to one of them.`);
}

/** Decodes a PNG (by signature) or TGA page. */
export async function decodeImage(bytes: Uint8Array): Promise<GuiImage> {
  return isPng(bytes) ? decodePng(bytes) : decodeTga(bytes);
}

/**
 * Encodes a page as PNG or TGA (uncompressed).
 * @param image - The pixels, 1 or 4 channels.
 * @param format - `'png'` or `'tga'`.
 * @throws {@link GuiError} when `data` does not hold `width * height * channels` bytes, or (TGA) when a side exceeds 65535.
 */
export async function encodeImage(image: GuiImage, format: ImageFormat): Promise<Uint8Array> {
  return format === 'png' ? encodePng(image) : encodeTga(image);
}

/**
 * The glyph coverage of a page as one byte per pixel: grey pages as they are; RGBA pages by
 * their alpha, or by their brightest colour channel where alpha is constant (BMFont writes
 * glyphs to the colour channels when alphaChnl is "one" or "zero").
 */
export function coverageOf(image: GuiImage): Uint8Array {
  const { width, height, channels, data } = image;
  const count = width * height;
  if (channels === 1) return data;
  const out = new Uint8Array(count);
  const a0 = data[3]!;
  let alphaVaries = false;
  for (let i = 0; i < count; i++) {
    if (data[i * 4 + 3] !== a0) {
      alphaVaries = true;
      break;
    }
  }
  for (let i = 0; i < count; i++) {
    out[i] = alphaVaries ? data[i * 4 + 3]! : Math.max(data[i * 4]!, data[i * 4 + 1]!, data[i * 4 + 2]!);
  }
  return out;
}
