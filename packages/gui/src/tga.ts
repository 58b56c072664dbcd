// A small TGA codec: uncompressed and RLE, grey (8 bits), true colour (24/32 bits, BGR(A)) and
// colour-mapped (8-bit indices into 24/32-bit entries), either origin. Writes uncompressed grey
// or 32-bit BGRA, top-left origin.
import type { GuiImage } from './api.ts';
import { GuiError } from './errors.ts';

function fail(offset: number, message: string): never {
  throw new GuiError(`TGA at byte offset ${offset}: ${message}`, { offset });
}

/** Decodes a TGA file (image types 1, 2, 3, 9, 10, 11). */
export function decodeTga(bytes: Uint8Array): GuiImage {
  if (bytes.length < 18) fail(0, `file is ${bytes.length} bytes; a TGA header alone is 18.`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const idLength = bytes[0]!;
  const mapType = bytes[1]!;
  const type = bytes[2]!;
  const mapFirst = view.getUint16(3, true);
  const mapLength = view.getUint16(5, true);
  const mapDepth = bytes[7]!;
  const width = view.getUint16(12, true);
  const height = view.getUint16(14, true);
  const depth = bytes[16]!;
  const descriptor = bytes[17]!;
  const rle = type >= 9;
  const base = rle ? type - 8 : type;
  if (![1, 2, 3].includes(base)) fail(2, `image type ${type} is not supported (1, 2, 3 and their RLE forms 9, 10, 11 are).`);
  if (width === 0 || height === 0) fail(12, `image is ${width}x${height}.`);
  if (base === 3 && depth !== 8) fail(16, `grey images must be 8 bits per pixel, this one is ${depth}.`);
  if (base === 2 && depth !== 24 && depth !== 32) fail(16, `true-colour images must be 24 or 32 bits per pixel, this one is ${depth} (16-bit is not supported).`);
  if (base === 1 && (depth !== 8 || mapType !== 1 || (mapDepth !== 24 && mapDepth !== 32))) fail(16, 'colour-mapped images must use 8-bit indices into 24- or 32-bit colour map entries.');
  let at = 18 + idLength;
  let map: Uint8Array | undefined;
  if (mapType === 1) {
    const mapBytes = mapLength * (mapDepth >> 3);
    if (at + mapBytes > bytes.length) fail(at, 'the colour map runs past the end of the file.');
    map = bytes.subarray(at, at + mapBytes);
    at += mapBytes;
  }
  const bpp = depth >> 3;
  const count = width * height;
  const src = new Uint8Array(count * bpp);
  if (rle) {
    let p = 0;
    while (p < count) {
      if (at >= bytes.length) fail(at, `RLE data ends after ${p} of ${count} pixels (truncated?).`);
      const header = bytes[at++]!;
      const run = (header & 0x7f) + 1;
      if (p + run > count) fail(at - 1, `RLE packet of ${run} pixels overruns the image.`);
      if (header & 0x80) {
        if (at + bpp > bytes.length) fail(at, 'RLE packet runs past the end of the file.');
        for (let k = 0; k < run; k++) src.set(bytes.subarray(at, at + bpp), (p + k) * bpp);
        at += bpp;
      } else {
        if (at + run * bpp > bytes.length) fail(at, 'raw packet runs past the end of the file.');
        src.set(bytes.subarray(at, at + run * bpp), p * bpp);
        at += run * bpp;
      }
      p += run;
    }
  } else {
    if (at + count * bpp > bytes.length) fail(at, `pixel data needs ${count * bpp} bytes, only ${bytes.length - at} remain (truncated?).`);
    src.set(bytes.subarray(at, at + count * bpp));
  }
  const topDown = (descriptor & 0x20) !== 0;
  const rightToLeft = (descriptor & 0x10) !== 0;
  const grey = base === 3;
  const channels = grey ? 1 : 4;
  const out = new Uint8Array(count * channels);
  const entry = mapDepth >> 3;
  for (let y = 0; y < height; y++) {
    const sy = topDown ? y : height - 1 - y;
    for (let x = 0; x < width; x++) {
      const sx = rightToLeft ? width - 1 - x : x;
      const s = (sy * width + sx) * bpp;
      const d = (y * width + x) * channels;
      if (grey) {
        out[d] = src[s]!;
      } else if (base === 1) {
        const e = (src[s]! - mapFirst) * entry;
        if (e < 0 || e + entry > map!.length) fail(18, `pixel (${x}, ${y}) indexes colour ${src[s]}, outside the colour map.`);
        out[d] = map![e + 2]!;
        out[d + 1] = map![e + 1]!;
        out[d + 2] = map![e]!;
        out[d + 3] = entry === 4 ? map![e + 3]! : 255;
      } else {
        out[d] = src[s + 2]!;
        out[d + 1] = src[s + 1]!;
        out[d + 2] = src[s]!;
        out[d + 3] = bpp === 4 ? src[s + 3]! : 255;
      }
    }
  }
  return { width, height, channels, data: out };
}

/** Encodes uncompressed TGA: grey for 1 channel, 32-bit BGRA for 4; top-left origin. */
export function encodeTga(image: GuiImage): Uint8Array {
  const { width, height, channels, data } = image;
  if (data.length !== width * height * channels) throw new GuiError(`encodeTga: data holds ${data.length} bytes, a ${width}x${height}x${channels} image needs ${width * height * channels}.`);
  if (width > 0xffff || height > 0xffff) throw new GuiError(`encodeTga: ${width}x${height} is larger than TGA's 65535x65535.`);
  const out = new Uint8Array(18 + data.length);
  const view = new DataView(out.buffer);
  out[2] = channels === 1 ? 3 : 2;
  view.setUint16(12, width, true);
  view.setUint16(14, height, true);
  out[16] = channels * 8;
  out[17] = 0x20 | (channels === 4 ? 8 : 0);
  if (channels === 1) out.set(data, 18);
  else {
    for (let i = 0; i < width * height; i++) {
      out[18 + i * 4] = data[i * 4 + 2]!;
      out[18 + i * 4 + 1] = data[i * 4 + 1]!;
      out[18 + i * 4 + 2] = data[i * 4]!;
      out[18 + i * 4 + 3] = data[i * 4 + 3]!;
    }
  }
  return out;
}
