// PNG and JPEG images (a GLB's embedded images) decoded to RGBA8 with sharp (libvips,
// libspng, libjpeg-turbo): the size the header claims is checked before any pixel is decoded,
// and a file with less data than its header says is refused (sharp's failOn 'warning'), not
// padded with grey.
import sharp from 'sharp';
import { MAX_TEXTURE_SIZE } from './limits.ts';

export class ImageDecodeError extends Error {
  override name = 'ImageDecodeError';
}

export interface DecodedImage {
  width: number;
  height: number;
  /** RGBA8, top row first. */
  rgba: Uint8Array;
}

const FORMATS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpeg' };

/** Decodes `bytes`, which must be a `mimeType` image; throws ImageDecodeError saying why not. */
export async function decodeImage(bytes: Uint8Array, mimeType: string): Promise<DecodedImage> {
  const expected = FORMATS[mimeType];
  if (!expected) throw new ImageDecodeError(`is ${mimeType || 'of no MIME type'}; only image/png and image/jpeg are read`);
  const options = { failOn: 'warning', limitInputPixels: MAX_TEXTURE_SIZE * MAX_TEXTURE_SIZE } as const;
  let header;
  try {
    header = await sharp(bytes, options).metadata();
  } catch (error) {
    throw new ImageDecodeError(`has no readable ${expected.toUpperCase()} header (${error instanceof Error ? error.message : String(error)})`);
  }
  if (header.format !== expected) throw new ImageDecodeError(`says it is ${mimeType} but holds ${header.format}`);
  const { width, height } = header;
  if (width > MAX_TEXTURE_SIZE || height > MAX_TEXTURE_SIZE) throw new ImageDecodeError(`says it is ${width}x${height}, larger than ${MAX_TEXTURE_SIZE} px on a side, which not every GPU loads`);
  try {
    // 8-bit sRGB RGBA whatever the source's depth, channels or palette.
    const { data, info } = await sharp(bytes, options).toColourspace('srgb').ensureAlpha().raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
    if (info.channels !== 4 || data.length !== width * height * 4) throw new ImageDecodeError(`decoded to ${info.width}x${info.height}x${info.channels}, not ${width}x${height} RGBA`);
    return { width, height, rgba: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
  } catch (error) {
    if (error instanceof ImageDecodeError) throw error;
    throw new ImageDecodeError(`does not decode (${error instanceof Error ? error.message : String(error)}): the image is damaged or truncated`);
  }
}
